import { ListResourceRecordSetsCommand, type Change, type ResourceRecordSet, type Route53Client, type RRType } from "@aws-sdk/client-route-53";
import type { Diagnostic, OpContext, Provider } from "../../../provider/provider.js";
import { awsCall, awsCode } from "../call.js";
import { route53Client } from "../clients.js";
import { RecordSetRecordType, type RecordSetAliasTarget, type RecordSetInputs, type RecordSetOutputs } from "../generated/route53/record-set.types.js";
import { submitBatched } from "./batch.js";
import { errorText, waitForSyncShared, type SubmittedChange } from "./change.js";
import { fqdn, normalizeName, normalizeZoneId } from "./names.js";
import { RECORD_SET_PERMISSIONS } from "../curated-permissions.js";
import { UserError } from "../../../core/diagnostic.js";

const SERVICE = "Route 53";
type Ctx = Pick<OpContext, "clock" | "signal">;

const RECORD_TYPES: readonly RecordSetRecordType[] = Object.values(RecordSetRecordType);
const isRecordType = (t: unknown): t is RecordSetRecordType => typeof t === "string" && (RECORD_TYPES as readonly string[]).includes(t);

/** Types whose values are names or addresses: compared without case or a trailing dot. */
const CASELESS_TYPES = new Set(["A", "AAAA", "CNAME", "NS", "PTR", "MX", "SRV", "DS", "SSHFP", "TLSA"]);
const DEFAULT_TTL = 300;

/** What identifies a record set in a zone. */
interface RecordKey {
  zoneId: string;
  name: string;
  type: string;
  setIdentifier?: string;
}

/**
 * The id of a record set, in Terraform's format: `<zoneId>_<name>_<type>`, plus `_<setIdentifier>` when
 * there is one. The name is normalised, so case and a trailing dot do not change the id.
 *
 * @example recordSetId("/hostedzone/Z123", "WWW.example.dev.", "A") // "Z123_www.example.dev_A"
 */
export function recordSetId(zoneId: string, name: string, type: string, setIdentifier?: string): string {
  return `${normalizeZoneId(zoneId)}_${normalizeName(name)}_${type}${setIdentifier ? `_${setIdentifier}` : ""}`;
}

/**
 * Splits an id made by {@link recordSetId} (names are lower-case and types upper-case, so underscores in
 * names such as `_acme-challenge` do not confuse it); `undefined` when it is not one.
 *
 * @example parseRecordSetId("Z123__dmarc.example.dev_TXT") // { zoneId: "Z123", name: "_dmarc.example.dev", type: "TXT" }
 */
export function parseRecordSetId(id: string): RecordKey | undefined {
  const m = new RegExp(`^([^_]+)_(.+?)_(${RECORD_TYPES.join("|")})(?:_(.+))?$`).exec(id);
  if (!m) return undefined;
  const key: RecordKey = { zoneId: m[1]!, name: m[2]!, type: m[3]! };
  if (m[4]) key.setIdentifier = m[4];
  return key;
}

/**
 * A TXT or SPF value as Route 53 requires it: in double quotes, inner quotes and backslashes escaped,
 * split into quoted 255-character strings when longer. A value already in quotes is left as written.
 *
 * @example quoteTxt("v=spf1 -all") // "\"v=spf1 -all\""
 */
export function quoteTxt(value: string): string {
  if (value.length >= 2 && value.startsWith('"') && value.endsWith('"')) return value;
  const chunks: string[] = [];
  for (let i = 0; i < value.length; i += 255) chunks.push(value.slice(i, i + 255));
  return (chunks.length ? chunks : [""]).map((c) => `"${c.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`).join(" ");
}

/** A value as sent to Route 53: TXT and SPF quoted, others trimmed. */
function recordValue(type: string, value: string): string {
  return type === "TXT" || type === "SPF" ? quoteTxt(value) : value.trim();
}

/** A value as compared: as sent, and for name/address types without case or a trailing dot. */
function comparable(type: string, value: string): string {
  const v = recordValue(type, value);
  return CASELESS_TYPES.has(type) ? v.toLowerCase().replace(/\.$/, "") : v;
}

