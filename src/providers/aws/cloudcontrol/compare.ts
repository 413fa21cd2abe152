/**
 * When a value Cloud Control reports is the value the program declared, though it does not look the same:
 * the service filled in defaults (at any depth, inside array elements too), returned an unordered array
 * (`insertionOrder: false`) or a tag list in its own order, a policy document with its keys in another
 * order, a `propertyTransform` normalisation, a write-only value it never returns. Such a value is
 * reconciled to the declared one, so neither a refresh nor a plan sees a difference; a real difference is
 * kept as observed. Values are CloudFormation models (CloudFormation names), walked along the type's shapes.
 */
import { isDeepStrictEqual } from "node:util";
import { objectOf, type ObjectInfo, type Shape, type TypeInfo } from "./type-spec.js";
import { pathsOf, writeOnlyPart, type TypePaths } from "./paths.js";
import { transformMatches } from "./transforms.js";

type Props = Record<string, unknown>;

/**
 * `read`: the observed value is a fresh read; keys the program never set inside an object it declared are
 * the cloud's (defaults) and are dropped. `diff`: the observed value is what was applied or recorded; a key
 * it has that the declared value lacks was unset by the program, and counts.
 */
export type CompareMode = "read" | "diff";

interface Walk {
  info: TypeInfo;
  paths: TypePaths;
  mode: CompareMode;
  /** The declared model: the context of transforms that name top-level properties. */
  model: Props;
}

const isObject = (v: unknown): v is Props => v !== null && typeof v === "object" && !Array.isArray(v);

/** Tags whose key starts with `aws:` are AWS's own (CloudFormation adds them): never declared, never drift. */
const isAwsTag = (key: unknown) => typeof key === "string" && key.startsWith("aws:");

function tagMap(list: unknown): Map<unknown, unknown> | undefined {
  if (!Array.isArray(list)) return undefined;
  const m = new Map<unknown, unknown>();
  for (const t of list) if (isObject(t) && !isAwsTag(t.Key)) m.set(t.Key, t.Value);
  return m;
}

/** A tag property compared by key: order and AWS's own tags do not count. */
function reconcileTags(variant: "standard" | "map", declared: unknown, observed: unknown): unknown {
  if (variant === "map") {
    if (!isObject(observed)) return observed;
    const own = Object.fromEntries(Object.entries(observed).filter(([k]) => !isAwsTag(k)));
    return isDeepStrictEqual(own, declared) ? declared : own;
  }
  const d = tagMap(declared);
  const o = tagMap(observed);
  if (!d || !o) return observed;
  return d.size === o.size && [...d].every(([k, v]) => o.has(k) && isDeepStrictEqual(o.get(k), v)) ? declared : (observed as unknown[]).filter((t) => !(isObject(t) && isAwsTag(t.Key)));
}

/** An unordered array: each declared element matched to a distinct observed one it reconciles with. */
async function reconcileSet(w: Walk, shape: Shape, path: string, declared: unknown[], observed: unknown[]): Promise<unknown> {
  if (declared.length !== observed.length) return observed;
  const used = new Set<number>();
  for (const d of declared) {
    let hit = -1;
    for (let j = 0; j < observed.length && hit < 0; j++) {
      if (!used.has(j) && isDeepStrictEqual(await reconcile(w, shape, path, d, observed[j], d), d)) hit = j;
    }
    if (hit < 0) return observed;
    used.add(hit);
  }
  return declared;
}

async function reconcileObject(w: Walk, obj: ObjectInfo | undefined, path: string, declared: Props, observed: Props): Promise<Props> {
  const out: Props = {};
  for (const [k, d] of Object.entries(declared)) {
    if (d === undefined) continue;
    const v = await reconcile(w, obj?.byCfn.get(k)?.shape ?? "any", path ? `${path}/${k}` : k, d, observed[k], declared);
    if (v !== undefined) out[k] = v;
  }
  // In a read, what the program did not set inside a declared object is the cloud's; a map's keys are data.
  if (w.mode === "diff" || !obj) for (const [k, o] of Object.entries(observed)) if (!(k in out) && declared[k] === undefined && o !== undefined) out[k] = o;
  return out;
}

