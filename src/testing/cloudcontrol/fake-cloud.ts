/**
 * A strict fake of the Cloud Control API that behaves as AWS does, driven by the same data Cairn's types
 * come from (the specification and the CloudFormation registry's facts and schemas): requests that finish
 * after a few polls (or a latency), reads that fill in server defaults, apply the registry's normalisations,
 * re-order tag lists, policy documents and unordered arrays, and never return write-only properties;
 * read-modify-write updates that refuse create-only paths and report the write-only values a patch lost;
 * types and actions Cloud Control cannot serve refused; schema-invalid models refused; identifiers and ARNs
 * made up; deletes refused while another object still references the object; throttling; and status
 * attributes that move on as objects are read. Its contents and call log are plain data to assert on.
 */
import type { Operation } from "fast-json-patch";
import { registrySchema } from "../../providers/aws/cloudcontrol/registry-schema.js";
import { loadType } from "../../providers/aws/cloudcontrol/types.js";
import { FLAG, type TypeInfo } from "../../providers/aws/cloudcontrol/type-spec.js";
import { FakeApiError, type FakeFailure } from "./fake-errors.js";
import { DEFAULT_TRACKS, FAKE_REGION, fullModel, hexOf, identifierOf, setPath, validate, type StatusTrack } from "./fake-model.js";
import { readView } from "./fake-read.js";
import { desiredPart, lostWriteOnly, patchedModel, touchedPaths } from "./fake-update.js";
import { schemaProblems } from "./fake-validate.js";

/** The Cloud Control actions, as named in `UnsupportedActionException` messages. */
export type FakeAction = "CREATE" | "READ" | "UPDATE" | "DELETE" | "LIST";

/** A write-only value an `UpdateResource` dropped because its patch did not re-send it. */
export interface LostWriteOnly {
  typeName: string;
  identifier: string;
  /** CloudFormation path, `/`-joined, array indexes for elements: `Code/ZipFile`. */
  path: string;
}


/** How the fake behaves. */
export interface FakeCloudControlOptions {
  /** Status reports (list or status calls) a request answers before it finishes (default 2); 0: it has finished when first answered. */
  pollsToFinish?: number;
  /**
   * How long each request takes (ms on `clock`), besides its status reports: the bench's realistic latencies.
   * `model`: the desired state of a create, the merged model of an update. Default 0.
   */
  latency?: (op: "CREATE" | "UPDATE" | "DELETE", typeName: string, model: Record<string, unknown> | undefined) => number;
  /** The time `latency` is measured on (default: real time), e.g. a `FakeClock`. */
  clock?: {
    /** The current time in ms. */
    now(): number;
  };
  /**
   * The registry schema of a type, to validate models as Cloud Control validates them and fill its defaults
   * on reads (default: the registry schemas Cairn ships, `registrySchema`). Where it gives none, the type's
   * specification is checked instead.
   */
  schemaOf?: (typeName: string) => object | undefined;
  /** Refuse every n-th API call with a ThrottlingException (default: never). */
  throttleEvery?: number;
  /** The region in ARNs (default us-east-1). */
  region?: string;
  /** Types the fake answers as not supported by Cloud Control (UnsupportedActionException). */
  unsupported?: readonly string[];
  /** Status attributes that move on as objects are read, by type (default: RDS instances and EC2 instances). */
  tracks?: Readonly<Record<string, StatusTrack>>;
  /** Makes chosen requests FAIL: return the failure, or undefined to let the request run. */
  failWith?: (op: "CREATE" | "UPDATE" | "DELETE", typeName: string, desired: Record<string, unknown> | undefined) => FakeFailure | undefined;
}

/** One object the fake holds: its type, identifier and full model (write-only properties included), as the service holds it: what a read returns is derived from it. */
export interface FakeObject {
  typeName: string;
  identifier: string;
  properties: Record<string, unknown>;
}

/** One API call the fake answered (or refused), for assertions on what Cairn asked. */
export interface FakeCall {
  operation: string;
  typeName?: string;
  identifier?: string;
  /** For UpdateResource: the JSON Patch as sent. */
  patch?: Operation[];
  /** Set when the call was refused: the exception's name. */
  error?: string;
}