/** The values as a set (Route 53 keeps their order, but order has no meaning in DNS). */
function valuesKey(type: string, values: readonly string[] | undefined): string {
  return JSON.stringify([...new Set((values ?? []).map((v) => comparable(type, v)))].sort());
}

function aliasKey(alias: RecordSetAliasTarget | undefined): string {
  return alias ? JSON.stringify([normalizeName(alias.name), normalizeZoneId(alias.zoneId), alias.evaluateTargetHealth ?? false]) : "";
}

function describe(key: Pick<RecordKey, "name" | "type" | "setIdentifier">): string {
  return `${normalizeName(key.name)} ${key.type}${key.setIdentifier ? ` (set ${key.setIdentifier})` : ""}`;
}

/** The record set to send for some inputs (TTL defaults to 300 unless it is an alias). */
function toRecordSet(inputs: RecordSetInputs): ResourceRecordSet {
  const rr: ResourceRecordSet = { Name: fqdn(inputs.name), Type: inputs.type as RRType };
  if (inputs.alias) {
    rr.AliasTarget = {
      DNSName: inputs.alias.name,
      HostedZoneId: normalizeZoneId(inputs.alias.zoneId),
      EvaluateTargetHealth: inputs.alias.evaluateTargetHealth ?? false,
    };
  } else {
    rr.TTL = inputs.ttl ?? DEFAULT_TTL;
    rr.ResourceRecords = (inputs.records ?? []).map((v) => ({ Value: recordValue(inputs.type, v) }));
  }
  if (inputs.setIdentifier) rr.SetIdentifier = inputs.setIdentifier;
  if (inputs.weight !== undefined) rr.Weight = inputs.weight;
  return rr;
}

/** The record set recorded in outputs, to delete it with its exact current values. */
function fromOutputs(o: RecordSetOutputs): ResourceRecordSet {
  const rr: ResourceRecordSet = { Name: fqdn(o.name), Type: o.type as RRType };
  if (o.alias) {
    rr.AliasTarget = { DNSName: fqdn(o.alias.name), HostedZoneId: normalizeZoneId(o.alias.zoneId), EvaluateTargetHealth: o.alias.evaluateTargetHealth ?? false };
  } else {
    if (o.ttl !== undefined) rr.TTL = o.ttl;
    rr.ResourceRecords = (o.records ?? []).map((Value) => ({ Value }));
  }
  if (o.setIdentifier) rr.SetIdentifier = o.setIdentifier;
  if (o.weight !== undefined) rr.Weight = o.weight;
  return rr;
}

/** Outputs from a record set as sent or as listed; absent optional values are left out. */
function toOutputs(zoneId: string, rr: ResourceRecordSet, changeId: string | undefined): RecordSetOutputs {
  const name = normalizeName(rr.Name ?? "");
  const out: RecordSetOutputs = {
    zoneId: normalizeZoneId(zoneId),
    name,
    fqdn: fqdn(name),
    type: rr.Type as RecordSetRecordType,
    records: (rr.ResourceRecords ?? []).map((r) => r.Value ?? ""),
  };
  if (rr.TTL !== undefined) out.ttl = rr.TTL;
  if (rr.AliasTarget) {
    out.alias = {
      name: normalizeName(rr.AliasTarget.DNSName ?? ""),
      zoneId: normalizeZoneId(rr.AliasTarget.HostedZoneId ?? ""),
      evaluateTargetHealth: rr.AliasTarget.EvaluateTargetHealth ?? false,
    };
  }
  if (rr.SetIdentifier) out.setIdentifier = rr.SetIdentifier;
  if (rr.Weight !== undefined) out.weight = rr.Weight;
  if (changeId) out.changeId = changeId;
  return out;
}

/** The record's identity from its inputs, else its outputs, else its id (`RecordSet.get(name, id)` has neither). */
function keyOf(id: string, inputs: Partial<RecordSetInputs> | undefined, outputs: Partial<RecordSetOutputs> | undefined): RecordKey {
  for (const src of [inputs, outputs]) {
    if (src?.zoneId && src.name && src.type) {
      const key: RecordKey = { zoneId: normalizeZoneId(src.zoneId), name: normalizeName(src.name), type: src.type };
      if (src.setIdentifier) key.setIdentifier = src.setIdentifier;
      return key;
    }
  }
  const parsed = parseRecordSetId(id);
  if (!parsed) throw new UserError(`"${id}" is not a Route 53 record set id: expected <zoneId>_<name>_<type>[_<setIdentifier>], e.g. Z0123_www.example.dev_A`);
  return parsed;
}

