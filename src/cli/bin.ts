#!/usr/bin/env node
/**
 * The `cairn` bin: refuses a Node.js that Cairn does not support, with a message saying which to install,
 * before loading the command line (main.ts): an older Node would otherwise fail on some module of it
 * with a stack trace.
 *
 * @module
 */
import "../require-node.js";

await import("./main.js");
