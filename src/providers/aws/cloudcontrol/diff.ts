/**
 * What changing a resource means, from the specification: which properties changed, whether a change
 * replaces the object (a create-only property, at any depth), and the RFC 6902 JSON Patch that updates it in
 * place, holding only the changed paths.
 */
import { isDeepStrictEqual } from "node:util";
import jsonpatch, { type Operation } from "fast-json-patch";
import { toCloud } from "./convert.js";
import { FLAG, objectOf, type PropInfo, type Shape, type TypeInfo } from "./type-spec.js";

type Props = Record<string, unknown>;

/** A planned change of one resource. */
export interface Change {
  /** Top-level properties whose value changes (in the program, or back from drift). */
  changed: string[];
  /** Top-level properties whose change replaces the object. */
  replaceKeys: string[];
}

/** True when a create-only property somewhere under `shape` differs between `a` and `b`. */
function replacesWithin(info: TypeInfo, shape: Shape, a: unknown, b: unknown): boolean {
  if (isDeepStrictEqual(a, b)) return false;
  const obj = objectOf(info, shape);
  if (obj) {
    const ao = (a ?? {}) as Props;
    const bo = (b ?? {}) as Props;
    return obj.props.some((p) => (p.flags & FLAG.replaces ? !isDeepStrictEqual(ao[p.js], bo[p.js]) : replacesWithin(info, p.shape, ao[p.js], bo[p.js])));
  }
  if (Array.isArray(shape) && shape[0] === "array" && Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    return a.some((x, i) => replacesWithin(info, shape[1], x, b[i]));
  }
  return false;
}

/** Reads a path of CloudFormation names out of a Cairn value (for `additionalReplacementProperties`). */
function atCfnPath(info: TypeInfo, v: Props, path: readonly string[]): unknown {
  let obj: Pick<TypeInfo, "byCfn"> | undefined = info;
  let cur: unknown = v;
  for (const seg of path) {
    const p: PropInfo | undefined = obj?.byCfn.get(seg);
    if (!p || cur === null || typeof cur !== "object") return undefined;
    cur = (cur as Props)[p.js];
    obj = objectOf(info, p.shape);
  }
  return cur;
}

/**
 * The change from `olds` to `news`. `olds` are the inputs as applied — or as a refresh observed them, so a
 * drifted property shows as a change back to the declared value.
 *
 * @example planChange(functionInfo, { functionName: "a" }, { functionName: "b" }) // { changed: ["functionName"], replaceKeys: ["functionName"] }
 */
export function planChange(info: TypeInfo, olds: Props, news: Props): Change {
  const cur = olds;
  const changed: string[] = [];
  const replaceKeys: string[] = [];
  for (const k of new Set([...Object.keys(cur), ...Object.keys(news)])) {
    if (isDeepStrictEqual(cur[k], news[k])) continue;
    changed.push(k);
    const p = info.byJs.get(k);
    if (p && (p.flags & FLAG.replaces || replacesWithin(info, p.shape, cur[k], news[k]))) replaceKeys.push(k);
  }
  for (const path of info.replacePaths) {
    const top = info.byCfn.get(path[0]!)?.js;
    if (top && !replaceKeys.includes(top) && !isDeepStrictEqual(atCfnPath(info, cur, path), atCfnPath(info, news, path))) replaceKeys.push(top);
  }
  return { changed, replaceKeys };
}

/**
 * The JSON Patch that takes the object from `olds` to `news`: only changed paths, CloudFormation names, ready
 * for `UpdateResource`.
 *
 * @example updatePatch(queueInfo, { visibilityTimeout: 30 }, { visibilityTimeout: 60 })
 * // [{ op: "replace", path: "/VisibilityTimeout", value: 60 }]
 */
export function updatePatch(info: TypeInfo, olds: Props, news: Props): Operation[] {
  return jsonpatch.compare(toCloud(info, olds), toCloud(info, news));
}