/** A JSON value the service returned as text (a policy document), parsed; anything else as it is. */
function parsedJson(v: unknown): unknown {
  if (typeof v !== "string") return v;
  try {
    return JSON.parse(v) as unknown;
  } catch {
    return v;
  }
}

/**
 * The member of a union shape a value fits (an object: the object member; a list: the list member).
 *
 * @example member(["union", "string", ["ref", "Rule"]], { Id: "r" }) // ["ref", "Rule"]
 */
export function member(shape: Shape, v: unknown): Shape {
  if (!Array.isArray(shape) || shape[0] !== "union") return shape;
  const members = shape.slice(1) as Shape[];
  const want = Array.isArray(v) ? "array" : isObject(v) ? "ref" : undefined;
  return members.find((m) => Array.isArray(m) && m[0] === want) ?? "any";
}

/**
 * `observed` reconciled with `declared` at schema path `path` (`holder` is the declared object holding it):
 * `declared` itself when the two are the same value to AWS, else the observed value (reconciled below).
 */
async function reconcile(w: Walk, shape: Shape, path: string, declared: unknown, observed: unknown, holder: unknown): Promise<unknown> {
  if (declared === undefined) return observed;
  // A write-only value is never read back, nor an object holding only such values (Lambda's `Code`, whose
  // fields are write-only): the declared write-only part stands (after an import too, it cannot be known).
  if (observed === undefined) return writeOnlyPart(w.paths, path, declared);
  if (isDeepStrictEqual(declared, observed)) return declared;
  const transform = w.info.registry.transforms.get(path);
  if (transform && (await transformMatches(transform, holder, w.model, observed))) return declared;
  if (w.paths.tags && path === w.paths.tags.cfn) return reconcileTags(w.paths.tags.variant, declared, observed);
  shape = member(shape, declared);
  const kind = Array.isArray(shape) ? shape[0] : shape;
  if (Array.isArray(declared) && Array.isArray(observed)) {
    const item: Shape = Array.isArray(shape) && shape[0] === "array" ? shape[1] : "any";
    if (w.paths.unordered.has(path)) return reconcileSet(w, item, `${path}/*`, declared, observed);
    if (declared.length !== observed.length) return observed;
    const out: unknown[] = [];
    for (let i = 0; i < declared.length; i++) out.push(await reconcile(w, item, `${path}/*`, declared[i], observed[i], declared[i]));
    return out;
  }
  if (isObject(declared) && isObject(observed)) {
    if (kind === "ref") return reconcileObject(w, objectOf(w.info, shape), path, declared, observed);
    if (kind === "map") {
      const item: Shape = Array.isArray(shape) ? (shape[1] as Shape) : "any";
      const out: Props = {};
      for (const k of new Set([...Object.keys(declared), ...Object.keys(observed)])) {
        const v = k in declared ? await reconcile(w, item, `${path}/${k}`, declared[k], observed[k], declared) : observed[k];
        if (v !== undefined) out[k] = v;
      }
      return out;
    }
    return observed; // a JSON document: compared whole (key order never counted)
  }
  if (isObject(declared) && typeof observed === "string" && isDeepStrictEqual(parsedJson(observed), declared)) return declared;
  return observed;
}

/**
 * The observed model reconciled with the declared one, property by property: a property the program
 * declares gets the declared value wherever the two are the same to AWS; one it does not declare is kept as
 * observed. Both are CloudFormation models of `info`.
 *
 * @example await reconcileModel(dbInfo, { Engine: "MySQL" }, { Engine: "mysql", Port: "3306" }, "read") // { Engine: "MySQL", Port: "3306" }
 */
export async function reconcileModel(info: TypeInfo, declared: Props, observed: Props, mode: CompareMode): Promise<Props> {
  const w: Walk = { info, paths: pathsOf(info), mode, model: declared };
  const out: Props = {};
  for (const [k, o] of Object.entries(observed)) if (o !== undefined && declared[k] === undefined) out[k] = o;
  for (const [k, d] of Object.entries(declared)) {
    if (d === undefined) continue;
    const v = await reconcile(w, info.byCfn.get(k)?.shape ?? "any", k, d, observed[k], declared);
    if (v !== undefined) out[k] = v;
  }
  return out;
}
