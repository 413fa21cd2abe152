/**
 * Offline resource types: `local.File`, `local.Command`, `local.RandomId`, `local.RandomPassword`.
 *
 * @example
 * import { local } from "cairn-iac/local";
 * new local.File("readme", { path: "out/README.txt", content: "hello" });
 * const server = new local.Command("server", { create: "node start.mjs", delete: "node stop.mjs" });
 *
 * @module cairn-iac/local
 */
import * as local from "./local.js";
export { local };
export { File } from "./file.js";
export { Command, type CommandClass } from "./command.js";
export { RandomId, RandomPassword } from "./random.js";
export type { FileInputs, FileOutputs } from "./file.js";
export type { CommandInputs, CommandOutputs } from "./command.js";
export type { RandomIdInputs, RandomIdOutputs, RandomPasswordInputs, RandomPasswordOutputs } from "./random.js";
