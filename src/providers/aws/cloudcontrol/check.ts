/**
 * Inputs checked before anything is created: that Cloud Control can make the type at all; against the
 * specification (required properties, properties the type does not have — a JavaScript caller or an `any`
 * gets past TypeScript —, attributes given as inputs, the type of every known value); and against the
 * registry's JSON Schema, as Cloud Control will check them (`registry-check.ts`). Values not known until
 * apply are skipped; they are checked again once known.
 */
import { isDeepStrictEqual } from "node:util";
import type { Diagnostic } from "../../../provider/provider.js";
import { UNKNOWN } from "../../../core/unknown.js";
import { FLAG, objectOf, type ObjectInfo, type Shape, type TypeInfo } from "./type-spec.js";
import { closestName } from "../../../core/did-you-mean.js";
import { registryProblems } from "./registry-check.js";

type Path = (string | number)[];

const pathText = (p: Path) => p.reduce<string>((s, x) => (typeof x === "number" ? `${s}[${x}]` : s ? `${s}.${x}` : x), "");

/** What a shape expects, in words, for messages. */
export function describeShape(info: TypeInfo, s: Shape): string {
  if (typeof s === "string") return s === "json" ? "a JSON object" : s === "date-time" ? "a date-time string" : s === "any" ? "any value" : s === "integer" ? "an integer" : `a ${s}`;
  switch (s[0]) {
    case "array":
      return `a list of ${describeShape(info, s[1]).replace(/^an? /, "")}s`.replace(/ss$/, "s");
    case "map":
      return `a map of ${describeShape(info, s[1]).replace(/^an? /, "")}s`;
    case "ref":
      return `an object (${s[1]})`;
    case "enum":
      return `one of ${s.slice(1).map((v) => JSON.stringify(v)).join(", ")}`;
    case "union":
      return (s.slice(1) as Shape[]).map((m) => describeShape(info, m)).join(" or ");
    default:
      return "a value";
  }
}

/** Checks one value against its shape, pushing what is wrong. */
function checkValue(info: TypeInfo, shape: Shape, v: unknown, path: Path, out: Diagnostic[]): void {
  if (v === UNKNOWN || v === undefined) return;
  const bad = (expected = describeShape(info, shape)) =>
    out.push({ severity: "error", attribute: pathText(path), summary: `expected ${expected}, got ${v === null ? "null" : Array.isArray(v) ? "a list" : typeof v === "object" ? "an object" : `${typeof v} ${JSON.stringify(v)}`}` });
  if (typeof shape === "string") {
    if (shape === "string" || shape === "date-time") return void (typeof v !== "string" && bad());
    if (shape === "number") return void ((typeof v !== "number" || !Number.isFinite(v)) && bad());
    if (shape === "integer") return void (!Number.isInteger(v) && bad());
    if (shape === "boolean") return void (typeof v !== "boolean" && bad());
    if (shape === "json") return void ((v === null || (typeof v !== "object" && typeof v !== "string")) && bad());
    return;
  }
  switch (shape[0]) {
    case "enum": {
      const values = shape.slice(1);
      if (typeof v !== typeof values[0]) return void bad(typeof values[0] === "number" ? "a number" : "a string");
      // The specification's lists can lag the service: an unlisted value is worth a warning, not a refusal
      // (where the registry lists the values too, its check makes it an error).
      if (!values.some((x) => isDeepStrictEqual(x, v))) out.push({ severity: "warning", attribute: pathText(path), summary: `${JSON.stringify(v)} is not one of the values the specification lists (${values.map((x) => JSON.stringify(x)).join(", ")})` });
      return;
    }
    case "array":
      if (!Array.isArray(v)) return void bad();
      v.forEach((x, i) => checkValue(info, shape[1], x, [...path, i], out));
      return;
    case "map":
      if (v === null || typeof v !== "object" || Array.isArray(v)) return void bad();
      for (const [k, x] of Object.entries(v)) checkValue(info, shape[1], x, [...path, k], out);
      return;
    case "ref": {
      const obj = objectOf(info, shape);
      if (v === null || typeof v !== "object" || Array.isArray(v)) return void bad();
      if (obj) checkObject(info, obj, v as Record<string, unknown>, path, out);
      return;
    }
    case "union": {
      const members = shape.slice(1) as Shape[];
      const fits = members.some((m) => {
        const trial: Diagnostic[] = [];
        checkValue(info, m, v, path, trial);
        return !trial.some((d) => d.severity === "error");
      });
      if (!fits) bad();
      return;
    }
  }
}

/** Checks an object's keys (unknown, read-only, missing required) and then each value. */
function checkObject(info: TypeInfo, obj: ObjectInfo, v: Record<string, unknown>, path: Path, out: Diagnostic[]): void {
  for (const [k, x] of Object.entries(v)) {
    if (x === undefined) continue;
    const p = obj.byJs.get(k);
    if (!p) {
      const guess = closestName(k, obj.byJs.keys()) ?? closestName(k, obj.byCfn.keys());
      const hint = guess ? ` (did you mean "${obj.byCfn.get(guess)?.js ?? guess}"?)` : "";
      out.push({ severity: "error", attribute: pathText([...path, k]), summary: `${info.cfnType} has no property "${pathText([...path, k])}"${hint}` });
      continue;
    }
    if (p.flags & FLAG.readOnly) {
      out.push({ severity: "error", attribute: pathText([...path, k]), summary: `"${pathText([...path, k])}" is an attribute the cloud sets: it cannot be given as an input` });
      continue;
    }
    checkValue(info, p.shape, x, [...path, k], out);
  }
  for (const p of obj.props) {
    if (p.flags & FLAG.required && !(p.flags & FLAG.readOnly) && v[p.js] === undefined) {
      out.push({ severity: "error", attribute: pathText([...path, p.js]), summary: `required property "${pathText([...path, p.js])}" is missing (expected ${describeShape(info, p.shape)})` });
    }
  }
}

/**
 * Every problem with a resource's inputs, as diagnostics naming the property path and what was expected.
 *
 * @example checkInputs(bucketInfo, { bucketname: "b" })
 * // [{ severity: "error", attribute: "bucketname", summary: 'AWS::S3::Bucket has no property "bucketname" (did you mean "bucketName"?)' }]
 */
export function checkInputs(info: TypeInfo, inputs: Record<string, unknown>): Diagnostic[] {
  if (!info.registry.provisionable) return [{ severity: "error", summary: notCreatableMessage(info) }];
  const out: Diagnostic[] = [];
  checkObject(info, info, inputs, [], out);
  // One diagnostic per property: the specification's error stands; the registry's replaces a warning.
  const specErrors = new Set(out.filter((d) => d.severity === "error").map((d) => d.attribute));
  const registry = registryProblems(info, inputs).filter((d) => !specErrors.has(d.attribute));
  const refused = new Set(registry.map((d) => d.attribute));
  return [...out.filter((d) => d.severity === "error" || !refused.has(d.attribute)), ...registry];
}

/**
 * Why a type cannot be used as a Cloud Control resource, and what to use instead when there is something.
 *
 * @example notCreatableMessage(iamPolicyInfo) // "AWS::IAM::Policy cannot be created through Cloud Control: use an inline policy on Role (`policies`), …"
 */
export function notCreatableMessage(info: TypeInfo): string {
  const why = info.registry.notCreatable ?? "the CloudFormation registry has no create handler for it";
  return `${info.cfnType} cannot be created through Cloud Control: ${why}.`;
}
