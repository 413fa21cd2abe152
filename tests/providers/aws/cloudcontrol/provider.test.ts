import { beforeEach, describe, expect, it } from "vitest";
import { mockClient } from "aws-sdk-client-mock";
import {
  CloudControlClient,
  CreateResourceCommand,
  DeleteResourceCommand,
  GetResourceCommand,
  GetResourceRequestStatusCommand,
  InvalidRequestException,
  ListResourceRequestsCommand,
  ResourceNotFoundException,
  ThrottlingException,
  UnsupportedActionException,
  UpdateResourceCommand,
  type ProgressEvent,
} from "@aws-sdk/client-cloudcontrol";
import type { Urn } from "../../../../src/core/urn.js";
import { cloudControlProvider } from "../../../../src/providers/aws/cloudcontrol/provider.js";
import { knownType } from "../../../../src/providers/aws/cloudcontrol/types.js";
import type { TypeInfo } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";
import "../../../../src/providers/aws/services/sqs.js";
import "../../../../src/providers/aws/services/rds.js";
import { testCtx } from "../ctx.js";
import { FakeClock } from "../../../../src/testing/fake-clock.js";
import { Provider as AwsProvider } from "../../../../src/providers/aws/provider.js";

const cc = mockClient(CloudControlClient);
const URN = "urn:cairn:dev::app::aws:sqs:Queue::jobs" as Urn;
const QUEUE = knownType("AWS::SQS::Queue")!;
const DB = knownType("AWS::RDS::DBInstance")!;
const URL = "https://sqs.us-east-1.amazonaws.com/123456789012/jobs";

/** An OpContext whose journal notes are kept, like the engine's. */
function ctxWithNotes() {
  const notes: Record<string, string>[] = [];
  const ctx = testCtx({ operation: { id: "op-1", note: async (d) => void notes.push({ ...d }) } });
  return { ctx, notes };
}

const event = (e: Partial<ProgressEvent>): ProgressEvent => ({ TypeName: "AWS::SQS::Queue", Operation: "CREATE", ...e });
const provider = (info: TypeInfo) => cloudControlProvider(info);

beforeEach(() => {
  cc.reset();
});

