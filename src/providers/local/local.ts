export { File } from "./file.js";
export type { FileInputs, FileOutputs } from "./file.js";
