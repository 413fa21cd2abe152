/**
 * Offline resource types: `local.File`.
 *
 * @example
 * import { local } from "cairn/local";
 * new local.File("readme", { path: "out/README.txt", content: "hello" });
 */
import * as local from "./local.js";
export { local };
