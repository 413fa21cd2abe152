import { createLogUpdate } from "log-update";
import type { LiveRegion } from "./live.js";

/**
 * A region of the terminal redrawn in place, on stdout (log-update erases the previous frame, handling wrapping).
 * @example const live = terminalRegion(); live.update("⠋ creating cert"); live.done();
 */
export function terminalRegion(stream: NodeJS.WriteStream = process.stdout): LiveRegion {
  const log = createLogUpdate(stream);
  return { update: (text) => log(text), clear: () => log.clear(), done: () => log.done() };
}