interface Request {
  token: string;
  clientToken?: string;
  desiredText?: string;
  op: "CREATE" | "UPDATE" | "DELETE";
  typeName: string;
  identifier?: string;
  status: "IN_PROGRESS" | "SUCCESS" | "FAILED";
  reports: number;
  eventTime: number;
  failure?: FakeFailure;
  startedAt: number;
  latency: number;
  /** Runs when the request finishes: its change to the cloud, or why it fails then. */
  finish: () => FakeFailure | undefined;
}

const key = (typeName: string, id: string) => `${typeName}|${id}`;

/**
 * The fake cloud. Serve it over HTTP with {@link serveFakeCloudControl} and point the AWS SDK at it.
 *
 * @example
 * const cloud = new FakeCloudControl({ pollsToFinish: 2 });
 * // … run a program against it …
 * expect(cloud.objects("AWS::SQS::Queue")).toHaveLength(1);
 */
export class FakeCloudControl {
  readonly calls: FakeCall[] = [];
  /** Write-only values that accepted updates dropped (their patches did not re-send them), in order. */
  readonly lostWriteOnly: LostWriteOnly[] = [];
  /** While true, requests stay IN_PROGRESS however often they are polled (to crash a run mid-request). */
  paused = false;
  private readonly store = new Map<string, FakeObject>();
  private readonly requests: Request[] = [];
  private readonly byClientToken = new Map<string, Request>();
  private readonly reads = new Map<string, number>();
  /** Top-level properties the fake made up for each object (identifiers, attributes): the service's own values. */
  private readonly madeUp = new Map<string, Set<string>>();
  private callCount = 0;
  private seq = 0;
  private readonly opts: Required<Pick<FakeCloudControlOptions, "pollsToFinish" | "region">> & FakeCloudControlOptions;

  constructor(options: FakeCloudControlOptions = {}) {
    this.opts = { pollsToFinish: 2, region: FAKE_REGION, ...options };
  }

  /** The objects the fake holds (of one type, if given), in creation order. */
  objects(typeName?: string): FakeObject[] {
    return [...this.store.values()].filter((o) => typeName === undefined || o.typeName === typeName).map((o) => ({ ...o, properties: structuredClone(o.properties) }));
  }

  /** Forgets every object and request (for tests or a sweep that share one fake between cases). @example cloud.clear() */
  clear(): void {
    this.store.clear();
    this.requests.length = 0;
    this.byClientToken.clear();
    this.reads.clear();
    this.madeUp.clear();
  }

  /** How many calls of each operation the fake answered. @example cloud.count("CreateResource") // 6 */
  count(operation: string): number {
    return this.calls.filter((c) => c.operation === operation).length;
  }

  /** Changes an object behind Cairn's back (drift), as someone in the console would. */
  tamper(typeName: string, identifier: string, change: (properties: Record<string, unknown>) => void): void {
    const o = this.store.get(key(typeName, identifier));
    if (!o) throw new Error(`the fake holds no ${typeName} ${identifier}`);
    change(o.properties);
  }

  /** Answers one API call (the operation name without its `CloudApiService.` prefix). */
  async handle(operation: string, input: Record<string, unknown>): Promise<unknown> {
    const call: FakeCall = { operation };
    if (typeof input.TypeName === "string") call.typeName = input.TypeName;
    if (typeof input.Identifier === "string") call.identifier = input.Identifier;
    this.calls.push(call);
    try {
      if (this.opts.throttleEvery && ++this.callCount % this.opts.throttleEvery === 0) throw new FakeApiError("ThrottlingException", "Rate exceeded");
      return await this.dispatch(operation, input, call);
    } catch (e) {
      if (e instanceof FakeApiError) call.error = e.name;
      throw e;
    }
  }

  private dispatch(operation: string, input: Record<string, unknown>, call: FakeCall): Promise<unknown> | unknown {
    switch (operation) {
      case "CreateResource":
        return this.create(input);
      case "UpdateResource":
        return this.update(input, call);
      case "DeleteResource":
        return this.remove(input);
      case "GetResource":
        return this.get(input);
      case "GetResourceRequestStatus":
        return { ProgressEvent: this.report(this.requestOf(String(input.RequestToken))) };
      case "ListResourceRequests":
        return this.listRequests(input);
      case "ListResources":
        return this.list(input);
      default:
        throw new FakeApiError("UnknownOperationException", `The fake Cloud Control does not implement ${operation}`);
    }
  }