describe("the Cloud Control provider: requests, polling and results", () => {
  it("creates with the desired state in CloudFormation names and a client token noted before the call, then the request token", async () => {
    cc.on(CreateResourceCommand).resolves({ ProgressEvent: event({ RequestToken: "r1", OperationStatus: "IN_PROGRESS" }) });
    cc.on(ListResourceRequestsCommand).resolvesOnce({ ResourceRequestStatusSummaries: [event({ RequestToken: "r1", OperationStatus: "IN_PROGRESS" })] }).resolves({ ResourceRequestStatusSummaries: [event({ RequestToken: "r1", OperationStatus: "SUCCESS", Identifier: URL })] });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Identifier: URL, Properties: JSON.stringify({ QueueName: "jobs", VisibilityTimeout: 30, QueueUrl: URL, Arn: "arn:aws:sqs:us-east-1:123456789012:jobs" }) } });
    const { ctx, notes } = ctxWithNotes();
    const out = await provider(QUEUE).create({ urn: URN, inputs: { queueName: "jobs", visibilityTimeout: 30 }, ctx });
    expect(out).toEqual({ id: URL, outputs: { queueName: "jobs", visibilityTimeout: 30, queueUrl: URL, arn: "arn:aws:sqs:us-east-1:123456789012:jobs" } });
    const sent = cc.commandCalls(CreateResourceCommand)[0]!.args[0].input;
    expect(JSON.parse(sent.DesiredState!)).toEqual({ QueueName: "jobs", VisibilityTimeout: 30 });
    expect(sent.ClientToken).toMatch(/^cairn-[0-9a-f]{40}$/);
    expect(notes).toEqual([{ clientToken: sent.ClientToken, since: expect.any(String) }, { requestToken: "r1" }]);
    expect(cc.commandCalls(GetResourceRequestStatusCommand)).toHaveLength(0);
  });

  it("the same operation sends the same client token again (a retried create returns the first request), another operation another one", async () => {
    cc.on(CreateResourceCommand).resolves({ ProgressEvent: event({ RequestToken: "r1", OperationStatus: "SUCCESS", Identifier: URL }) });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueName: "jobs" }) } });
    const inputs = { queueName: "jobs" };
    await provider(QUEUE).create({ urn: URN, inputs, ctx: ctxWithNotes().ctx });
    await provider(QUEUE).create({ urn: URN, inputs, ctx: ctxWithNotes().ctx });
    await provider(QUEUE).create({ urn: URN, inputs, ctx: testCtx({ operation: { id: "op-2", note: async () => {} } }) });
    const tokens = cc.commandCalls(CreateResourceCommand).map((c) => c.args[0].input.ClientToken);
    expect(tokens[0]).toBe(tokens[1]);
    expect(tokens[2]).not.toBe(tokens[0]);
  });

  it("waits for many requests with one ListResourceRequests call per round, not one status call each", async () => {
    const n = 12;
    let round = 0;
    cc.on(CreateResourceCommand).callsFake((input: { ClientToken: string }) => ({ ProgressEvent: event({ RequestToken: `t-${input.ClientToken}`, OperationStatus: "PENDING" }) }));
    const tokens: string[] = [];
    cc.on(ListResourceRequestsCommand).callsFake(() => {
      round++;
      // Each round, a few more finish.
      return { ResourceRequestStatusSummaries: tokens.map((t, i) => event({ RequestToken: t, Identifier: `q${i}`, OperationStatus: i < round * 4 ? "SUCCESS" : "IN_PROGRESS" })) };
    });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: "{}" } });
    const clock = new FakeClock({ auto: true }); // one run: one clock
    const creates = Array.from({ length: n }, (_, i) => {
      const ctx = testCtx({ clock, operation: { id: `op-${i}`, note: async (d) => void (d.requestToken && tokens.push(d.requestToken)) } });
      return provider(QUEUE).create({ urn: `${URN}${i}` as Urn, inputs: { queueName: `q${i}` }, ctx });
    });
    await Promise.all(creates);
    expect(cc.commandCalls(CreateResourceCommand)).toHaveLength(n);
    expect(cc.commandCalls(ListResourceRequestsCommand)).toHaveLength(3);
    expect(cc.commandCalls(GetResourceRequestStatusCommand)).toHaveLength(0);
  });

  it("a FAILED request fails with the type, Cloud Control's code and message, and what to do; it is not retried", async () => {
    cc.on(CreateResourceCommand).resolves({ ProgressEvent: event({ RequestToken: "r1", OperationStatus: "IN_PROGRESS" }) });
    cc.on(ListResourceRequestsCommand).resolves({ ResourceRequestStatusSummaries: [event({ RequestToken: "r1", OperationStatus: "FAILED", ErrorCode: "AlreadyExists", StatusMessage: "Queue jobs already exists" })] });
    const err = await provider(QUEUE).create({ urn: URN, inputs: { queueName: "jobs" }, ctx: ctxWithNotes().ctx }).catch((e: Error) => e);
    expect(String(err)).toMatch(/Cloud Control create of AWS::SQS::Queue failed \(AlreadyExists, request r1\): Queue jobs already exists\. What to do: an object with this identifier already exists/);
    expect(cc.commandCalls(CreateResourceCommand)).toHaveLength(1);
  });

  it("retries throttling, but not AccessDenied, InvalidRequest or an unsupported type — and says so", async () => {
    cc.on(CreateResourceCommand).rejectsOnce(new ThrottlingException({ message: "Rate exceeded", $metadata: {} })).resolves({ ProgressEvent: event({ RequestToken: "r1", OperationStatus: "SUCCESS", Identifier: URL }) });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: "{}" } });
    await provider(QUEUE).create({ urn: URN, inputs: {}, ctx: ctxWithNotes().ctx });
    expect(cc.commandCalls(CreateResourceCommand)).toHaveLength(2);

    for (const [e, text] of [
      [Object.assign(new Error("not allowed"), { name: "AccessDeniedException", $metadata: { httpStatusCode: 403 } }), /AccessDeniedException: not allowed\. The credentials in use were refused or lack permission/],
      [new InvalidRequestException({ message: "bad", $metadata: {} }), /InvalidRequestException: bad\. Cloud Control refused the request as invalid: .*Not retried/],
      [new UnsupportedActionException({ message: "no CREATE", $metadata: {} }), /does not support this operation through the Cloud Control API .*Not retried/],
    ] as const) {
      cc.reset();
      cc.on(CreateResourceCommand).rejects(e);
      const err = await provider(QUEUE).create({ urn: URN, inputs: {}, ctx: ctxWithNotes().ctx }).catch((x: Error) => x);
      expect(String(err)).toMatch(text);
      expect(cc.commandCalls(CreateResourceCommand)).toHaveLength(1);
    }
  });

  it("updates with a JSON Patch of the changed paths only; NotUpdatable says how to replace", async () => {
    cc.on(UpdateResourceCommand).resolves({ ProgressEvent: event({ Operation: "UPDATE", RequestToken: "u1", OperationStatus: "SUCCESS", Identifier: URL }) });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueName: "jobs", VisibilityTimeout: 60, DelaySeconds: 5 }) } });
    const out = await provider(QUEUE).update({ urn: URN, id: URL, olds: { queueName: "jobs", visibilityTimeout: 30, delaySeconds: 5 }, news: { queueName: "jobs", visibilityTimeout: 60, delaySeconds: 5 }, outputs: {}, ctx: ctxWithNotes().ctx });
    expect(out.visibilityTimeout).toBe(60);
    expect(JSON.parse(cc.commandCalls(UpdateResourceCommand)[0]!.args[0].input.PatchDocument!)).toEqual([{ op: "replace", path: "/VisibilityTimeout", value: 60 }]);

    cc.reset();
    cc.on(UpdateResourceCommand).resolves({ ProgressEvent: event({ Operation: "UPDATE", RequestToken: "u2", OperationStatus: "FAILED", ErrorCode: "NotUpdatable", StatusMessage: "cannot update" }) });
    const err = await provider(QUEUE).update({ urn: URN, id: URL, olds: { delaySeconds: 1 }, news: { delaySeconds: 2 }, outputs: {}, ctx: ctxWithNotes().ctx }).catch((e: Error) => e);
    expect(String(err)).toMatch(/NotUpdatable.*replaceOnChanges option, or run up with --replace/);
  });

  it("deleting something already gone succeeds; a delete refused while in use fails naming the conflict", async () => {
    cc.on(DeleteResourceCommand).rejects(new ResourceNotFoundException({ message: "gone", $metadata: {} }));
    await provider(QUEUE).delete({ urn: URN, id: URL, inputs: {}, outputs: {}, ctx: ctxWithNotes().ctx });
    cc.reset();
    cc.on(DeleteResourceCommand).resolves({ ProgressEvent: event({ Operation: "DELETE", RequestToken: "d1", OperationStatus: "IN_PROGRESS" }) });
    cc.on(ListResourceRequestsCommand).resolves({ ResourceRequestStatusSummaries: [event({ Operation: "DELETE", RequestToken: "d1", OperationStatus: "FAILED", ErrorCode: "ResourceConflict", StatusMessage: "in use by a subscription" })] });
    const err = await provider(QUEUE).delete({ urn: URN, id: URL, inputs: {}, outputs: {}, ctx: ctxWithNotes().ctx }).catch((e: Error) => e);
    expect(String(err)).toMatch(/delete of AWS::SQS::Queue failed \(ResourceConflict, request d1\): in use by a subscription\. What to do: another object still uses it/);
  });

  it("reads keep write-only values as last applied and leave out keys of objects the program did not set", async () => {
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ DBInstanceIdentifier: "db", MasterUsername: "app", Endpoint: { Address: "db.x", Port: "5432" }, DBInstanceStatus: "available", MasterUserSecret: { SecretArn: "arn:s", KmsKeyId: "k" } }) } });
    const read = await provider(DB).read({ urn: URN, id: "db", inputs: { dbInstanceIdentifier: "db", masterUserPassword: "pw", masterUserSecret: { secretArn: "arn:s" } }, outputs: {}, ctx: ctxWithNotes().ctx });
    expect(read).toEqual({ dbInstanceIdentifier: "db", masterUsername: "app", endpoint: { address: "db.x", port: "5432" }, dbInstanceStatus: "available", masterUserSecret: { secretArn: "arn:s" }, masterUserPassword: "pw" });
    cc.reset();
    cc.on(GetResourceCommand).rejects(new ResourceNotFoundException({ message: "nope", $metadata: {} }));
    expect(await provider(DB).read({ urn: URN, id: "db", inputs: {}, outputs: {}, ctx: ctxWithNotes().ctx })).toBeUndefined();
  });
});