/**
 * Finds one record set by name, type and set identifier: listing starts at it, so one small page
 * usually answers; weighted sets of one name and type are followed page by page.
 */
async function findRecordSet(ctx: Ctx, client: Route53Client, key: RecordKey): Promise<ResourceRecordSet | undefined> {
  const want = normalizeName(key.name);
  let start: { StartRecordName: string; StartRecordType: RRType; StartRecordIdentifier?: string } = { StartRecordName: fqdn(want), StartRecordType: key.type as RRType };
  for (let page = 0; page < 50; page++) {
    const req = start;
    const out = await awsCall(ctx, SERVICE, "ListResourceRecordSets", (abortSignal) =>
      client.send(new ListResourceRecordSetsCommand({ HostedZoneId: key.zoneId, ...req, MaxItems: key.setIdentifier ? 100 : 10 }), { abortSignal }),
    );
    for (const rr of out.ResourceRecordSets ?? []) {
      // Sorted from the start: once past our name and type, it is not there.
      if (normalizeName(rr.Name ?? "") !== want || rr.Type !== key.type) return undefined;
      if ((rr.SetIdentifier ?? "") === (key.setIdentifier ?? "")) return rr;
    }
    if (!out.IsTruncated || !out.NextRecordName || normalizeName(out.NextRecordName) !== want || out.NextRecordType !== key.type) return undefined;
    start = { StartRecordName: out.NextRecordName, StartRecordType: out.NextRecordType, ...(out.NextRecordIdentifier ? { StartRecordIdentifier: out.NextRecordIdentifier } : {}) };
  }
  return undefined;
}

const isChangeBatchError = (e: unknown, re: RegExp) => awsCode(e) === "InvalidChangeBatch" && re.test(errorText(e));
const ALREADY_EXISTS = /already exists/i;
const NOT_FOUND = /not found/i;
const VALUES_DIFFER = /do(es)? not match/i;

/** Explains the errors a CREATE or UPSERT meets that Route 53's own words leave unclear. */
function writeHint(key: RecordKey) {
  return (e: unknown): string | undefined => {
    if (awsCode(e) === "NoSuchHostedZone") return `The hosted zone ${key.zoneId} does not exist: check zoneId (give the id of an existing zone, e.g. zone.zoneId)`;
    if (isChangeBatchError(e, ALREADY_EXISTS)) {
      return `The record ${describe(key)} already exists in zone ${key.zoneId}. To adopt (overwrite) it, set allowOverwrite: true on this RecordSet; or delete the existing record first`;
    }
    return undefined;
  };
}

/** Waits for `p` without holding a --parallel slot: queued for a shared request, or for Route 53 to sync. */
const unslotted = <T>(ctx: OpContext, p: Promise<T>): Promise<T> => (ctx.pause ? ctx.pause(p) : p);

/**
 * Queues one change for its zone's next request (see batch.ts). The slot is given back meanwhile, so the
 * records ready together share one `ChangeResourceRecordSets`, however small --parallel is.
 */
function submitOne(ctx: OpContext, client: Route53Client, zoneId: string, change: Change, hint?: (e: unknown) => string | undefined): Promise<SubmittedChange> {
  return unslotted(ctx, submitBatched(ctx, client, zoneId, change, hint));
}

/** Sends a CREATE or UPSERT and waits for INSYNC unless told not to; answers the new outputs. */
async function write(ctx: OpContext, inputs: RecordSetInputs, action: "CREATE" | "UPSERT"): Promise<{ id: string; outputs: RecordSetOutputs }> {
  const client = route53Client(ctx);
  const key = keyOf("", inputs, undefined);
  const rr = toRecordSet(inputs);
  const change = await submitOne(ctx, client, key.zoneId, { Action: action, ResourceRecordSet: rr }, writeHint(key));
  if (inputs.waitForSync !== false && change.status !== "INSYNC") await unslotted(ctx, waitForSyncShared(ctx, client, change.changeId, describe(key)));
  return { id: recordSetId(key.zoneId, key.name, key.type, key.setIdentifier), outputs: toOutputs(key.zoneId, rr, change.changeId) };
}

