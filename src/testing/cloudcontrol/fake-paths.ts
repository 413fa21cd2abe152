/**
 * The registry's property paths (CloudFormation names joined with `/`, `*` for every element of an array)
 * applied to a model: finding, removing and comparing what they name, and whether a JSON Patch path
 * touches one.
 */

type Model = Record<string, unknown>;

/** One place a registry path names in a model: the object or array holding it, and its key there. */
export interface Slot {
  parent: Model | unknown[];
  key: string | number;
  value: unknown;
}

const isObject = (v: unknown): v is Model => v !== null && typeof v === "object" && !Array.isArray(v);

/**
 * Every value a path names in `model` (a `*` segment fans out over an array's elements); only places that
 * hold a value.
 *
 * @example slotsAt({ Rules: [{ Id: "a" }, { Id: "b" }] }, ["Rules", "*", "Id"]).map((s) => s.value) // ["a", "b"]
 */
export function slotsAt(model: Model, path: readonly string[]): Slot[] {
  let here: Slot[] = [{ parent: { root: model }, key: "root", value: model }];
  for (const seg of path) {
    const next: Slot[] = [];
    for (const s of here) {
      if (seg === "*" && Array.isArray(s.value)) s.value.forEach((v, i) => next.push({ parent: s.value as unknown[], key: i, value: v }));
      else if (/^\d+$/.test(seg) && Array.isArray(s.value) && s.value[Number(seg)] !== undefined) next.push({ parent: s.value, key: Number(seg), value: s.value[Number(seg)] });
      else if (isObject(s.value) && s.value[seg] !== undefined) next.push({ parent: s.value, key: seg, value: s.value[seg] });
    }
    here = next;
  }
  return here;
}

/**
 * Removes what a path names, then any object on the way that this left empty (a `Code` whose every field is
 * write-only is not returned at all). Returns the paths removed, with indexes for `*`.
 *
 * @example removeAt(model, ["Code", "ZipFile"]) // ["Code/ZipFile"]
 */
export function removeAt(model: Model, path: readonly string[]): string[] {
  const removed: string[] = [];
  const walk = (v: unknown, i: number, trail: string[]): boolean => {
    if (i === path.length - 1) {
      if (!isObject(v) || v[path[i]!] === undefined) return false;
      delete v[path[i]!];
      removed.push([...trail, path[i]!].join("/"));
      return true;
    }
    const seg = path[i]!;
    let changed = false;
    if (seg === "*" && Array.isArray(v)) v.forEach((el, n) => (changed = walk(el, i + 1, [...trail, String(n)]) || changed));
    else if (isObject(v) && v[seg] !== undefined) {
      changed = walk(v[seg], i + 1, [...trail, seg]);
      if (changed && isObject(v[seg]) && Object.keys(v[seg] as Model).length === 0) delete v[seg];
    }
    return changed;
  };
  walk(model, 0, []);
  return removed;
}

/** A JSON Patch path (`/Code/ZipFile`, `/Tags/0`) as segments, with `~1` and `~0` decoded. */
export function patchSegments(pointer: string): string[] {
  return pointer.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));
}

/**
 * True when a patch at `patchPath` would change what `regPath` names: one is a prefix of the other (an
 * array index or `-` matches `*`).
 *
 * @example touches(["KubernetesNetworkConfig"], ["KubernetesNetworkConfig", "IpFamily"]) // true
 * @example touches(["KubernetesNetworkConfig", "ElasticLoadBalancing"], ["KubernetesNetworkConfig", "IpFamily"]) // false
 */
export function touches(patchPath: readonly string[], regPath: readonly string[]): boolean {
  const n = Math.min(patchPath.length, regPath.length);
  for (let i = 0; i < n; i++) {
    const r = regPath[i]!;
    const p = patchPath[i]!;
    if (r === "*" ? !(p === "-" || /^\d+$/.test(p)) : r !== p) return false;
  }
  return true;
}

/** JSON text with object keys sorted at every depth: equal for equal values whatever their key order. */
export function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(",")}]`;
  if (isObject(v)) return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical(v[k])}`).join(",")}}`;
  return JSON.stringify(v) ?? "null";
}

/** A copy of `v` with object keys sorted at every depth (how a service that re-serialises a document returns it). */
export function sortedKeys(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(sortedKeys);
  if (isObject(v)) return Object.fromEntries(Object.keys(v).sort().map((k) => [k, sortedKeys(v[k])]));
  return v;
}