describe("resuming an interrupted Cloud Control operation", () => {
  it("follows the noted request to its end: a create that finished is adopted; one that failed left nothing", async () => {
    cc.on(GetResourceRequestStatusCommand).resolves({ ProgressEvent: event({ RequestToken: "r1", OperationStatus: "IN_PROGRESS" }) });
    cc.on(ListResourceRequestsCommand).resolves({ ResourceRequestStatusSummaries: [event({ RequestToken: "r1", OperationStatus: "SUCCESS", Identifier: URL })] });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueName: "jobs", QueueUrl: URL }) } });
    const { ctx } = ctxWithNotes();
    expect(await provider(QUEUE).resume!({ urn: URN, kind: "create", note: { clientToken: "c", requestToken: "r1" }, ctx })).toEqual({ kind: "created", id: URL, outputs: { queueName: "jobs", queueUrl: URL } });
    expect(cc.commandCalls(CreateResourceCommand)).toHaveLength(0);

    cc.reset();
    cc.on(GetResourceRequestStatusCommand).resolves({ ProgressEvent: event({ RequestToken: "r2", OperationStatus: "FAILED", ErrorCode: "InvalidRequest" }) });
    expect(await provider(QUEUE).resume!({ urn: URN, kind: "create", note: { requestToken: "r2" }, ctx })).toEqual({ kind: "absent" });
  });

  it("a create whose request token was never noted: absent when no create of the type arrived since, else unknown naming the candidates", async () => {
    const since = Date.parse("2026-11-25T10:00:00Z");
    const note = { clientToken: "cairn-abc", since: String(since) };
    cc.on(ListResourceRequestsCommand).resolves({ ResourceRequestStatusSummaries: [event({ RequestToken: "old", OperationStatus: "SUCCESS", EventTime: new Date(since - 3_600_000) })] });
    expect(await provider(QUEUE).resume!({ urn: URN, kind: "create", note, ctx: ctxWithNotes().ctx })).toEqual({ kind: "absent" });
    cc.reset();
    cc.on(ListResourceRequestsCommand).resolves({ ResourceRequestStatusSummaries: [event({ RequestToken: "new", Identifier: URL, OperationStatus: "SUCCESS", EventTime: new Date(since + 1000) })] });
    const found = await provider(QUEUE).resume!({ urn: URN, kind: "create", note, ctx: ctxWithNotes().ctx });
    expect(found).toMatchObject({ kind: "unknown", message: expect.stringContaining(`${URL} (request new, SUCCESS)`) });
  });
});

