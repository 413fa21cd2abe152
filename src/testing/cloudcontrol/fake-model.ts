/**
 * What the fake cloud makes up for a new object, from the specification alone: identifiers it was not given,
 * read-only attributes (ARNs from the type's template, ids, names), and the status attributes that move over
 * time (RDS `creating → available`, EC2 `pending → running`). Also the schema checks the fake applies.
 */
import { createHash } from "node:crypto";
import { checkInputs } from "../../providers/aws/cloudcontrol/check.js";
import { fromCloud } from "../../providers/aws/cloudcontrol/convert.js";
import { FLAG, objectOf, type PropInfo, type TypeInfo } from "../../providers/aws/cloudcontrol/type-spec.js";
import type { FakeFailure } from "./fake-errors.js";

type Model = Record<string, unknown>;

/** The account and region the fake pretends to be. */
export const FAKE_ACCOUNT = "123456789012";
/** The region the fake reports in ARNs when none is configured. */
export const FAKE_REGION = "us-east-1";

/**
 * A status attribute that moves on as the object is read: the value at create, then each next value after
 * `readsPerStep` reads.
 *
 * @example const rds: StatusTrack = { path: ["DBInstanceStatus"], values: ["creating", "backing-up", "available"], readsPerStep: 1 };
 */
export interface StatusTrack {
  /** CloudFormation path of the attribute. */
  path: string[];
  values: string[];
  readsPerStep: number;
}

/** The status attributes the fake moves by default (more can be given per type). */
export const DEFAULT_TRACKS: Readonly<Record<string, StatusTrack>> = {
  "AWS::RDS::DBInstance": { path: ["DBInstanceStatus"], values: ["creating", "backing-up", "available"], readsPerStep: 1 },
  "AWS::EC2::Instance": { path: ["State", "Name"], values: ["pending", "running"], readsPerStep: 1 },
};

/** A short stable hex string from `seed`. */
export function hexOf(seed: string, n = 17): string {
  return createHash("sha256").update(seed).digest("hex").slice(0, n);
}

/** A value for a read-only or missing identifier property, shaped by its name. */
function madeUp(info: TypeInfo, p: PropInfo, model: Model, seed: string, region: string, depth = 0): unknown {
  const h = hexOf(`${seed}/${p.cfn}`);
  const service = info.cfnType.split("::")[1]!.toLowerCase();
  const resource = info.cfnType.split("::")[2]!;
  if (p.shape === "integer" || p.shape === "number") return 1;
  if (p.shape === "boolean") return false;
  const obj = objectOf(info, p.shape);
  if (obj && depth < 3) {
    // An object attribute (an endpoint): each of its scalar fields made up the same way.
    const out: Model = {};
    for (const q of obj.props) {
      const v = madeUp(info, q, model, `${seed}/${p.cfn}`, region, depth + 1);
      if (v !== undefined) out[q.cfn] = v;
    }
    return out;
  }
  if (typeof p.shape !== "string" && p.shape[0] !== "enum") return undefined;
  if (/AccountId$/.test(p.cfn)) return FAKE_ACCOUNT;
  // IAM is global: its ARNs have no region (the registry's patterns refuse one that has).
  if (/Arn$/.test(p.cfn)) return `arn:aws:${service}:${service === "iam" ? "" : region}:${FAKE_ACCOUNT}:${resource.toLowerCase()}/${String(model.Name ?? model[`${resource}Name`] ?? h)}`;
  if (/Url$|URL$/.test(p.cfn)) return `https://${service}.${region}.amazonaws.com/${FAKE_ACCOUNT}/${String(model[`${resource}Name`] ?? h)}`;
  if (/Id$|ID$/.test(p.cfn)) return `${resource.slice(0, 3).toLowerCase()}-${h}`;
  if (/DnsName$|DNSName$|Address$|Endpoint$/.test(p.cfn)) return `${h.slice(0, 12)}.${region}.${service}.amazonaws.com`;
  if (/Name$/.test(p.cfn)) return `${resource.toLowerCase()}-${h.slice(0, 10)}`;
  if (/Port$/.test(p.cfn)) return p.shape === "string" ? "5432" : 5432;
  return `${p.cfn.toLowerCase()}-${h.slice(0, 8)}`;
}

/** The type's ARN template filled from the model, when every placeholder has a value. */
function arnFromTemplate(template: string | undefined, model: Model, region: string): string | undefined {
  if (!template) return undefined;
  let missing = false;
  const arn = template.replace(/\$\{(\w+)\}/g, (_, k: string) => {
    if (k === "Partition") return "aws";
    if (k === "Region") return region;
    if (k === "Account") return FAKE_ACCOUNT;
    const v = model[k];
    if (typeof v !== "string" && typeof v !== "number") missing = true;
    return String(v);
  });
  return missing ? undefined : arn;
}

/**
 * A new object's full model: what was asked, plus the identifier properties and read-only attributes the
 * cloud fills in, plus the first value of each status track.
 *
 * @example const model = fullModel(queueInfo, { QueueName: "jobs" }, "token-1", "us-east-1", undefined);
 */
export function fullModel(info: TypeInfo, desired: Model, seed: string, region: string, track: StatusTrack | undefined): Model {
  const model: Model = { ...desired };
  for (const cfn of info.identifier) {
    const top = cfn.split("/")[0]!;
    const p = info.byCfn.get(top);
    if (p && model[top] === undefined && typeof p.shape === "string") model[top] = madeUp(info, p, model, seed, region);
  }
  for (const p of info.props) {
    if (!(p.flags & FLAG.readOnly) || model[p.cfn] !== undefined) continue;
    const v = p.cfn === "Arn" ? (arnFromTemplate(info.arnTemplate, model, region) ?? madeUp(info, p, model, seed, region)) : madeUp(info, p, model, seed, region);
    if (v !== undefined) model[p.cfn] = v;
  }
  if (track) setPath(model, track.path, track.values[0]);
  return model;
}

/** Sets a nested path, making the objects on the way. */
export function setPath(model: Model, path: readonly string[], v: unknown): void {
  let o = model;
  for (const seg of path.slice(0, -1)) o = (o[seg] ??= {}) as Model;
  o[path.at(-1)!] = v;
}

/** The object's identifier: its primary identifier values joined with `|`. */
export function identifierOf(info: TypeInfo, model: Model): string {
  const parts = info.identifier.map((path) => path.split("/").reduce<unknown>((o, k) => (o as Model | undefined)?.[k], model));
  return parts.map(String).join("|");
}

/**
 * Schema problems with a desired state, as Cloud Control's handlers report them (`InvalidRequest`, "Model
 * validation failed"); undefined when it is valid. Read-only attributes count as problems too.
 *
 * @example validate(roleInfo, {}) // { code: "InvalidRequest", message: "Model validation failed (#: required key [AssumeRolePolicyDocument] not found)" }
 */
export function validate(info: TypeInfo, desired: Model): FakeFailure | undefined {
  const problems = checkInputs(info, fromCloud(info, desired)).filter((d) => d.severity === "error");
  if (problems.length === 0) return undefined;
  const text = problems.map((d) => {
    const missing = /^required property "(.+)" is missing/.exec(d.summary);
    return missing ? `#: required key [${cfnNameOf(info, missing[1]!)}] not found` : `#/${d.attribute ?? ""}: ${d.summary}`;
  });
  return { code: "InvalidRequest", message: `Model validation failed (${text.join("; ")})` };
}

function cfnNameOf(info: TypeInfo, jsPath: string): string {
  const top = jsPath.split(/[.[]/)[0]!;
  return info.byJs.get(top)?.cfn ?? top;
}