/**
 * The record named by `inputs` when it already exists with exactly the wanted values, TTL, alias target and
 * weight (compared normalised, as diff does), as created outputs; `undefined` when it is missing or differs.
 */
async function adoptIdentical(ctx: OpContext, inputs: RecordSetInputs): Promise<{ id: string; outputs: RecordSetOutputs } | undefined> {
  const key = keyOf("", inputs, undefined);
  const rr = await findRecordSet(ctx, route53Client(ctx), key);
  if (!rr) return undefined;
  const outputs = toOutputs(key.zoneId, rr, undefined);
  if (rr.Type !== inputs.type || updatedAttributes(inputs, inputs, outputs).length) return undefined;
  ctx.log.info(`Route 53 record ${describe(key)} in zone ${key.zoneId} already existed with the wanted values: adopted an identical existing record`);
  return { id: recordSetId(key.zoneId, key.name, key.type, key.setIdentifier), outputs };
}

/** The attributes changed in place, comparing the new inputs with the old ones and with the record as last read. */
function updatedAttributes(news: RecordSetInputs, olds: RecordSetInputs, outputs: RecordSetOutputs): string[] {
  const type = news.type;
  const ttl = (x: { alias?: unknown; ttl?: number }) => (x.alias ? undefined : (x.ttl ?? DEFAULT_TTL));
  const values = (x: { alias?: unknown; records?: string[] }) => (x.alias ? valuesKey(type, []) : valuesKey(type, x.records));
  const checks: [string, (x: RecordSetInputs | RecordSetOutputs) => unknown][] = [
    ["ttl", ttl],
    ["records", values],
    ["alias", (x) => aliasKey(x.alias)],
    ["weight", (x) => x.weight],
  ];
  return checks.filter(([, f]) => f(news) !== f(olds) || f(news) !== f(outputs)).map(([attr]) => attr);
}

/**
 * Route 53 record sets: CREATE (or UPSERT with `allowOverwrite`), UPSERT on update, DELETE with the
 * record's current values; each write waits (bounded) for `INSYNC` unless `waitForSync: false`. Names,
 * TXT quoting and value order are normalised so they cause no diffs.
 *
 * @example
 * await recordSetProvider.create({ urn, ctx, inputs: { zoneId: "Z123", name: "www.example.dev", type: "CNAME", records: ["example.dev"] } });
 */
