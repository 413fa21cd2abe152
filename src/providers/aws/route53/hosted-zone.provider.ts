import { createHash } from "node:crypto";
import {
  CreateHostedZoneCommand,
  DeleteHostedZoneCommand,
  GetHostedZoneCommand,
  ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand,
  UpdateHostedZoneCommentCommand,
  type HostedZone as ZoneInfo,
  type Route53Client,
} from "@aws-sdk/client-route-53";
import type { OpContext, Provider } from "../../../provider/provider.js";
import { parseUrn } from "../../../core/urn.js";
import { AwsError, awsCall, awsCode } from "../call.js";
import { route53Client } from "../clients.js";
import type { HostedZoneInputs, HostedZoneOutputs, HostedZoneQuery } from "../generated/route53/hosted-zone.types.js";
import { normalizeName, normalizeZoneId, zoneArn } from "./names.js";
import { HOSTED_ZONE_PERMISSIONS } from "../curated-permissions.js";
import { UserError } from "../../../core/diagnostic.js";

const SERVICE = "Route 53";
type Ctx = Pick<OpContext, "clock" | "signal">;

/**
 * The `CallerReference` of the zone a resource creates: derived from its URN and name, so a create
 * retried after a crash (or a lost response) is recognised instead of making a second zone. Route 53
 * never accepts a reference twice, even after the zone is deleted, so a re-create adds a suffix
 * (`<reference>-<time>`); both forms count as ours.
 *
 * @example callerReference("urn:cairn:dev::site::aws:route53:HostedZone::zone", "example.dev") // "cairn-3f9a…"
 */
export function callerReference(urn: string, name: string): string {
  return `cairn-${createHash("sha256").update(`${urn}\n${normalizeName(name)}`).digest("hex").slice(0, 40)}`;
}

const isOurs = (zone: ZoneInfo, base: string) => zone.CallerReference === base || (zone.CallerReference?.startsWith(`${base}-`) ?? false);

function toOutputs(zone: ZoneInfo, nameServers: string[]): HostedZoneOutputs {
  const zoneId = normalizeZoneId(zone.Id ?? "");
  const out: HostedZoneOutputs = { zoneId, arn: zoneArn(zoneId), name: normalizeName(zone.Name ?? ""), nameServers };
  if (zone.Config?.Comment) out.comment = zone.Config.Comment;
  if (zone.ResourceRecordSetCount !== undefined) out.recordCount = zone.ResourceRecordSetCount;
  return out;
}

/** `GetHostedZone`, or `undefined` when the zone does not exist. */
async function getZone(ctx: Ctx, client: Route53Client, id: string): Promise<HostedZoneOutputs | undefined> {
  try {
    const out = await awsCall(ctx, SERVICE, "GetHostedZone", (abortSignal) => client.send(new GetHostedZoneCommand({ Id: normalizeZoneId(id) }), { abortSignal }));
    return out.HostedZone ? toOutputs(out.HostedZone, out.DelegationSet?.NameServers ?? []) : undefined;
  } catch (e) {
    if (awsCode(e) === "NoSuchHostedZone") return undefined;
    throw e;
  }
}

/** Every zone named exactly `name` (Route 53 allows several), following pages while names still match. */
async function zonesNamed(ctx: Ctx, client: Route53Client, name: string): Promise<ZoneInfo[]> {
  const want = normalizeName(name);
  const found: ZoneInfo[] = [];
  let page: { DNSName: string; HostedZoneId?: string } = { DNSName: want };
  for (;;) {
    const req = page;
    const out = await awsCall(ctx, SERVICE, "ListHostedZonesByName", (abortSignal) => client.send(new ListHostedZonesByNameCommand({ ...req, MaxItems: 100 }), { abortSignal }));
    // Results are sorted by name starting at DNSName: the matches come first.
    for (const z of out.HostedZones ?? []) {
      if (normalizeName(z.Name ?? "") !== want) return found;
      found.push(z);
    }
    if (!out.IsTruncated || !out.NextDNSName || normalizeName(out.NextDNSName) !== want) return found;
    page = { DNSName: out.NextDNSName, ...(out.NextHostedZoneId ? { HostedZoneId: out.NextHostedZoneId } : {}) };
  }
}

