/**
 * Settles with `p`, or rejects with the signal's reason as soon as `signal` aborts: a provider may ignore
 * the signal it was given, and a call that does must not hold the run.
 *
 * @example const outputs = await untilAborted(provider.read({ urn, id, inputs, outputs, ctx }), ctx.signal);
 */
export function untilAborted<T>(p: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    p.then(
      (v) => {
        signal.removeEventListener("abort", onAbort);
        resolve(v);
      },
      (e: unknown) => {
        signal.removeEventListener("abort", onAbort);
        reject(e);
      },
    );
  });
}
