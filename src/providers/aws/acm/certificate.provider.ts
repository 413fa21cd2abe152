import { UNKNOWN } from "../../../core/unknown.js";
import { createHash } from "node:crypto";
import {
  AddTagsToCertificateCommand,
  DeleteCertificateCommand,
  DescribeCertificateCommand,
  KeyAlgorithm,
  ListCertificatesCommand,
  ListTagsForCertificateCommand,
  RemoveTagsFromCertificateCommand,
  RequestCertificateCommand,
  type ACMClient,
  type CertificateDetail,
  type CertificateStatus,
  type CertificateSummary,
  type Tag,
} from "@aws-sdk/client-acm";
import type { Diagnostic, Diff, OpContext, Provider } from "../../../provider/provider.js";
import { IncompleteCreateError } from "../../../core/errors.js";
import { formatDuration, milliseconds, minutes, type Duration } from "../../../core/duration.js";
import type { Urn } from "../../../core/urn.js";
import { awsCall, awsCode } from "../call.js";
import { acmClient } from "../clients.js";
import type { CertificateDomainValidationOption, CertificateInputs, CertificateOutputs } from "../generated/acm/certificate.types.js";
import { CERTIFICATE_PERMISSIONS } from "../curated-permissions.js";

/**
 * The tag Cairn puts on every certificate it requests, so an orphan can be traced back to its resource.
 *
 * @example { Key: URN_TAG, Value: urn } // "cairn:urn"
 */
export const URN_TAG = "cairn:urn";

type Status = CertificateOutputs["status"];
type Method = NonNullable<CertificateOutputs["validationMethod"]>;
type Algorithm = NonNullable<CertificateOutputs["keyAlgorithm"]>;

/**
 * A domain name as ACM compares it: lower case, without the trailing dot.
 *
 * @example normalizeDomain("WWW.Example.dev.") // "www.example.dev"
 */
export function normalizeDomain(name: string): string {
  return name.trim().toLowerCase().replace(/\.+$/, "");
}

/** What a certificate request asks for: the force-new inputs (a change to any of them replaces the certificate). */
export type CertificateRequest = Pick<CertificateInputs, "domainName" | "subjectAlternativeNames" | "validationMethod" | "keyAlgorithm">;

/**
 * The `IdempotencyToken` of a certificate request: the first 32 hex characters of sha256 over the URN and
 * the normalised request (domain name, sorted SANs, validation method, key algorithm, defaults made
 * explicit). ACM returns the same certificate for the same token within an hour, so a create retried after
 * a crash with the same inputs does not request a duplicate, while a replacement (say, a new key algorithm)
 * gets a new certificate instead of the one it replaces.
 *
 * @example idempotencyToken("urn:cairn:dev::site::aws:acm:Certificate::cert", { domainName: "example.dev" }) // 32 hex characters
 */
export function idempotencyToken(urn: string, request: CertificateRequest): string {
  const key = [
    urn,
    normalizeDomain(request.domainName),
    sansKey(request),
    request.validationMethod ?? "DNS",
    // RSA_2048 is ACM's default: leaving it out and naming it are the same request (as in diff).
    request.keyAlgorithm ?? "RSA_2048",
  ];
  return createHash("sha256").update(JSON.stringify(key)).digest("hex").slice(0, 32);
}

/**
 * The value of the `cairn:urn` tag: the URN itself when ACM accepts it as a tag value; otherwise (a `$`
 * between component types, other symbols in a name, over 256 characters) the characters ACM refuses become
 * `_`, since a refused tag would fail the whole request.
 *
 * @example urnTagValue("urn:cairn:dev::site::aws:acm:Certificate::cert") // unchanged
 */
export function urnTagValue(urn: string): string {
  return urn.replace(/[^\p{L}\p{Z}\p{N}_.:/=+\-@]/gu, "_").slice(0, 256);
}