/** A few records that keep a zone from being deleted (anything but the apex SOA and NS). */
async function blockingRecords(ctx: Ctx, client: Route53Client, zoneId: string, zoneName: string | undefined): Promise<string[]> {
  const out = await awsCall(ctx, SERVICE, "ListResourceRecordSets", (abortSignal) => client.send(new ListResourceRecordSetsCommand({ HostedZoneId: zoneId, MaxItems: 20 }), { abortSignal }));
  const apex = zoneName === undefined ? undefined : normalizeName(zoneName);
  return (out.ResourceRecordSets ?? [])
    .filter((r) => !((r.Type === "SOA" || r.Type === "NS") && (apex === undefined || normalizeName(r.Name ?? "") === apex)))
    .map((r) => `${normalizeName(r.Name ?? "")} ${r.Type ?? "?"}`);
}

function notEmptyHint(zoneId: string, name: string | undefined, records: string[] | undefined): string {
  const zone = name ? `${name} (${zoneId})` : zoneId;
  const list = records?.length ? `: ${records.slice(0, 5).join(", ")}${records.length > 5 ? ", …" : ""}` : "";
  return (
    `The zone ${zone} still holds records other than its SOA and NS${list}. ` +
    "Delete them first, or declare them as route53.RecordSet resources in this program so they are deleted before the zone"
  );
}

/**
 * Route 53 hosted zones: created with a URN-derived `CallerReference` (a retried create adopts the
 * zone it already made), looked up by name or id, comment updated in place, name change replaces.
 *
 * @example
 * const { id, outputs } = await hostedZoneProvider.create({ urn, inputs: { name: "example.dev" }, ctx });
 * outputs.nameServers // ["ns-1.awsdns-01.org", …]
 */
