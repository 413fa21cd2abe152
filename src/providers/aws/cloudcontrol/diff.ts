/**
 * What changing a resource means, from the registry (the specification's flags for a type without it):
 * which properties changed, whether a change replaces the object (a create-only path, at any depth), and
 * the RFC 6902 JSON Patch that updates it in place.
 */
import { isDeepStrictEqual } from "node:util";
import type { Operation } from "fast-json-patch";
import { toCloud } from "./convert.js";
import { reconcileModel } from "./compare.js";
import { patchDocument } from "./patch.js";
import { pathsOf } from "./paths.js";
import { FLAG, objectOf, type PropInfo, type Shape, type TypeInfo } from "./type-spec.js";

type Props = Record<string, unknown>;

/** A planned change of one resource. */
export interface Change {
  /** Top-level properties whose value changes (in the program, or back from drift). */
  changed: string[];
  /** Top-level properties whose change replaces the object. */
  replaceKeys: string[];
  /** Why they replace, when the keys alone do not say (a type Cloud Control cannot update). */
  cause?: string;
  /** The replacement must be made after the old object is deleted: it would have the same identity. */
  deleteFirst?: boolean;
}

/**
 * True when a replacement would have the object's identity unchanged, so it cannot be made beside the old
 * one (AlreadyExists): every primary identifier is declared and unchanged, or the declared name is (the
 * registry's naming property, `Name` or `<Type>Name`). CloudFormation models.
 */
function keepsIdentity(info: TypeInfo, olds: Props, news: Props): boolean {
  const same = (k: string) => news[k] !== undefined && isDeepStrictEqual(olds[k], news[k]);
  const ids = info.identifier.map((p) => p.split("/")[0]!);
  if (ids.length && ids.every(same)) return true;
  const names = [info.registry.naming?.path, "Name", `${info.cfnType.split("::").at(-1)}Name`];
  return names.some((k) => k !== undefined && info.byCfn.has(k) && same(k));
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

/** The values at a create-only path (with `*`: of every element), as a sorted list of their JSON: order never counts. */
function createOnlyValues(model: Props, path: readonly string[]): string[] {
  let cur: unknown[] = [model];
  for (const seg of path) {
    const next: unknown[] = [];
    for (const v of cur) {
      if (seg === "*") {
        if (Array.isArray(v)) next.push(...v);
      } else if (v !== null && typeof v === "object" && !Array.isArray(v)) next.push((v as Props)[seg]);
      else next.push(undefined);
    }
    cur = next;
  }
  return cur.map((v) => JSON.stringify(v) ?? "undefined").sort();
}

/** The top-level properties a change replaces for, from the registry's create-only paths (at any depth). */
function registryReplaceKeys(info: TypeInfo, olds: Props, news: Props, changed: readonly string[]): string[] {
  const paths = pathsOf(info).createOnly;
  return changed.filter((k) => paths.some((p) => p[0] === k && !isDeepStrictEqual(createOnlyValues(olds, p), createOnlyValues(news, p))));
}

/** The top-level properties a change replaces for, from the specification's flags (a type without registry facts). */
function flaggedReplaceKeys(info: TypeInfo, olds: Props, news: Props, changed: readonly string[]): string[] {
  const replaceKeys: string[] = [];
  for (const k of changed) {
    const p = info.byJs.get(k);
    if (p && (p.flags & FLAG.replaces || replacesWithin(info, p.shape, olds[k], news[k]))) replaceKeys.push(k);
  }
  for (const path of info.replacePaths) {
    const top = info.byCfn.get(path[0]!)?.js;
    if (top && !replaceKeys.includes(top) && !isDeepStrictEqual(atCfnPath(info, olds, path), atCfnPath(info, news, path))) replaceKeys.push(top);
  }
  return replaceKeys;
}

const jsName = (info: TypeInfo, cfn: string) => info.byCfn.get(cfn)?.js ?? cfn;

/**
 * Why Cloud Control cannot update the type, if it cannot: the registry gives it no update handler, or a
 * required property is both create-only and write-only, so the model an update is applied to never has it
 * and a patch may not send it (DataZone `DomainIdentifier`: cloudformation-coverage-roadmap#2205).
 */
function notUpdatable(info: TypeInfo): string | undefined {
  const base = `${info.cfnType} cannot be updated through Cloud Control`;
  if (!info.registry.handlers.update) return base;
  const paths = pathsOf(info);
  const stuck = info.props.filter((p) => p.flags & FLAG.required && paths.writeOnly.has(p.cfn) && paths.createOnly.some((c) => c.length === 1 && c[0] === p.cfn));
  return stuck.length ? `${base} (its required ${stuck.map((p) => p.js).join(", ")} ${stuck.length === 1 ? "is" : "are"} create-only and write-only: no update can carry ${stuck.length === 1 ? "it" : "them"})` : undefined;
}

/**
 * The change from `olds` to `news`. `olds` are the inputs as applied — or as a refresh or an import observed
 * them, so a drifted property shows as a change back to the declared value. Differences AWS does not see
 * (order of an unordered array or of tags, a `propertyTransform` normalisation, a write-only value never
 * read) are none. A change replaces when it touches a create-only path, at whatever depth the registry puts
 * it (EKS `KubernetesNetworkConfig/ServiceIpv4Cidr` replaces, its updatable sibling does not). Every change
 * replaces a type Cloud Control cannot update (no update handler, or a required create-only write-only
 * property: `UpdateResource` would be refused), deleting first
 * when the replacement would have the same identifier or name.
 *
 * @example await planChange(functionInfo, { functionName: "a" }, { functionName: "b" }) // { changed: ["functionName"], replaceKeys: ["functionName"] }
 */
export async function planChange(info: TypeInfo, olds: Props, news: Props): Promise<Change> {
  const n = toCloud(info, news);
  const o = await reconcileModel(info, n, toCloud(info, olds), "diff");
  const changedCfn = [...new Set([...Object.keys(o), ...Object.keys(n)])].filter((k) => !isDeepStrictEqual(o[k], n[k]));
  const changed = changedCfn.map((k) => jsName(info, k));
  const cause = changed.length ? notUpdatable(info) : undefined;
  if (cause) {
    return { changed, replaceKeys: changed, cause, ...(keepsIdentity(info, o, n) ? { deleteFirst: true } : {}) };
  }
  if (pathsOf(info).known) return { changed, replaceKeys: registryReplaceKeys(info, o, n, changedCfn).map((k) => jsName(info, k)) };
  return { changed, replaceKeys: flaggedReplaceKeys(info, olds, news, changed) };
}

/**
 * The JSON Patch that takes the object from `olds` to `news`: only changed leaf paths, CloudFormation names,
 * write-only values re-sent, ready for `UpdateResource` (see patch.ts).
 *
 * @example await updatePatch(queueInfo, { visibilityTimeout: 30 }, { visibilityTimeout: 60 })
 * // [{ op: "replace", path: "/VisibilityTimeout", value: 60 }]
 */
export async function updatePatch(info: TypeInfo, olds: Props, news: Props): Promise<Operation[]> {
  const n = toCloud(info, news);
  return patchDocument(info, await reconcileModel(info, n, toCloud(info, olds), "diff"), n);
}