  /**
   * The type, when Cloud Control serves `action` on it. A type the registry gives no handler for the action
   * (no create handler: not provisionable) is refused with UnsupportedActionException, as Cloud Control
   * refuses it ("Resource type AWS::IAM::Policy does not support CREATE action").
   */
  private async typeOf(name: unknown, action: FakeAction): Promise<TypeInfo> {
    if (typeof name !== "string") throw new FakeApiError("ValidationException", "TypeName is required");
    const info = await loadType(name);
    if (!info) throw new FakeApiError("TypeNotFoundException", `The type ${name} cannot be found`);
    const h = info.registry.handlers;
    const served = { CREATE: h.create, READ: h.read, UPDATE: h.update, DELETE: h.delete, LIST: h.list }[action];
    if (this.opts.unsupported?.includes(name) || !info.registry.provisionable || !served) throw new FakeApiError("UnsupportedActionException", `Resource type ${name} does not support ${action} action`);
    return info;
  }

  private schemaOf(info: TypeInfo): Record<string, unknown> | undefined {
    return (this.opts.schemaOf ?? registrySchema)(info.cfnType) as Record<string, unknown> | undefined;
  }

  /** Problems Cloud Control's schema check finds in a model, or undefined. */
  private problems(info: TypeInfo, model: Record<string, unknown>): FakeFailure | undefined {
    const schema = this.schemaOf(info);
    if (!schema) return validate(info, model);
    const text = schemaProblems(schema, model);
    return text === undefined ? undefined : { code: "InvalidRequest", message: `Model validation failed (${text})` };
  }

  private now(): number {
    return this.opts.clock?.now() ?? Date.now();
  }

  private newRequest(r: Omit<Request, "token" | "status" | "reports" | "eventTime" | "startedAt" | "latency">, model?: Record<string, unknown>): Request {
    const latency = this.opts.latency?.(r.op, r.typeName, model) ?? 0;
    const req: Request = { ...r, token: `req-${hexOf(`${++this.seq}`, 8)}-${this.seq}`, status: "IN_PROGRESS", reports: 0, eventTime: Date.now() / 1000, startedAt: this.now(), latency };
    this.requests.push(req);
    if (this.opts.pollsToFinish === 0) this.settle(req);
    return req;
  }

  private async create(input: Record<string, unknown>): Promise<unknown> {
    const info = await this.typeOf(input.TypeName, "CREATE");
    const desiredText = String(input.DesiredState ?? "");
    const clientToken = typeof input.ClientToken === "string" ? input.ClientToken : undefined;
    const prior = clientToken ? this.byClientToken.get(clientToken) : undefined;
    if (prior) {
      if (prior.desiredText !== desiredText) throw new FakeApiError("ClientTokenConflictException", `Client token ${clientToken} was already used with a different request`);
      return { ProgressEvent: this.event(prior) };
    }
    let desired: Record<string, unknown>;
    try {
      desired = JSON.parse(desiredText) as Record<string, unknown>;
    } catch {
      throw new FakeApiError("InvalidRequestException", "DesiredState is not valid JSON");
    }
    const model = fullModel(info, desired, `${info.cfnType}/${clientToken ?? this.seq}`, this.opts.region, this.trackOf(info.cfnType));
    const identifier = identifierOf(info, model);
    const failure = this.problems(info, desired) ?? this.opts.failWith?.("CREATE", info.cfnType, desired);
    const req = this.newRequest({
      op: "CREATE",
      typeName: info.cfnType,
      identifier,
      desiredText,
      ...(clientToken ? { clientToken } : {}),
      ...(failure ? { failure } : {}),
      finish: () => {
        if (this.store.has(key(info.cfnType, identifier))) return { code: "AlreadyExists", message: `${info.cfnType} ${identifier} already exists` };
        this.store.set(key(info.cfnType, identifier), { typeName: info.cfnType, identifier, properties: model });
        this.madeUp.set(key(info.cfnType, identifier), new Set(Object.keys(model).filter((k) => desired[k] === undefined)));
        return undefined;
      },
    }, desired);
    if (clientToken) this.byClientToken.set(clientToken, req);
    return { ProgressEvent: this.event(req) };
  }

