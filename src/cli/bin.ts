#!/usr/bin/env node
/**
 * The `cairn` bin: refuses a Node.js that Cairn does not support, with a message saying which to install,
 * before loading the command line (main.ts): an older Node would otherwise fail on some module of it
 * with a stack trace. On Node 22.1 and later it turns on Node's compile cache first, as `tsc` does.
 *
 * @module
 */
import "../require-node.js";
import * as nodeModule from "node:module";

// The bytecode V8 compiles for Cairn's modules (and the program's) is kept on disk between runs (in the
// system's temporary folder; NODE_DISABLE_COMPILE_CACHE=1 turns it off), which shortens the start of every
// command. Node 20 has no such cache (the call is absent there).
(nodeModule as { enableCompileCache?: () => unknown }).enableCompileCache?.();

await import("./main.js");
