import type { Clock } from "../provider/provider.js";
import type { Duration } from "../core/duration.js";

/** The real clock: `Date.now` and timers. Tests inject a fake one instead. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (d: Duration, signal?: AbortSignal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = setTimeout(() => {
        signal?.removeEventListener("abort", onAbort);
        resolve();
      }, d);
      const onAbort = () => {
        clearTimeout(t);
        reject(signal!.reason);
      };
      signal?.addEventListener("abort", onAbort, { once: true });
    }),
};