/** The names a certificate covers, normalised, deduplicated, domainName first. */
function allNames(inputs: Pick<CertificateInputs, "domainName" | "subjectAlternativeNames">): string[] {
  return [...new Set([inputs.domainName, ...(inputs.subjectAlternativeNames ?? [])].map(normalizeDomain))];
}

/** SANs as a comparable key: normalised, without the domain name itself, sorted. */
function sansKey(inputs: Pick<CertificateInputs, "domainName" | "subjectAlternativeNames">): string {
  return allNames(inputs).slice(1).sort().join(",");
}

const tagsOf = (t: Record<string, string> | undefined): Record<string, string> => {
  const out = { ...(t ?? {}) };
  delete out[URN_TAG];
  return out;
};
const sameTags = (a: Record<string, string>, b: Record<string, string>) =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([k, v]) => b[k] === v);

// ---------------------------------------------------------------------------------------------------------
// Outputs

/** Key algorithms as requested (`RSA_2048`): DescribeCertificate has been seen to answer `RSA-2048`. */
const algorithmOf = (a: string | undefined): Algorithm | undefined => (a ? (a.replace(/-/g, "_") as Algorithm) : undefined);

const iso = (d: Date | undefined): string | undefined => (d ? new Date(d).toISOString() : undefined);

/** Copies only defined values, so absent optional outputs are omitted rather than stored as `undefined`. */
function defined<T extends object>(o: T): T {
  for (const k of Object.keys(o) as (keyof T)[]) if (o[k] === undefined) delete o[k];
  return o;
}

function dvosOf(detail: CertificateDetail): CertificateDomainValidationOption[] {
  return (detail.DomainValidationOptions ?? []).map((d) => {
    const rr = d.ResourceRecord;
    const opt: CertificateDomainValidationOption = { domainName: normalizeDomain(d.DomainName ?? "") };
    if (d.ValidationStatus) opt.validationStatus = d.ValidationStatus as NonNullable<CertificateDomainValidationOption["validationStatus"]>;
    if (rr?.Name && rr.Value) opt.resourceRecord = { name: normalizeDomain(rr.Name), type: rr.Type ?? "CNAME", value: normalizeDomain(rr.Value) };
    return opt;
  });
}

/**
 * Maps a DescribeCertificate answer (and the certificate's tags) to outputs. `fallback` fills what the
 * answer may lack (the validation method is only reported per domain).
 */
function toOutputs(detail: CertificateDetail, tags: Record<string, string> | undefined, fallback: Partial<CertificateOutputs> = {}): CertificateOutputs {
  const domainName = normalizeDomain(detail.DomainName ?? fallback.domainName ?? "");
  const sans = detail.SubjectAlternativeNames?.map(normalizeDomain) ?? fallback.subjectAlternativeNames ?? [domainName];
  const method = detail.DomainValidationOptions?.find((d) => d.ValidationMethod)?.ValidationMethod as Method | undefined;
  const userTags = tags === undefined ? fallback.tags : tagsOf(tags);
  return defined<CertificateOutputs>({
    arn: detail.CertificateArn ?? fallback.arn ?? "",
    domainName,
    subjectAlternativeNames: sans,
    validationMethod: method ?? fallback.validationMethod,
    keyAlgorithm: algorithmOf(detail.KeyAlgorithm) ?? fallback.keyAlgorithm,
    status: (detail.Status ?? fallback.status ?? "PENDING_VALIDATION") as Status,
    domainValidationOptions: dvosOf(detail),
    notBefore: iso(detail.NotBefore),
    notAfter: iso(detail.NotAfter),
    inUseBy: detail.InUseBy ?? [],
    failureReason: detail.FailureReason,
    tags: userTags && Object.keys(userTags).length ? userTags : undefined,
  });
}

// ---------------------------------------------------------------------------------------------------------
// Calls