describe("checks against the specification, before anything is created", () => {
  it("names the property path and the expected type; unknown values are skipped; a value outside the registry's enum is an error", () => {
    const check = (inputs: Record<string, unknown>, info = QUEUE) => provider(info).check!({ urn: URN, inputs }) as { severity: string; attribute?: string; summary: string }[];
    expect(check({ queueName: "q", visibilityTimout: 3 })).toEqual([{ severity: "error", attribute: "visibilityTimout", summary: 'AWS::SQS::Queue has no property "visibilityTimout" (did you mean "visibilityTimeout"?)' }]);
    expect(check({ visibilityTimeout: "30" })).toEqual([{ severity: "error", attribute: "visibilityTimeout", summary: 'expected an integer, got string "30"' }]);
    expect(check({ arn: "x" })[0]?.summary).toMatch(/"arn" is an attribute the cloud sets: it cannot be given as an input/);
    expect(check({ redrivePolicy: { deadLetterTargetArn: "x" } })).toEqual([]);
    const policy = knownType("AWS::SQS::QueueInlinePolicy")!;
    expect(check({}, policy).map((d) => d.summary)).toEqual(['required property "policyDocument" is missing (expected a JSON object)', 'required property "queue" is missing (expected a string)']);
    expect(check({ processorFeatures: [{ name: "cores" }] }, DB)).toEqual([{ severity: "error", attribute: "processorFeatures[0].name", summary: expect.stringMatching(/^must be one of "coreCount", "threadsPerCore"/) }]);
  });
});