  /**
   * Read-modify-write: the patch is applied to the model as a read returns it. A patch touching a create-only
   * path is refused (NotUpdatableException), and a model the schema refuses is refused at once
   * (ValidationException "Model validation failed (…)", as Cloud Control answers an update whose merged model
   * lacks a required key: aws-cloudformation/cloudformation-coverage-roadmap#2205).
   */
  private async update(input: Record<string, unknown>, call: FakeCall): Promise<unknown> {
    const info = await this.typeOf(input.TypeName, "UPDATE");
    const id = String(input.Identifier ?? "");
    const obj = this.store.get(key(info.cfnType, id));
    if (!obj) throw new FakeApiError("ResourceNotFoundException", `${info.cfnType} with identifier ${id} was not found`);
    let patch: Operation[];
    try {
      patch = JSON.parse(String(input.PatchDocument)) as Operation[];
    } catch {
      throw new FakeApiError("ValidationException", "PatchDocument is not valid JSON");
    }
    call.patch = patch;
    const { createOnly, readOnly } = touchedPaths(info, patch);
    if (createOnly.length) throw new FakeApiError("NotUpdatableException", `Invalid patch update: createOnlyProperties [${createOnly.join(", ")}] cannot be updated`);
    if (readOnly.length) throw new FakeApiError("InvalidRequestException", `Invalid patch update: readOnlyProperties [${readOnly.join(", ")}] cannot be updated`);
    let next: Record<string, unknown>;
    try {
      next = patchedModel(await readView(info, obj.properties, this.schemaOf(info)), patch);
    } catch (e) {
      throw new FakeApiError("ValidationException", `Invalid patch update: ${(e as Error).message.split("\n")[0]}`);
    }
    const invalid = this.problems(info, this.checkedPart(info, obj, next));
    if (invalid && this.schemaOf(info)) throw new FakeApiError("ValidationException", invalid.message);
    for (const path of lostWriteOnly(info, obj.properties, next)) this.lostWriteOnly.push({ typeName: info.cfnType, identifier: id, path });
    const failure = invalid ?? this.opts.failWith?.("UPDATE", info.cfnType, next);
    const req = this.newRequest({
      op: "UPDATE",
      typeName: info.cfnType,
      identifier: id,
      ...(failure ? { failure } : {}),
      finish: () => {
        const live = this.store.get(key(info.cfnType, id));
        if (!live) return { code: "NotFound", message: `${info.cfnType} ${id} was deleted during the update` };
        live.properties = next;
        return undefined;
      },
    }, next);
    return { ProgressEvent: this.event(req) };
  }

  /** What an update's merged model is validated as: without read-only attributes, nor values the fake made up that the patch left alone (the service's own, valid on AWS). */
  private checkedPart(info: TypeInfo, obj: FakeObject, next: Record<string, unknown>): Record<string, unknown> {
    const out = desiredPart(info, next);
    for (const k of this.madeUp.get(key(info.cfnType, obj.identifier)) ?? []) if (JSON.stringify(out[k]) === JSON.stringify(obj.properties[k])) delete out[k];
    return out;
  }

  private async remove(input: Record<string, unknown>): Promise<unknown> {
    const info = await this.typeOf(input.TypeName, "DELETE");
    const id = String(input.Identifier ?? "");
    const failure = this.opts.failWith?.("DELETE", info.cfnType, undefined);
    const req = this.newRequest({
      op: "DELETE",
      typeName: info.cfnType,
      identifier: id,
      ...(failure ? { failure } : {}),
      finish: () => {
        const obj = this.store.get(key(info.cfnType, id));
        if (!obj) return { code: "NotFound", message: `${info.cfnType} with identifier ${id} was not found` };
        const user = this.referrer(info, obj);
        if (user) return { code: "ResourceConflict", message: `${info.cfnType} ${id} is in use by ${user.typeName} ${user.identifier}` };
        this.store.delete(key(info.cfnType, id));
        this.madeUp.delete(key(info.cfnType, id));
        return undefined;
      },
    });
    return { ProgressEvent: this.event(req) };
  }

  /** Another object whose given properties (not the attributes the fake made up for it) mention this one's identifier or its own ARN (a read-only attribute, not an ARN it refers to). */
  private referrer(info: TypeInfo, obj: FakeObject): FakeObject | undefined {
    const names = new Set<string>([obj.identifier]);
    for (const [k, v] of Object.entries(obj.properties)) if (typeof v === "string" && /Arn$/.test(k) && (info.byCfn.get(k)?.flags ?? 0) & FLAG.readOnly) names.add(v);
    for (const other of this.store.values()) {
      if (other === obj) continue;
      const given = Object.fromEntries(Object.entries(other.properties).filter(([k]) => !this.madeUp.get(key(other.typeName, other.identifier))?.has(k)));
      if (mentions(given, names)) return other;
    }
    return undefined;
  }