export const hostedZoneProvider: Provider<HostedZoneInputs, HostedZoneOutputs, HostedZoneQuery> = {
  idempotentCreate: true, // the CallerReference derives from the URN: a create made again adopts the zone
  permissions: (op) => HOSTED_ZONE_PERMISSIONS[op],
  check({ inputs }) {
    if (typeof inputs.name !== "string" || normalizeName(inputs.name) === "" || normalizeName(inputs.name) === ".") {
      return [{ severity: "error", attribute: "name", summary: "must be a domain name such as example.dev" }];
    }
    return [];
  },

  diff({ olds, news, outputs }) {
    if (normalizeName(news.name) !== normalizeName(olds.name)) return { kind: "replace", changed: ["name"], replaceKeys: ["name"] };
    // Compare with the zone as last read too, so a comment edited in the console is put back.
    const want = news.comment ?? "";
    if (want !== (olds.comment ?? "") || want !== (outputs.comment ?? "")) {
      return { kind: "update", changed: ["comment"], stables: ["zoneId", "arn", "name", "nameServers"] };
    }
    return { kind: "same" };
  },

  async create({ urn, inputs, ctx }) {
    const client = route53Client(ctx);
    const name = normalizeName(inputs.name);
    const base = callerReference(urn, name);
    // The plain reference first (recognises a crashed create); a timestamped one if a deleted zone used it.
    for (const ref of [base, `${base}-${ctx.clock.now()}`]) {
      try {
        const out = await awsCall(ctx, SERVICE, "CreateHostedZone", (abortSignal) =>
          client.send(new CreateHostedZoneCommand({ Name: name, CallerReference: ref, ...(inputs.comment ? { HostedZoneConfig: { Comment: inputs.comment } } : {}) }), { abortSignal }),
        );
        if (!out.HostedZone) throw new Error(`Route 53 CreateHostedZone for ${name} returned no hosted zone`);
        const outputs = toOutputs(out.HostedZone, out.DelegationSet?.NameServers ?? []);
        return { id: outputs.zoneId, outputs };
      } catch (e) {
        if (awsCode(e) !== "HostedZoneAlreadyExists") throw e;
        const zones = await zonesNamed(ctx, client, name);
        const ours = zones.find((z) => isOurs(z, base));
        if (ours) return adopt(ctx, client, ours, inputs);
        if (zones.length) {
          const ids = zones.map((z) => normalizeZoneId(z.Id ?? "")).join(", ");
          const logical = parseUrn(urn).name;
          throw new UserError(
            `A hosted zone named ${name} already exists (${ids}) and was not created by this resource. ` +
              `To use it without creating one, look it up instead: route53.HostedZone.get("${logical}", { name: "${name}" }) ` +
              `(or by id: route53.HostedZone.get("${logical}", "${normalizeZoneId(zones[0]?.Id ?? "")}")). To create a new zone here, delete the existing one first.`,
            { cause: e },
          );
        }
        // No zone of this name: the reference was used by a zone since deleted; try the timestamped one.
      }
    }
    throw new Error(`Route 53 refused to create the hosted zone ${name}: its caller references are already used (HostedZoneAlreadyExists), yet no zone of that name exists. Try again.`);
  },

  async read({ id, ctx }) {
    return getZone(ctx, route53Client(ctx), id);
  },

  async lookup({ query, ctx }) {
    const client = route53Client(ctx);
    if ("zoneId" in query && typeof query.zoneId === "string") {
      const outputs = await getZone(ctx, client, query.zoneId);
      return outputs && { id: outputs.zoneId, outputs };
    }
    if (!("name" in query) || typeof query.name !== "string") throw new UserError("route53.HostedZone.get: give { name: \"example.dev\" } or { zoneId: \"Z…\" }");
    const name = normalizeName(query.name);
    const zones = await zonesNamed(ctx, client, name);
    const publics = zones.filter((z) => !z.Config?.PrivateZone);
    const candidates = publics.length ? publics : zones;
    if (candidates.length > 1) {
      const ids = candidates.map((z) => normalizeZoneId(z.Id ?? "")).join(", ");
      throw new UserError(
        `${candidates.length} ${publics.length ? "public" : "private"} hosted zones are named ${name} (${ids}): look the one you mean up by id, e.g. route53.HostedZone.get(name, { zoneId: "${normalizeZoneId(candidates[0]?.Id ?? "")}" })`,
      );
    }
    const zone = candidates[0];
    if (!zone?.Id) return undefined;
    const outputs = await getZone(ctx, client, zone.Id);
    return outputs && { id: outputs.zoneId, outputs };
  },

  async update({ id, news, outputs, ctx }) {
    const client = route53Client(ctx);
    // Without Comment, Route 53 removes the existing one.
    const out = await awsCall(ctx, SERVICE, "UpdateHostedZoneComment", (abortSignal) =>
      client.send(new UpdateHostedZoneCommentCommand({ Id: normalizeZoneId(id), ...(news.comment ? { Comment: news.comment } : {}) }), { abortSignal }),
    );
    return out.HostedZone ? toOutputs(out.HostedZone, outputs.nameServers) : { ...outputs, ...(news.comment ? { comment: news.comment } : {}) };
  },

  async delete({ id, outputs, ctx }) {
    const client = route53Client(ctx);
    const zoneId = normalizeZoneId(id);
    try {
      await awsCall(ctx, SERVICE, "DeleteHostedZone", (abortSignal) => client.send(new DeleteHostedZoneCommand({ Id: zoneId }), { abortSignal }));
    } catch (e) {
      const code = awsCode(e);
      if (code === "NoSuchHostedZone") return;
      if (code !== "HostedZoneNotEmpty") throw e;
      // Name what is left, so the user knows what to delete (best effort: the listing may fail too).
      const records = await blockingRecords(ctx, client, zoneId, outputs?.name).catch(() => undefined);
      throw new AwsError(SERVICE, "DeleteHostedZone", e instanceof AwsError ? e.cause : e, notEmptyHint(zoneId, outputs?.name, records));
    }
  },
};

/** Takes over the zone a crashed create made: reads it fully and applies the wanted comment. */
async function adopt(ctx: Ctx, client: Route53Client, zone: ZoneInfo, inputs: HostedZoneInputs): Promise<{ id: string; outputs: HostedZoneOutputs }> {
  const zoneId = normalizeZoneId(zone.Id ?? "");
  let outputs = (await getZone(ctx, client, zoneId)) ?? toOutputs(zone, []);
  if ((inputs.comment ?? "") !== (outputs.comment ?? "")) {
    const out = await awsCall(ctx, SERVICE, "UpdateHostedZoneComment", (abortSignal) =>
      client.send(new UpdateHostedZoneCommentCommand({ Id: zoneId, ...(inputs.comment ? { Comment: inputs.comment } : {}) }), { abortSignal }),
    );
    if (out.HostedZone) outputs = toOutputs(out.HostedZone, outputs.nameServers);
  }
  return { id: zoneId, outputs };
}
