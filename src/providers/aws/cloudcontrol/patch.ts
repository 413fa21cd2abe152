/**
 * The JSON Patch of an `UpdateResource`. Cloud Control applies it read-modify-write to the model it reads,
 * and that model never holds write-only values: a write-only property left out of the patch is dropped
 * from the desired model (Lambda's `Code`: "required key [Code] not found"). So the patch holds the changed
 * leaf paths only, never a create-only or read-only path; every write-only property the program declares is
 * sent again as `add`; an array whose order does not matter (and a tag list) is replaced whole, since
 * indices into an order the service chose would hit the wrong elements. The same rules are in
 * terraform-provider-awscc (internal/generic/patch.go, PR #1737) and pulumi-aws-native (#1395, #1448).
 */
import type { Operation } from "fast-json-patch";
import { isDeepStrictEqual } from "node:util";
import { member } from "./compare.js";
import { isAtOrUnder, pathsOf, schemaPath, type TypePaths } from "./paths.js";
import { objectOf, type Shape, type TypeInfo } from "./type-spec.js";

type Props = Record<string, unknown>;
type Path = (string | number)[];

const isObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

/** An RFC 6901 pointer. @example pointer(["Tags", 0, "a/b"]) // "/Tags/0/a~1b" */
function pointer(path: readonly (string | number)[]): string {
  return path.map((s) => `/${String(s).replace(/~/g, "~0").replace(/\//g, "~1")}`).join("");
}

/** The operations that take `a` to `b` at `path`, leaf by leaf along the shapes. */
function leafOps(info: TypeInfo, paths: TypePaths, shape: Shape, path: Path, a: unknown, b: unknown, out: Operation[]): void {
  if (isDeepStrictEqual(a, b)) return;
  if (b === undefined) return void out.push({ op: "remove", path: pointer(path) });
  if (a === undefined) return void out.push({ op: "add", path: pointer(path), value: b });
  shape = member(shape, b);
  const at = schemaPath(path);
  if (Array.isArray(a) && Array.isArray(b) && Array.isArray(shape) && shape[0] === "array") {
    const whole = a.length !== b.length || paths.unordered.has(at) || (path.length === 1 && paths.tags?.cfn === at);
    if (whole) return void out.push({ op: "replace", path: pointer(path), value: b });
    for (let i = 0; i < b.length; i++) leafOps(info, paths, shape[1], [...path, i], a[i], b[i], out);
    return;
  }
  const obj = objectOf(info, shape);
  const isMap = Array.isArray(shape) && shape[0] === "map";
  if (isObject(a) && isObject(b) && (obj || isMap)) {
    for (const k of new Set([...Object.keys(a), ...Object.keys(b)])) {
      const s: Shape = obj ? (obj.byCfn.get(k)?.shape ?? "any") : (shape as ["map", Shape])[1];
      leafOps(info, paths, s, [...path, k], a[k], b[k], out);
    }
    return;
  }
  out.push({ op: "replace", path: pointer(path), value: b });
}

/** The value at a path of CloudFormation names. */
function valueAt(model: Props, path: readonly string[]): unknown {
  let cur: unknown = model;
  for (const seg of path) cur = isObject(cur) ? cur[seg] : undefined;
  return cur;
}

/**
 * The object at `segs`'s parent when every member of it is write-only: a read never returns that object at
 * all (Lambda's `Code`), so a patch must add it whole, not a member of it ("Cannot perform an `add`
 * operation at the desired path"). Else `segs` itself.
 */
function writeOnlyAnchor(info: TypeInfo, paths: TypePaths, segs: string[]): string[] {
  let shape: Shape | undefined = info.byCfn.get(segs[0]!)?.shape;
  for (let i = 1; i < segs.length && shape !== undefined; i++) {
    const obj = objectOf(info, shape);
    if (!obj) break;
    const parent = segs.slice(0, i);
    if (obj.props.every((p) => paths.writeOnly.has([...parent, p.cfn].join("/")))) return parent;
    shape = obj.byCfn.get(segs[i]!)?.shape;
  }
  return segs;
}

/** The paths whose values are re-sent whole: each write-only path, cut at its first array (`*`), outermost only. */
function resendPaths(info: TypeInfo, paths: TypePaths): string[][] {
  const cut = [...paths.writeOnly].map((p) => {
    const segs = p.split("/");
    const star = segs.indexOf("*");
    return writeOnlyAnchor(info, paths, star < 0 ? segs : segs.slice(0, star));
  });
  const joined = cut.map((s) => s.join("/"));
  return cut.filter((s, i) => s.length > 0 && !joined.some((o, j) => j !== i && isAtOrUnder(joined[i]!, o) && (o !== joined[i] || j < i)));
}

/** True when a change at schema path `at` must not be in a patch: it is, or lies under, a create-only or read-only path. */
function frozen(paths: TypePaths, at: string): boolean {
  return paths.createOnly.some((c) => isAtOrUnder(at, c.join("/"))) || [...paths.readOnly].some((r) => isAtOrUnder(at, r));
}

const opPath = (op: Operation) => op.path.slice(1).split("/").map((s) => (/^\d+$/.test(s) ? "*" : s.replace(/~1/g, "/").replace(/~0/g, "~"))).join("/");

/**
 * The patch that takes the object from `olds` to `news` (CloudFormation models, `olds` already reconciled
 * with `news`, so a difference AWS does not see is none here).
 *
 * @example patchDocument(fnInfo, { Code: { ZipFile: "a" }, MemorySize: 128 }, { Code: { ZipFile: "a" }, MemorySize: 256 })
 * // [{ op: "replace", path: "/MemorySize", value: 256 }, { op: "add", path: "/Code", value: { ZipFile: "a" } }]
 */
export function patchDocument(info: TypeInfo, olds: Props, news: Props): Operation[] {
  const paths = pathsOf(info);
  const ops: Operation[] = [];
  for (const k of new Set([...Object.keys(olds), ...Object.keys(news)])) leafOps(info, paths, info.byCfn.get(k)?.shape ?? "any", [k], olds[k], news[k], ops);
  // Nor a remove of a write-only value: the model the patch is applied to never holds one.
  let kept = ops.filter((op) => !frozen(paths, opPath(op)) && !(op.op === "remove" && [...paths.writeOnly].some((w) => isAtOrUnder(opPath(op), w))));
  const resend: Operation[] = [];
  for (const segs of resendPaths(info, paths)) {
    const at = segs.join("/");
    const value = valueAt(news, segs);
    // Cloud Control refuses a create-only path in a patch, even with the value it has (pulumi-aws-native #1448).
    if (value === undefined || frozen(paths, at)) continue;
    // A change that writes a whole object holding the value sends it already.
    if (kept.some((op) => op.op !== "remove" && at !== opPath(op) && isAtOrUnder(at, opPath(op)))) continue;
    kept = kept.filter((op) => !isAtOrUnder(opPath(op), at));
    resend.push({ op: "add", path: pointer(segs), value });
  }
  // Removes first, deepest and highest index first, so no index moves under a later operation.
  const removes = kept.filter((op) => op.op === "remove").sort((x, y) => (x.path < y.path ? 1 : -1));
  return [...removes, ...kept.filter((op) => op.op !== "remove"), ...resend];
}
