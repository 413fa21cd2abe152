export { File } from "./file.js";
export { Command } from "./command.js";
export { RandomId, RandomPassword } from "./random.js";
export type { FileInputs, FileOutputs } from "./file.js";
export type { CommandInputs, CommandOutputs } from "./command.js";
export type { RandomIdInputs, RandomIdOutputs, RandomPasswordInputs, RandomPasswordOutputs } from "./random.js";
