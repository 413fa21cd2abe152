/**
 * `fn` over `items`, at most `limit` calls at once, the results in the order of `items`: how a run reads
 * many cloud objects without starting every request at once (`--parallel`). After a call fails no new one
 * starts, and the failure is what it rejects with (calls already running are let finish).
 *
 * @example const reads = await limitedMap(records, 10, (r) => provider.read(r));
 */
export async function limitedMap<T, R>(items: readonly T[], limit: number, fn: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const out = new Array<R>(items.length);
  let next = 0;
  let failed = false;
  const worker = async (): Promise<void> => {
    while (!failed && next < items.length) {
      const i = next++;
      try {
        out[i] = await fn(items[i]!, i);
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  const workers = Math.max(1, Math.min(Math.floor(limit) || 1, items.length));
  await Promise.all(Array.from({ length: workers }, worker));
  return out;
}