  private async get(input: Record<string, unknown>): Promise<unknown> {
    const info = await this.typeOf(input.TypeName, "READ");
    const id = String(input.Identifier ?? "");
    const obj = this.store.get(key(info.cfnType, id));
    if (!obj) throw new FakeApiError("ResourceNotFoundException", `${info.cfnType} with identifier ${id} was not found`);
    this.advance(obj);
    return { TypeName: info.cfnType, ResourceDescription: { Identifier: id, Properties: JSON.stringify(await readView(info, obj.properties, this.schemaOf(info))) } };
  }

  private trackOf(typeName: string): StatusTrack | undefined {
    return this.opts.tracks?.[typeName] ?? DEFAULT_TRACKS[typeName];
  }

  /** Moves an object's status attribute on, one step per `readsPerStep` reads. */
  private advance(obj: FakeObject): void {
    const track = this.trackOf(obj.typeName);
    if (!track) return;
    const k = key(obj.typeName, obj.identifier);
    const n = (this.reads.get(k) ?? 0) + 1;
    this.reads.set(k, n);
    const step = Math.min(track.values.length - 1, Math.floor(n / track.readsPerStep));
    setPath(obj.properties, track.path, track.values[step]);
  }

  private listRequests(input: Record<string, unknown>): unknown {
    const filter = (input.ResourceRequestStatusFilter ?? {}) as { Operations?: string[]; OperationStatuses?: string[] };
    const max = Math.min(100, Number(input.MaxResults ?? 100));
    const start = Number(input.NextToken ?? 0);
    const all = [...this.requests].reverse().filter((r) => (!filter.Operations || filter.Operations.includes(r.op)) && (!filter.OperationStatuses || filter.OperationStatuses.includes(r.status)));
    const page = all.slice(start, start + max);
    const out: Record<string, unknown> = { ResourceRequestStatusSummaries: page.map((r) => this.report(r)) };
    if (start + max < all.length) out.NextToken = String(start + max);
    return out;
  }

  private async list(input: Record<string, unknown>): Promise<unknown> {
    const info = await this.typeOf(input.TypeName, "LIST");
    const live = [...this.store.values()].filter((o) => o.typeName === info.cfnType);
    for (const o of live) this.advance(o); // listing reads them: their status moves on as with GetResource
    const found = await Promise.all(live.map(async (o) => ({ Identifier: o.identifier, Properties: JSON.stringify(await readView(info, o.properties, this.schemaOf(info))) })));
    return { TypeName: info.cfnType, ResourceDescriptions: found };
  }

  private requestOf(token: string): Request {
    const r = this.requests.find((x) => x.token === token);
    if (!r) throw new FakeApiError("RequestTokenNotFoundException", `Request ${token} was not found`);
    return r;
  }

  /** The request as reported to a status call: each report moves a running request towards its end. */
  private report(r: Request): Record<string, unknown> {
    if (r.status === "IN_PROGRESS" && !this.paused) {
      r.reports++;
      this.settle(r);
    }
    return this.event(r);
  }

  /** Finishes a running request once it has answered enough reports and its latency has passed. */
  private settle(r: Request): void {
    if (r.status !== "IN_PROGRESS" || this.paused || r.reports < this.opts.pollsToFinish || this.now() - r.startedAt < r.latency) return;
    const failure = r.failure ?? r.finish();
    r.status = failure ? "FAILED" : "SUCCESS";
    if (failure) r.failure = failure;
    r.eventTime = Date.now() / 1000;
  }

  private event(r: Request): Record<string, unknown> {
    const e: Record<string, unknown> = { TypeName: r.typeName, RequestToken: r.token, Operation: r.op, OperationStatus: r.status, EventTime: r.eventTime };
    if (r.identifier) e.Identifier = r.identifier;
    if (r.failure && r.status === "FAILED") Object.assign(e, { ErrorCode: r.failure.code, StatusMessage: r.failure.message });
    return e;
  }
}

/** True when `v` holds, at any depth, one of the strings in `names`. */
function mentions(v: unknown, names: ReadonlySet<string>): boolean {
  if (typeof v === "string") return names.has(v);
  if (Array.isArray(v)) return v.some((x) => mentions(x, names));
  if (v !== null && typeof v === "object") return Object.values(v).some((x) => mentions(x, names));
  return false;
}
