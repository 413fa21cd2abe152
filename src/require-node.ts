/**
 * Imported first by every entry point of the package (`cairn`, the `cairn` bin): on a Node.js older than
 * Cairn supports it prints what is wrong and what to do, and exits, instead of failing later with a stack
 * trace from an API that Node lacks. One comparison of two version strings: it costs nothing on a good Node.
 *
 * @module
 */
import { unsupportedNodeMessage } from "./core/node-support.js";

const problem = unsupportedNodeMessage(process.versions.node, process.execPath);
if (problem) {
  process.stderr.write(`error: ${problem}\n`);
  // Exit rather than throw: Node would print a thrown error with its own stack frames, and nothing of
  // Cairn can work on this Node anyway.
  process.exit(1);
}
