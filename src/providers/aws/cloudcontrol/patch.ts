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
import { isAtOrUnder, pathsOf, readablePart, schemaPath, type TypePaths } from "./paths.js";
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

/** The value at a path of CloudFormation names (an array index as digits). */
function valueAt(model: Props, path: readonly string[]): unknown {
  let cur: unknown = model;
  for (const seg of path) cur = isObject(cur) ? cur[seg] : Array.isArray(cur) && /^\d+$/.test(seg) ? cur[Number(seg)] : undefined;
  return cur;
}

/** The paths whose values are re-sent whole: each write-only path, cut at its first array (`*`), outermost only. */
function resendPaths(paths: TypePaths): string[][] {
  const cut = [...paths.writeOnly].map((p) => {
    const segs = p.split("/");
    const star = segs.indexOf("*");
    return star < 0 ? segs : segs.slice(0, star);
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
  for (const segs of resendPaths(paths)) {
    const at = segs.join("/");
    // Cloud Control refuses a create-only path in a patch, even with the value it has (pulumi-aws-native #1448):
    // nor is a create-only value inside a re-sent one sent (the model read has none, so it would be a change).
    if (valueAt(news, segs) === undefined || frozen(paths, at)) continue;
    const value = withoutCreateOnly(paths, segs, valueAt(news, segs));
    // A change that writes a whole object holding the value sends it already.
    if (kept.some((op) => op.op !== "remove" && at !== opPath(op) && isAtOrUnder(at, opPath(op)))) continue;
    kept = kept.filter((op) => !isAtOrUnder(opPath(op), at));
    resend.push({ op: "add", path: pointer(segs), value });
  }
  // Removes first, deepest and highest index first, so no index moves under a later operation.
  const removes = kept.filter((op) => op.op === "remove").sort((x, y) => (x.path < y.path ? 1 : -1));
  return anchored(paths, readablePart(paths, olds), news, [...removes, ...kept.filter((op) => op.op !== "remove"), ...resend]);
}

const segmentsOf = (ptr: string) => ptr.split("/").slice(1).map((s) => s.replace(/~1/g, "/").replace(/~0/g, "~"));

/** True when `model` holds a value at the pointer segments `segs` (an array index as digits). */
function holds(model: unknown, segs: readonly string[]): boolean {
  let cur = model;
  for (const seg of segs) {
    if (Array.isArray(cur) && /^\d+$/.test(seg)) cur = cur[Number(seg)];
    else if (isObject(cur)) cur = cur[seg];
    else return false;
    if (cur === undefined) return false;
  }
  return true;
}

/** `value` (at pointer segments `at`) without the create-only paths under it: Cloud Control refuses those in a patch. */
function withoutCreateOnly(paths: TypePaths, at: readonly string[], value: unknown): unknown {
  const base = schemaPath(at.map((s) => (/^\d+$/.test(s) ? 0 : s)));
  const out = structuredClone(value);
  for (const c of paths.createOnly) {
    const rest = c.join("/");
    if (!rest.startsWith(`${base}/`)) continue;
    const drop = (v: unknown, segs: readonly string[]): void => {
      const [seg, ...more] = segs;
      if (seg === undefined) return;
      if (seg === "*" && Array.isArray(v)) return v.forEach((x) => drop(x, more));
      if (!isObject(v)) return;
      if (more.length === 0) delete v[seg];
      else drop(v[seg], more);
    };
    drop(out, rest.slice(base.length + 1).split("/"));
  }
  return out;
}

/**
 * The patch made to apply to the model Cloud Control reads, which has no write-only values and so no object
 * holding only them (Lambda's `Code`): an operation under an object that read lacks becomes one `add` of
 * that object, the outermost one missing, whole as declared (its write-only content included, any
 * create-only content left out); a `remove` of what the read lacks has nothing to remove; a `replace` of a
 * value the read lacks is an `add`. `read` is the recorded model with its write-only values taken out.
 */
function anchored(paths: TypePaths, read: Props, news: Props, ops: readonly Operation[]): Operation[] {
  const out: Operation[] = [];
  const added = new Set<string>();
  for (const op of ops) {
    const segs = segmentsOf(op.path);
    let cut = 1;
    while (cut < segs.length && holds(read, segs.slice(0, cut))) cut++;
    if (cut >= segs.length) {
      if (op.op === "remove" && !holds(read, segs)) continue; // not in the model read: nothing to remove
      out.push(op.op === "replace" && !holds(read, segs) ? { op: "add", path: op.path, value: op.value as unknown } : op);
      continue;
    }
    if (op.op === "remove") continue;
    const at = segs.slice(0, cut);
    const path = pointer(at);
    if (added.has(path)) continue;
    added.add(path);
    const value = withoutCreateOnly(paths, at, valueAt(news, at));
    if (value !== undefined) out.push({ op: "add", path, value });
  }
  // An operation under an object added whole is in that value already.
  return out.filter((op) => ![...added].some((a) => op.path !== a && op.path.startsWith(`${a}/`)));
}
