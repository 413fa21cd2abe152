/**
 * `UpdateResource` as Cloud Control runs it: refuse a patch that touches a create-only (or read-only) path,
 * then read-modify-write: the patch is applied to the model as a read returns it (defaults filled, write-only
 * properties absent), so a write-only property the patch does not re-send is gone from the model the update
 * handler gets.
 */
import jsonpatch, { type Operation } from "fast-json-patch";
import { FLAG, objectOf, type PropInfo, type TypeInfo } from "../../providers/aws/cloudcontrol/type-spec.js";
import { patchSegments, slotsAt, touches } from "./fake-paths.js";
import { writeOnlyPaths } from "./fake-read.js";

type Model = Record<string, unknown>;

/** The create-only paths of a type: the registry's when it lists any, else those the specification marks as replacing. */
function createOnlyPaths(info: TypeInfo): (readonly string[])[] {
  if (info.registry.createOnly.length) return [...info.registry.createOnly];
  const out: string[][] = info.props.filter((p) => p.flags & FLAG.replaces).map((p) => [p.cfn]);
  for (const p of info.props) nestedReplacing(info, p, [p.cfn], out, 0);
  return out;
}

function nestedReplacing(info: TypeInfo, p: PropInfo, trail: string[], out: string[][], depth: number): void {
  const obj = objectOf(info, p.shape);
  if (!obj || depth > 5) return;
  for (const q of obj.props) {
    if (q.flags & FLAG.replaces) out.push([...trail, q.cfn]);
    else nestedReplacing(info, q, [...trail, q.cfn], out, depth + 1);
  }
}

function readOnlyPaths(info: TypeInfo): (readonly string[])[] {
  const fromFlags = info.props.filter((p) => p.flags & FLAG.readOnly).map((p) => [p.cfn]);
  return [...info.registry.readOnly, ...fromFlags];
}

/**
 * The registry paths (as `/properties/…`) of each kind that the patch touches: a patch path and a create-only
 * path touch when one is a prefix of the other.
 *
 * @example touchedPaths(eksInfo, [{ op: "replace", path: "/KubernetesNetworkConfig", value: {} }]).createOnly // ["/properties/KubernetesNetworkConfig/IpFamily", …]
 */
export function touchedPaths(info: TypeInfo, patch: readonly Operation[]): { createOnly: string[]; readOnly: string[] } {
  const paths = patch.flatMap((op) => ["from" in op && typeof op.from === "string" ? [op.from] : [], [op.path]].flat()).map(patchSegments);
  const hit = (list: (readonly string[])[]) => [...new Set(list.filter((r) => paths.some((p) => touches(p, r))).map((r) => `/properties/${r.join("/")}`))];
  return { createOnly: hit(createOnlyPaths(info)), readOnly: hit(readOnlyPaths(info)) };
}

/**
 * The model the update handler gets: `patch` applied to `read` (the model as a read returns it). Throws the
 * JSON Patch error when the patch does not apply (a `replace` of a path the model does not have).
 *
 * @example const next = patchedModel(read, [{ op: "add", path: "/MemorySize", value: 256 }]);
 */
export function patchedModel(read: Model, patch: readonly Operation[]): Model {
  return jsonpatch.applyPatch(structuredClone(read), patch as Operation[], true, false).newDocument;
}

/**
 * The write-only values the stored model holds that `next` does not: what an update built from `next` loses.
 * Paths are CloudFormation names joined with `/`, array indexes for elements.
 *
 * @example lostWriteOnly(fnInfo, { Code: { ZipFile: "…" } }, { MemorySize: 256 }) // ["Code/ZipFile"]
 */
export function lostWriteOnly(info: TypeInfo, stored: Model, next: Model): string[] {
  const lost: string[] = [];
  for (const path of writeOnlyPaths(info)) {
    for (const trail of concretePaths(stored, path)) {
      if (slotsAt(next, trail).length === 0) lost.push(trail.join("/"));
    }
  }
  return lost;
}

/** The concrete paths (`*` replaced by each index) where `model` holds a value. */
function concretePaths(model: Model, path: readonly string[]): string[][] {
  let here: { v: unknown; trail: string[] }[] = [{ v: model, trail: [] }];
  for (const seg of path) {
    const next: typeof here = [];
    for (const h of here) {
      if (seg === "*" && Array.isArray(h.v)) h.v.forEach((x, i) => next.push({ v: x, trail: [...h.trail, String(i)] }));
      else if (h.v !== null && typeof h.v === "object" && !Array.isArray(h.v) && (h.v as Model)[seg] !== undefined) next.push({ v: (h.v as Model)[seg], trail: [...h.trail, seg] });
    }
    here = next;
  }
  return here.map((h) => h.trail);
}

/** The part of a model the program may set: read-only attributes left out (what an update's result is validated as). */
export function desiredPart(info: TypeInfo, model: Model): Model {
  const out = structuredClone(model);
  for (const p of info.props) if (p.flags & FLAG.readOnly) delete out[p.cfn];
  for (const path of info.registry.readOnly) {
    if (path.length === 1) delete out[path[0]!];
    else for (const s of slotsAt(out, path.slice(0, -1))) if (s.value && typeof s.value === "object" && !Array.isArray(s.value)) delete (s.value as Model)[path.at(-1)!];
  }
  return out;
}