/** What to do about ACM errors specific to requesting and tagging certificates. */
function hint(e: unknown): string | undefined {
  switch (awsCode(e)) {
    case "LimitExceededException":
      return "ACM limits how many certificates an account may request in a year (and how many it may hold); deleting certificates does not reset the yearly count. Reuse an existing certificate, or ask for a higher 'ACM certificates' quota in the Service Quotas console";
    case "InvalidDomainValidationOptionsException":
      return "ACM refused the domain validation options: check that every name is a public domain you control and, for EMAIL validation, that the validation domain is a parent of the name";
    case "InvalidParameterException":
    case "ValidationException":
      return "ACM refused a parameter: check domainName (at most 64 characters for the first name), subjectAlternativeNames, keyAlgorithm and the tags";
    case "InvalidTagException":
    case "TooManyTagsException":
    case "TagPolicyException":
      return "ACM refused the tags: at most 50 tags, keys up to 128 and values up to 256 characters, no `aws:` prefix, and your organisation's tag policy applies";
    default:
      return undefined;
  }
}

const isNotFound = (e: unknown) => awsCode(e) === "ResourceNotFoundException";

async function describe(ctx: OpContext, client: ACMClient, arn: string, opts: { retryNotFound?: boolean } = {}): Promise<CertificateDetail> {
  const out = await awsCall(ctx, "ACM", "DescribeCertificate", (abortSignal) => client.send(new DescribeCertificateCommand({ CertificateArn: arn }), { abortSignal }), {
    hint,
    // Just after RequestCertificate the new ARN may not be visible yet (eventual consistency).
    ...(opts.retryNotFound ? { retryAlso: isNotFound, maxAttempts: 6 } : {}),
  });
  if (!out.Certificate) throw new Error(`ACM DescribeCertificate returned no certificate for ${arn}`);
  return out.Certificate;
}

async function listTags(ctx: OpContext, client: ACMClient, arn: string): Promise<Record<string, string>> {
  const out = await awsCall(ctx, "ACM", "ListTagsForCertificate", (abortSignal) => client.send(new ListTagsForCertificateCommand({ CertificateArn: arn }), { abortSignal }), { hint });
  return Object.fromEntries((out.Tags ?? []).map((t) => [t.Key ?? "", t.Value ?? ""]));
}

/** DescribeCertificate + ListTagsForCertificate; `undefined` when the certificate is gone. */
async function readOne(ctx: OpContext, client: ACMClient, arn: string, fallback: Partial<CertificateOutputs>): Promise<CertificateOutputs | undefined> {
  try {
    const detail = await describe(ctx, client, arn);
    return toOutputs(detail, await listTags(ctx, client, arn), fallback);
  } catch (e) {
    if (isNotFound(e)) return undefined;
    throw e;
  }
}

/** True once ACM has published a validation record for every requested name. */
function recordsPublished(detail: CertificateDetail, names: readonly string[]): boolean {
  const dvos = detail.DomainValidationOptions ?? [];
  if (dvos.length === 0 || dvos.some((d) => !d.ResourceRecord?.Name || !d.ResourceRecord.Value)) return false;
  const have = new Set(dvos.map((d) => normalizeDomain(d.DomainName ?? "")));
  return names.every((n) => have.has(n));
}

/**
 * How long create waits for the validation records by default (less when the operation's timeout is shorter).
 *
 * @example formatDuration(RECORDS_TIMEOUT) // "5m0s"
 */
export const RECORDS_TIMEOUT: Duration = minutes(5);

/**
 * Polls DescribeCertificate (1 s, 2 s, 4 s, then every 5 s) until the validation records are published or
 * `bound` passes. Returns the last answer and whether the records are there.
 */
