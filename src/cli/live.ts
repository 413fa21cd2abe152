import { createLogUpdate } from "log-update";
import type { LiveRegion } from "./wait-progress.js";

/**
 * A region of the terminal redrawn in place, on stdout (log-update handles wrapping and erasing).
 * @example const live = terminalRegion(); live.update("> issued  waiting 3s"); live.done();
 */
export function terminalRegion(): LiveRegion {
  const log = createLogUpdate(process.stdout);
  return { update: (text) => log(text), clear: () => log.clear(), done: () => log.done() };
}