export const recordSetProvider: Provider<RecordSetInputs, RecordSetOutputs> = {
  idempotentCreate: true, // a record is unique by zone, name and type: a create made again adopts the identical one
  permissions: (op) => RECORD_SET_PERMISSIONS[op],
  check({ inputs }) {
    const d: Diagnostic[] = [];
    const error = (attribute: string, message: string) => d.push({ severity: "error", attribute, summary: message });
    if (typeof inputs.zoneId !== "string" || !normalizeZoneId(inputs.zoneId)) error("zoneId", "must be a hosted zone id, e.g. zone.zoneId or \"Z0123456789ABCDEFGHIJ\"");
    if (typeof inputs.name !== "string" || !normalizeName(inputs.name)) error("name", "must be a non-empty DNS name, e.g. www.example.dev");
    if (!isRecordType(inputs.type)) error("type", `must be one of ${RECORD_TYPES.join(", ")} (got ${JSON.stringify(inputs.type)})`);
    const records = inputs.records ?? [];
    if (inputs.alias && records.length) error("records", "give either records or alias, not both");
    if (!inputs.alias && !records.length) error("records", "give the record's values (records: [...]) or an alias target (alias: { name, zoneId })");
    if (records.some((v) => typeof v !== "string" || v.trim() === "")) error("records", "every value must be a non-empty string");
    if (inputs.type === "CNAME" && records.length > 1) error("records", "a CNAME record has exactly one value");
    if (inputs.alias) {
      if (typeof inputs.alias.name !== "string" || !inputs.alias.name) error("alias", "alias.name must be the target's DNS name");
      if (typeof inputs.alias.zoneId !== "string" || !inputs.alias.zoneId) error("alias", "alias.zoneId must be the target's hosted zone id");
      if (inputs.ttl !== undefined) error("ttl", "an alias record has no TTL of its own (Route 53 uses the target's): remove ttl");
    }
    if (inputs.ttl !== undefined && (!Number.isInteger(inputs.ttl) || inputs.ttl < 0 || inputs.ttl > 2147483647)) {
      error("ttl", "must be a whole number of seconds from 0 to 2147483647");
    }
    if (inputs.weight !== undefined) {
      if (!inputs.setIdentifier) error("weight", "weighted routing needs setIdentifier to tell the records of this name and type apart");
      if (!Number.isInteger(inputs.weight) || inputs.weight < 0 || inputs.weight > 255) error("weight", "must be a whole number from 0 to 255");
    } else if (inputs.setIdentifier) {
      error("setIdentifier", "only weighted routing is supported: setIdentifier needs weight");
    }
    return d;
  },

  diff({ olds, news, outputs }) {
    const replaceKeys: string[] = [];
    if (normalizeZoneId(news.zoneId) !== normalizeZoneId(olds.zoneId)) replaceKeys.push("zoneId");
    if (normalizeName(news.name) !== normalizeName(olds.name)) replaceKeys.push("name");
    if (news.type !== olds.type) replaceKeys.push("type");
    if ((news.setIdentifier ?? "") !== (olds.setIdentifier ?? "")) replaceKeys.push("setIdentifier");
    const changed = updatedAttributes(news, olds, outputs);
    if (replaceKeys.length) return { kind: "replace", changed: [...replaceKeys, ...changed], replaceKeys };
    // allowOverwrite and waitForSync only steer how a write is made: alone they change nothing.
    return changed.length ? { kind: "update", changed, stables: ["zoneId", "name", "fqdn", "type"] } : { kind: "same" };
  },

  async create({ inputs, ctx }) {
    if (inputs.allowOverwrite) return write(ctx, inputs, "UPSERT");
    try {
      return await write(ctx, inputs, "CREATE");
    } catch (e) {
      if (!isChangeBatchError(e, ALREADY_EXISTS)) throw e;
      // A CREATE whose response was lost may have been applied before awsCall retried it (and a replace of
      // a tainted record keeps its zone, name and type): take over an identical record, refuse any other.
      const adopted = await adoptIdentical(ctx, inputs).catch(() => undefined);
      if (!adopted) throw e;
      return adopted;
    }
  },

  async read({ id, inputs, outputs, ctx }) {
    const key = keyOf(id, inputs, outputs);
    try {
      const rr = await findRecordSet(ctx, route53Client(ctx), key);
      return rr && toOutputs(key.zoneId, rr, outputs?.changeId);
    } catch (e) {
      if (awsCode(e) === "NoSuchHostedZone") return undefined;
      throw e;
    }
  },

  async update({ news, ctx }) {
    return (await write(ctx, news, "UPSERT")).outputs;
  },

  async delete({ id, inputs, outputs, ctx }) {
    const client = route53Client(ctx);
    const key = keyOf(id, inputs, outputs);
    const gone = (e: unknown) => awsCode(e) === "NoSuchHostedZone" || isChangeBatchError(e, NOT_FOUND);
    // DELETE must name the record's exact values: those last read, else (or if they changed) the current ones.
    let rr = outputs?.alias || outputs?.records?.length ? fromOutputs(outputs) : await findRecordSet(ctx, client, key).catch(rethrowUnlessGone(gone));
    for (let attempt = 1; rr; attempt++) {
      try {
        await submitOne(ctx, client, key.zoneId, { Action: "DELETE", ResourceRecordSet: rr });
        return;
      } catch (e) {
        if (gone(e)) return;
        if (attempt > 1 || !isChangeBatchError(e, VALUES_DIFFER)) throw e;
        rr = await findRecordSet(ctx, client, key).catch(rethrowUnlessGone(gone));
      }
    }
  },
};

/** For `.catch`: a zone that no longer exists means the record is gone too. */
function rethrowUnlessGone(gone: (e: unknown) => boolean) {
  return (e: unknown): undefined => {
    if (gone(e)) return undefined;
    throw e;
  };
}