async function waitForRecords(ctx: OpContext, client: ACMClient, arn: string, names: readonly string[], bound: Duration) {
  const deadline = ctx.clock.now() + bound;
  let delay = 1000;
  for (;;) {
    const detail = await describe(ctx, client, arn, { retryNotFound: true });
    if (recordsPublished(detail, names)) return { detail, ready: true };
    const left = deadline - ctx.clock.now();
    if (left <= 0) return { detail, ready: false };
    // Sleeping is not calling: the slot of --parallel serves another call meanwhile (say, the validation
    // record of a certificate whose records are already published).
    const pause = ctx.clock.sleep(milliseconds(Math.min(delay, left)), ctx.signal);
    await (ctx.pause ? ctx.pause(pause) : pause);
    delay = Math.min(delay * 2, 5000);
  }
}

// ---------------------------------------------------------------------------------------------------------
// Checks

const LABEL = /^[a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?$/;

/** Why `name` is not a valid certificate name, or `undefined` when it is. */
function nameProblem(raw: unknown): string | undefined {
  if (typeof raw !== "string" || raw.trim() === "") return "must be a non-empty domain name";
  const name = normalizeDomain(raw);
  if (name.length > 253) return `"${raw}" is longer than 253 characters`;
  if (/[^\x00-\x7f]/.test(name)) return `"${raw}" has non-ASCII characters: write internationalised names in punycode (xn--…)`;
  const labels = name.split(".");
  if (labels.length < 2) return `"${raw}" is not a fully qualified domain name (e.g. "app.example.dev")`;
  for (const [i, label] of labels.entries()) {
    if (label === "*" && i === 0) continue;
    if (label.includes("*")) return `"${raw}": a wildcard is only allowed as the whole first label (e.g. "*.example.dev")`;
    if (!LABEL.test(label)) return `"${raw}": label "${label}" must be 1–63 letters, digits or hyphens, not starting or ending with a hyphen`;
  }
  return undefined;
}

const METHODS = ["DNS", "EMAIL"];

function check(inputs: CertificateInputs): Diagnostic[] {
  const d: Diagnostic[] = [];
  const error = (attribute: string, message: string) => d.push({ severity: "error", attribute, summary: message });
  const domainProblem = nameProblem(inputs.domainName);
  if (domainProblem) error("domainName", domainProblem);
  else if (normalizeDomain(inputs.domainName).length > 64) {
    // ACM puts the first name in the certificate's subject (CN), which X.509 limits to 64 characters.
    error("domainName", `"${inputs.domainName}" is longer than 64 characters, ACM's limit for the first name: use a shorter domainName and list this one in subjectAlternativeNames`);
  }
  const sans = inputs.subjectAlternativeNames;
  if (sans !== undefined && !Array.isArray(sans)) error("subjectAlternativeNames", "must be a list of domain names");
  else {
    for (const [i, san] of (sans ?? []).entries()) {
      const p = nameProblem(san);
      if (p) error("subjectAlternativeNames", `[${i}] ${p}`);
    }
    if (!domainProblem && !d.length) {
      const count = allNames(inputs).length;
      if (count > 100) error("subjectAlternativeNames", `the certificate has ${count} names; ACM allows at most 100`);
      else if (count > 10) {
        d.push({ severity: "warning", attribute: "subjectAlternativeNames", summary: `the certificate has ${count} names; ACM's default quota is 10 per certificate (raise "Domain names per ACM certificate" in Service Quotas first)` });
      }
    }
  }
  if (inputs.validationMethod !== undefined && !METHODS.includes(inputs.validationMethod)) {
    error("validationMethod", `must be "DNS" or "EMAIL" (got ${JSON.stringify(inputs.validationMethod)})`);
  }
  const algorithms: string[] = Object.values(KeyAlgorithm);
  if (inputs.keyAlgorithm !== undefined && !algorithms.includes(inputs.keyAlgorithm)) {
    error("keyAlgorithm", `must be one of ${algorithms.join(", ")} (got ${JSON.stringify(inputs.keyAlgorithm)})`);
  }
  if (inputs.tags && Object.hasOwn(inputs.tags, URN_TAG)) error("tags", `"${URN_TAG}" is reserved: Cairn sets it to the resource's URN`);
  return d;
}

// ---------------------------------------------------------------------------------------------------------
// Operations

async function create(urn: Urn, inputs: CertificateInputs, ctx: OpContext): Promise<{ id: string; outputs: CertificateOutputs }> {
  const client = acmClient(ctx);
  const names = allNames(inputs);
  const method: Method = inputs.validationMethod ?? "DNS";
  const tags: Tag[] = [...Object.entries(tagsOf(inputs.tags)).map(([Key, Value]) => ({ Key, Value })), { Key: URN_TAG, Value: urnTagValue(urn) }];
  // ACM's DomainName pattern refuses a trailing dot (which check accepts): send the names normalised.
  const sans = names.slice(1);
  const requested = await awsCall(ctx, "ACM", "RequestCertificate", (abortSignal) =>
    client.send(
      new RequestCertificateCommand({
        DomainName: names[0],
        ...(sans.length ? { SubjectAlternativeNames: sans } : {}),
        ValidationMethod: method,
        ...(inputs.keyAlgorithm ? { KeyAlgorithm: inputs.keyAlgorithm } : {}),
        IdempotencyToken: idempotencyToken(urn, inputs),
        Tags: tags,
      }),
      { abortSignal },
    ),
    { hint },
  );
  const arn = requested.CertificateArn;
  if (!arn) throw new Error("ACM RequestCertificate returned no certificate ARN");

  // From here on the certificate exists: any failure must hand its ARN to the engine (IncompleteCreateError).
  const fallback: Partial<CertificateOutputs> = {
    arn,
    domainName: normalizeDomain(inputs.domainName),
    subjectAlternativeNames: names,
    validationMethod: method,
    status: "PENDING_VALIDATION",
  };
  const userTags = tagsOf(inputs.tags);
  if (Object.keys(userTags).length) fallback.tags = userTags;
  const partial = (): CertificateOutputs => defined({ ...fallback, domainValidationOptions: [], inUseBy: [] }) as CertificateOutputs;
  // RequestCertificate applied exactly these tags with the certificate: no ListTagsForCertificate to learn them.
  const sentTags = Object.fromEntries(tags.map((t) => [t.Key, t.Value ?? ""]));
  try {
    if (method !== "DNS") {
      const detail = await describe(ctx, client, arn, { retryNotFound: true });
      return { id: arn, outputs: toOutputs(detail, sentTags, fallback) };
    }
    const bound = milliseconds(Math.min(RECORDS_TIMEOUT, ctx.timeout ?? RECORDS_TIMEOUT));
    const { detail, ready } = await waitForRecords(ctx, client, arn, names, bound);
    if (!ready) {
      throw new IncompleteCreateError(
        arn,
        { ...toOutputs(detail, undefined, fallback) },
        new Error(
          `ACM had not published the DNS validation records of ${names.join(", ")} after ${formatDuration(bound)}; the certificate exists, the next plan replaces it (or raise customTimeouts.create)`,
        ),
      );
    }
    return { id: arn, outputs: toOutputs(detail, sentTags, fallback) };
  } catch (e) {
    if (e instanceof IncompleteCreateError) throw e;
    const cause = e instanceof Error ? e : new Error(String(e));
    throw new IncompleteCreateError(arn, { ...partial() }, cause);
  }
}

/**
 * Tags to remove and to add so the certificate carries `news` (the URN tag is never touched).
 *
 * @example tagChanges({ a: "1", b: "2" }, { a: "1", b: "3", c: "4" }) // { remove: [], add: { b: "3", c: "4" } }
 */
export function tagChanges(current: Record<string, string>, news: Record<string, string>): { remove: string[]; add: Record<string, string> } {
  const cur = tagsOf(current);
  const want = tagsOf(news);
  const remove = Object.keys(cur).filter((k) => !Object.hasOwn(want, k));
  const add = Object.fromEntries(Object.entries(want).filter(([k, v]) => cur[k] !== v));
  return { remove, add };
}

async function update(id: string, olds: CertificateInputs, news: CertificateInputs, outputs: CertificateOutputs, ctx: OpContext): Promise<CertificateOutputs> {
  const client = acmClient(ctx);
  // What is there: the last read (which notices drift) plus what the old inputs asked for.
  const { remove, add } = tagChanges({ ...tagsOf(olds.tags), ...tagsOf(outputs.tags) }, news.tags ?? {});
  if (remove.length) {
    await awsCall(ctx, "ACM", "RemoveTagsFromCertificate", (abortSignal) =>
      client.send(new RemoveTagsFromCertificateCommand({ CertificateArn: id, Tags: remove.map((Key) => ({ Key })) }), { abortSignal }), { hint });
  }
  const added = Object.entries(add);
  if (added.length) {
    await awsCall(ctx, "ACM", "AddTagsToCertificate", (abortSignal) =>
      client.send(new AddTagsToCertificateCommand({ CertificateArn: id, Tags: added.map(([Key, Value]) => ({ Key, Value })) }), { abortSignal }), { hint });
  }
  let detail: CertificateDetail;
  try {
    detail = await describe(ctx, client, id);
  } catch (e) {
    if (isNotFound(e)) throw new Error(`ACM certificate ${id} no longer exists (deleted outside Cairn?): refresh, and the next plan creates it again`);
    throw e;
  }
  // The tags are what this update just made them (the others removed, the rest added): no ListTagsForCertificate.
  return toOutputs(detail, tagsOf(news.tags), outputs);
}

async function remove(id: string, ctx: OpContext): Promise<void> {
  const client = acmClient(ctx);
  try {
    await awsCall(ctx, "ACM", "DeleteCertificate", (abortSignal) => client.send(new DeleteCertificateCommand({ CertificateArn: id }), { abortSignal }), {
      hint: (e) => (awsCode(e) === "ResourceInUseException" ? undefined : hint(e)),
      // A load balancer or distribution being changed in the same run may release it within minutes:
      // up to 20 attempts with backoff capped at 20 s is about 2–5 minutes.
      retryAlso: (e) => awsCode(e) === "ResourceInUseException",
      maxAttempts: 20,
      baseMs: 2000,
      capMs: 20_000,
    });
  } catch (e) {
    if (isNotFound(e)) return;
    if (awsCode(e) !== "ResourceInUseException") throw e;
    let users: string[] = [];
    try {
      users = (await describe({ ...ctx, signal: new AbortController().signal }, client, id)).InUseBy ?? [];
    } catch {
      // Best effort: the explanation below still says what to do.
    }
    const list = users.length ? `:\n  ${users.join("\n  ")}\n` : " (ACM did not say by what). ";
    throw new Error(
      `ACM certificate ${id} cannot be deleted: it is still in use${list}Remove it from those resources first (the load balancer's HTTPS listener, the CloudFront distribution, the API Gateway domain…), or make them depend on it in the program so they change first, then run again. (ACM DeleteCertificate failed: ResourceInUseException)`,
      { cause: e },
    );
  }
}

// ---------------------------------------------------------------------------------------------------------
// readMany

const ALL_KEY_TYPES = Object.values(KeyAlgorithm);

/** The certificates of the account and region in `statuses`, one ListCertificates pass (paginated). */
async function listAll(ctx: OpContext, client: ACMClient, statuses: readonly string[]): Promise<Map<string, CertificateSummary>> {
  const found = new Map<string, CertificateSummary>();
  let token: string | undefined;
  do {
    const page = await awsCall(ctx, "ACM", "ListCertificates", (abortSignal) =>
      // Without keyTypes ListCertificates only returns RSA_2048 certificates.
      client.send(
        new ListCertificatesCommand({
          CertificateStatuses: [...statuses] as CertificateStatus[],
          Includes: { keyTypes: ALL_KEY_TYPES },
          MaxItems: 1000,
          ...(token ? { NextToken: token } : {}),
        }),
        { abortSignal },
      ), { hint });
    for (const s of page.CertificateSummaryList ?? []) if (s.CertificateArn) found.set(s.CertificateArn, s);
    token = page.NextToken;
  } while (token);
  return found;
}

/**
 * An ISSUED certificate's outputs from its list summary merged with its last outputs. Once issued, every
 * domain is validated and no failure reason applies, so the attributes waits use are exactly what `read`
 * would return; names, validation records and tags do not change without a replace or an update.
 */
function fromSummary(s: CertificateSummary, prior: CertificateOutputs): CertificateOutputs {
  const out: CertificateOutputs = {
    ...prior,
    status: "ISSUED" as Status,
    domainValidationOptions: (prior.domainValidationOptions ?? []).map((o) => ({ ...o, validationStatus: "SUCCESS" as NonNullable<CertificateDomainValidationOption["validationStatus"]> })),
    inUseBy: s.InUse === false ? [] : (prior.inUseBy ?? []),
  };
  delete out.failureReason;
  const algorithm = algorithmOf(s.KeyAlgorithm);
  if (algorithm) out.keyAlgorithm = algorithm;
  if (s.NotBefore) out.notBefore = new Date(s.NotBefore).toISOString();
  if (s.NotAfter) out.notAfter = new Date(s.NotAfter).toISOString();
  return out;
}

/** Runs `f` over `items` with at most `limit` at a time (ACM allows about 10 DescribeCertificate a second). */
async function eachLimited<T>(items: readonly T[], limit: number, f: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await f(items[next++]!);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * What one ListCertificates round says of a wait's target: its status did not change (the last outputs
 * still hold), it is ISSUED (its summary answers), or anything else (it must be described: gone, not listed
 * yet, or a status whose failure reason and validation options a wait reports).
 */
function listedState(s: CertificateSummary | undefined, prior: CertificateOutputs): "unchanged" | "issued" | "describe" {
  if (!s) return "describe";
  const inUseAgrees = s.InUse === undefined || s.InUse === (prior.inUseBy ?? []).length > 0;
  if (s.Status === "ISSUED") return inUseAgrees ? "issued" : "describe";
  return s.Status === prior.status ? "unchanged" : "describe";
}

async function readMany(targets: { id: string; outputs: CertificateOutputs }[], ctx: OpContext): Promise<Map<string, CertificateOutputs | undefined>> {
  const client = acmClient(ctx);
  const result = new Map<string, CertificateOutputs | undefined>();
  // One ListCertificates per round, filtered to the statuses the targets were in plus ISSUED (where waits
  // usually end), so an account's other certificates (expired, inactive) are not paged through. A target
  // still in the status it had costs no call: waits only look at what its status implies, and nothing
  // else of a pending certificate changes without a status change. ISSUED is answered from the summary;
  // only a target whose status moved elsewhere (FAILED, VALIDATION_TIMED_OUT…), or that is missing from
  // the list, is described. Tags are kept from the last outputs (waits never look at them).
  const statuses = [...new Set(["ISSUED", ...targets.map((t) => t.outputs.status).filter((x): x is Status => typeof x === "string")])].sort();
  const summaries = await listAll(ctx, client, statuses);
  const toDescribe: { id: string; outputs: CertificateOutputs }[] = [];
  for (const t of targets) {
    const s = summaries.get(t.id);
    const state = listedState(s, t.outputs);
    if (state === "unchanged") result.set(t.id, t.outputs);
    else if (state === "issued") result.set(t.id, fromSummary(s!, t.outputs));
    else toDescribe.push(t);
  }
  await eachLimited(toDescribe, 4, async (t) => {
    try {
      result.set(t.id, toOutputs(await describe(ctx, client, t.id), undefined, t.outputs));
    } catch (e) {
      if (!isNotFound(e)) throw e;
      result.set(t.id, undefined);
    }
  });
  return result;
}

// ---------------------------------------------------------------------------------------------------------
// diff

function diff(olds: CertificateInputs, news: CertificateInputs, outputs: CertificateOutputs | undefined): Diff {
  const replaceKeys: string[] = [];
  if (normalizeDomain(olds.domainName) !== normalizeDomain(news.domainName)) replaceKeys.push("domainName");
  if (sansKey(olds) !== sansKey(news)) replaceKeys.push("subjectAlternativeNames");
  if ((olds.validationMethod ?? "DNS") !== (news.validationMethod ?? "DNS")) replaceKeys.push("validationMethod");
  // RSA_2048 is ACM's default: leaving it out and naming it are the same certificate.
  if ((olds.keyAlgorithm ?? "RSA_2048") !== (news.keyAlgorithm ?? "RSA_2048")) replaceKeys.push("keyAlgorithm");
  const want = tagsOf(news.tags);
  // Compare with the last read too, so tags changed outside Cairn are put back.
  const tagsChanged = !sameTags(tagsOf(olds.tags), want) || (outputs !== undefined && !sameTags(tagsOf(outputs.tags), want));
  if (replaceKeys.length) return { kind: "replace", changed: tagsChanged ? [...replaceKeys, "tags"] : replaceKeys, replaceKeys };
  if (tagsChanged) return { kind: "update", changed: ["tags"], stables: ["arn", "domainName"] };
  return { kind: "same" };
}

/**
 * The ACM certificate provider (AWS SDK v3). `create` requests the certificate (idempotent per URN and request, tagged
 * `cairn:urn`) and, for DNS validation, waits (bounded) until ACM publishes every validation record; the id
 * is the ARN. Names are compared normalised, so case, a trailing dot or SAN order never cause a diff; only
 * tags change in place.
 *
 * @example
 * const { id, outputs } = await certificateProvider.create({ urn, inputs: { domainName: "app.example.dev" }, ctx });
 * outputs.domainValidationOptions[0]?.resourceRecord // { name: "_x.app.example.dev", type: "CNAME", value: "_y.acm-validations.aws" }
 */
/**
 * What a certificate about to be requested will have: one validation option per domain (ACM lists each,
 * a wildcard with its apex's record), whose records are not known until ACM answers.
 *
 * @example plannedOptions({ domainName: "a.example.dev", subjectAlternativeNames: ["b.example.dev"] }) // two options, records UNKNOWN
 */
export function plannedOptions(inputs: CertificateInputs): Pick<Record<keyof CertificateOutputs, unknown>, "domainValidationOptions"> {
  const domains = [...new Set([inputs.domainName, ...(inputs.subjectAlternativeNames ?? [])].map(normalizeDomain))];
  return { domainValidationOptions: domains.map((domainName) => ({ domainName, validationStatus: UNKNOWN, resourceRecord: UNKNOWN })) };
}

export const certificateProvider: Provider<CertificateInputs, CertificateOutputs> = {
  permissions: (op) => CERTIFICATE_PERMISSIONS[op],
  check: ({ inputs }) => check(inputs),
  planOutputs: ({ inputs }) => plannedOptions(inputs),
  diff: ({ olds, news, outputs }) => diff(olds, news, outputs),
  create: ({ urn, inputs, ctx }) => create(urn, inputs, ctx),
  read: ({ id, outputs, ctx }) => readOne(ctx, acmClient(ctx), id, outputs ?? {}),
  readMany: ({ targets, ctx }) => readMany(targets, ctx),
  update: ({ id, olds, news, outputs, ctx }) => update(id, olds, news, outputs, ctx),
  delete: ({ id, ctx }) => remove(id, ctx),
};
