import type { Props, ResourceState } from "./types.js";

/**
 * Called with each secret value found, its attribute name and the bag holding it; returning true stops the
 * walk (to ask whether there is one).
 *
 * @example const collect: SecretVisitor = (value) => void found.push(value);
 */
export type SecretVisitor = (value: unknown, key: string, props: Props) => boolean | void;

/**
 * A record that keeps secrets as Cairn does everywhere: one list of attribute names, applying to each
 * of its attribute bags. Resource records and deposed objects call their bags `inputs` and `outputs`;
 * plan steps `news`, `olds` and `outputs`.
 *
 * @example const step: SecretHolder = { secretKeys: ["password"], news: { password: "hunter2", user: "admin" } };
 */
export interface SecretHolder {
  secretKeys?: readonly string[] | undefined;
  inputs?: Props | undefined;
  news?: Props | undefined;
  olds?: Props | undefined;
  outputs?: Props | undefined;
}

/**
 * Visits the value of each of `keys` that `props` has as an attribute of its own (a name such as
 * `constructor` is never found on the prototype). Returns true if `visit` stopped the walk.
 *
 * @example visitSecretProps({ pw: "x", user: "u" }, ["pw", "token"], (v) => void found.push(v)) // found: ["x"]
 */
export function visitSecretProps(props: Props | undefined, keys: readonly string[] | undefined, visit: SecretVisitor): boolean {
  if (!props || !keys) return false;
  for (const k of keys) if (Object.hasOwn(props, k) && visit(props[k], k, props) === true) return true;
  return false;
}

/**
 * Visits every secret value a record holds, bag by bag (inputs, news, olds, outputs). The one walk over
 * secrets: encoding for state, the redaction registry and the step handlers all find them through it.
 * Returns true if `visit` stopped the walk.
 *
 * @example visitSecrets(step, (v) => void secrets.add(v));
 */
export function visitSecrets(holder: SecretHolder, visit: SecretVisitor): boolean {
  const keys = holder.secretKeys;
  // Most records have no secrets: one test, and nothing else is looked at.
  if (!keys?.length) return false;
  return (
    visitSecretProps(holder.inputs, keys, visit) ||
    visitSecretProps(holder.news, keys, visit) ||
    visitSecretProps(holder.olds, keys, visit) ||
    visitSecretProps(holder.outputs, keys, visit)
  );
}

/**
 * Every secret value a record holds, in the order {@link visitSecrets} finds them (to mask in messages).
 * @example secretValuesOf({ secretKeys: ["pw"], news: { pw: "new" }, olds: { pw: "old" } }) // ["new", "old"]
 */
export function secretValuesOf(holder: SecretHolder): unknown[] {
  const out: unknown[] = [];
  visitSecrets(holder, (v) => void out.push(v));
  return out;
}

/**
 * Visits every secret value of a resource record: its own, then each deposed object's (by its own keys).
 * Returns true if `visit` stopped the walk.
 *
 * @example const has = visitResourceSecrets(r, () => true);
 */
export function visitResourceSecrets(r: ResourceState, visit: SecretVisitor): boolean {
  if (visitSecrets(r, visit)) return true;
  if (r.deposed) for (const d of r.deposed) if (visitSecrets(d, visit)) return true;
  return false;
}
