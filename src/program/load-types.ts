/**
 * Type definitions for objects in state whose program no longer imports their module: a token
 * `pkg:module:Name` is defined by Cairn's own module `cairn/<pkg>/<module>` (e.g. `aws:sqs:Queue` by
 * `cairn-iac/aws/sqs`), loaded on demand so such objects can still be read, resumed and deleted.
 */
import { findDefinition } from "./registry.js";

// A cache of imports: a module is loaded once per process whatever asks, and what it defines is code.
const tried = new Map<string, Promise<void>>();

/**
 * Loads the modules that define `types`, for those not defined yet; a token no module of Cairn's defines
 * is left alone (its provider is then reported missing where it is needed).
 *
 * @example await loadTypeModules(Object.values(state.resources).map((r) => r.type));
 */
export async function loadTypeModules(types: Iterable<string>): Promise<void> {
  const wanted = new Set<string>();
  for (const t of new Set(types)) {
    if (findDefinition(t)) continue;
    const m = /^([a-z0-9-]+):([a-z0-9.-]+):[A-Za-z0-9]+$/.exec(t);
    if (m) wanted.add(`cairn-iac/${m[1]}/${m[2]}`);
  }
  await Promise.all(
    [...wanted].map((spec) => {
      let p = tried.get(spec);
      // Not every token names a module (hand-written types live in a package's index): a failed import is no error.
      if (!p) tried.set(spec, (p = import(spec).then(() => undefined, () => undefined)));
      return p;
    }),
  );
}
