import type { LiveRegion } from "./live.js";

/**
 * A region that is usable at once while the one it stands for is still loading: calls made before it is
 * ready are replayed in order, then go straight through. The CLI loads log-update (and the dozen modules
 * it brings) only where a live region is drawn, so plain and JSON output never pay for them. Should the
 * region fail to load, progress is not drawn and the run goes on.
 *
 * @example const region = deferredRegion(import("./terminal.js").then((m) => m.terminalRegion()));
 */
export function deferredRegion(loading: Promise<LiveRegion>, onError: (e: unknown) => void = () => {}): LiveRegion {
  let region: LiveRegion | undefined;
  const queued: ((r: LiveRegion) => void)[] = [];
  loading.then(
    (r) => {
      region = r;
      for (const call of queued.splice(0)) call(r);
    },
    (e: unknown) => {
      region = { update: () => {}, clear: () => {}, done: () => {} };
      queued.length = 0;
      onError(e);
    },
  );
  const forward = (call: (r: LiveRegion) => void) => (region ? call(region) : void queued.push(call));
  return { update: (text) => forward((r) => r.update(text)), clear: () => forward((r) => r.clear()), done: () => forward((r) => r.done()) };
}