describe("polling when the credentials may not list requests", () => {
  it("two runs with other credentials in one region each poll their own requests with their own client", async () => {
    // GIVEN a cloud where a request token is visible only to the client (account) that made it
    const owner = new Map<string, unknown>();
    let n = 0;
    cc.on(CreateResourceCommand).callsFake((_input, client) => {
      const token = `t${++n}`;
      owner.set(token, client());
      return { ProgressEvent: event({ RequestToken: token, OperationStatus: "IN_PROGRESS" }) };
    });
    const mine = (token: string | undefined, client: () => unknown) => token !== undefined && owner.get(token) === client();
    cc.on(ListResourceRequestsCommand).callsFake((_input, client) => ({
      ResourceRequestStatusSummaries: [...owner.keys()].filter((t) => mine(t, client)).map((t) => event({ RequestToken: t, OperationStatus: "SUCCESS", Identifier: `q-${t}` })),
    }));
    cc.on(GetResourceRequestStatusCommand).callsFake((input: { RequestToken?: string }, client) => {
      if (!mine(input.RequestToken, client)) throw Object.assign(new Error("no such request"), { name: "RequestTokenNotFoundException", $metadata: { httpStatusCode: 400 } });
      return { ProgressEvent: event({ RequestToken: input.RequestToken, OperationStatus: "SUCCESS", Identifier: `q-${input.RequestToken}` }) };
    });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueName: "jobs" }) } });
    const account = (name: string) => new AwsProvider(name, { region: "us-east-1", credentials: { accessKeyId: name, secretAccessKey: name } });

    // WHEN two runs on one clock create at the same time, one per account (only the credentials differ)
    const clock = new FakeClock({ auto: true });
    const create = (who: string) => provider(QUEUE).create({ urn: `${URN}-${who}` as Urn, inputs: { queueName: who }, ctx: testCtx({ clock, provider: account(`side-${who}`) }) });
    const [a, b] = await Promise.all([create("a"), create("b")]);

    // THEN each finished, polled by its own client
    expect([a.id, b.id]).toEqual(["q-t1", "q-t2"]);
  });

  it("falls back to one status call per request instead of failing the create", async () => {
    cc.on(CreateResourceCommand).resolves({ ProgressEvent: event({ RequestToken: "r9", OperationStatus: "IN_PROGRESS" }) });
    cc.on(ListResourceRequestsCommand).rejects(Object.assign(new Error("not authorized to perform cloudformation:ListResourceRequests"), { name: "AccessDeniedException", $metadata: { httpStatusCode: 400 } }));
    cc.on(GetResourceRequestStatusCommand).resolves({ ProgressEvent: event({ RequestToken: "r9", OperationStatus: "SUCCESS", Identifier: URL }) });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueName: "jobs" }) } });
    const { ctx } = ctxWithNotes();
    // A poller of its own: the shared one of another test's configuration must not have learnt it already.
    const out = await provider(QUEUE).create({ urn: URN, inputs: { queueName: "jobs" }, ctx: { ...ctx, provider: { package: "aws", name: "denied", settings: { region: "eu-north-1" } } } });
    expect(out.id).toBe(URL);
    expect(cc.commandCalls(GetResourceRequestStatusCommand).length).toBeGreaterThanOrEqual(1);
  });
});

describe("readMany (the reads of many waits on one type)", () => {
  it("uses the list when it carries whole models, and remembers a type whose list gives identifiers only", async () => {
    const { ListResourcesCommand } = await import("@aws-sdk/client-cloudcontrol");
    const targets = ["a", "b", "c"].map((id) => ({ urn: URN, id, inputs: {}, outputs: {} }));
    cc.on(ListResourcesCommand).resolves({ ResourceDescriptions: targets.map((t) => ({ Identifier: t.id, Properties: JSON.stringify({ DBInstanceIdentifier: t.id, DBInstanceStatus: "available" }) })) });
    const found = await provider(DB).readMany({ targets, ctx: ctxWithNotes().ctx });
    expect([...found.values()].map((o) => o?.dbInstanceStatus)).toEqual(["available", "available", "available"]);
    expect(cc.commandCalls(GetResourceCommand)).toHaveLength(0);

    cc.reset();
    cc.on(ListResourcesCommand).resolves({ ResourceDescriptions: [{ Identifier: URL, Properties: JSON.stringify({ QueueUrl: URL }) }] });
    cc.on(GetResourceCommand).resolves({ ResourceDescription: { Properties: JSON.stringify({ QueueUrl: URL, QueueName: "q" }) } });
    const queues = [URL, `${URL}2`].map((id) => ({ urn: URN, id, inputs: {}, outputs: {} }));
    await provider(QUEUE).readMany({ targets: queues, ctx: ctxWithNotes().ctx });
    await provider(QUEUE).readMany({ targets: queues, ctx: ctxWithNotes().ctx });
    expect(cc.commandCalls(ListResourcesCommand)).toHaveLength(1);
    expect(cc.commandCalls(GetResourceCommand)).toHaveLength(4);
  });
});
