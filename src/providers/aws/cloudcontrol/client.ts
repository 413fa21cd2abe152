/**
 * The Cloud Control API as the provider uses it: the seven operations, each one call through `awsCall`
 * (retried when transient, cancelled with the operation). The SDK loads on first use, so importing a
 * service module stays cheap.
 */
import type {
  CloudControlClient,
  CreateResourceInput,
  DeleteResourceInput,
  GetResourceInput,
  GetResourceOutput,
  GetResourceRequestStatusOutput,
  ListResourceRequestsInput,
  ListResourceRequestsOutput,
  ListResourcesInput,
  ListResourcesOutput,
  ProgressEvent,
  UpdateResourceInput,
} from "@aws-sdk/client-cloudcontrol";
import type { OpContext } from "../../../provider/provider.js";
import { awsCall } from "../call.js";
import { resolveProvider } from "../provider.js";
import { cachedClient, clientConfig } from "../client-cache.js";
import { cloudControlHint, retriedAlso } from "./errors.js";

type Sdk = typeof import("@aws-sdk/client-cloudcontrol");
let sdk: Promise<Sdk> | undefined;
const loadSdk = () => (sdk ??= import("@aws-sdk/client-cloudcontrol"));

/** The context a call needs: cancellation, the clock for retries, and the provider instance (where). */
export type CallContext = Pick<OpContext, "signal" | "clock" | "provider">;

/**
 * The Cloud Control operations for one provider configuration (region, endpoint, credentials).
 *
 * @example const cc = await cloudControl(ctx); const { ProgressEvent } = await cc.create(ctx, { TypeName, DesiredState });
 */
export interface CloudControl {
  create(ctx: CallContext, input: CreateResourceInput): Promise<ProgressEvent>;
  update(ctx: CallContext, input: UpdateResourceInput): Promise<ProgressEvent>;
  delete(ctx: CallContext, input: DeleteResourceInput): Promise<ProgressEvent>;
  get(ctx: CallContext, input: GetResourceInput): Promise<GetResourceOutput>;
  status(ctx: CallContext, requestToken: string): Promise<GetResourceRequestStatusOutput>;
  listRequests(ctx: CallContext, input: ListResourceRequestsInput): Promise<ListResourceRequestsOutput>;
  list(ctx: CallContext, input: ListResourcesInput): Promise<ListResourcesOutput>;
}

const apis = new WeakMap<CloudControlClient, CloudControl>();

/**
 * The Cloud Control API for an operation's provider instance (or the SDK's defaults: `AWS_REGION`,
 * `AWS_PROFILE`, `AWS_ENDPOINT_URL` or `AWS_ENDPOINT_URL_CLOUDCONTROL`).
 *
 * @example const cc = await cloudControl(ctx);
 */
export async function cloudControl(ctx: Pick<OpContext, "provider">): Promise<CloudControl> {
  const m = await loadSdk();
  const args = resolveProvider(ctx.provider);
  const client = cachedClient("cloudcontrol", args, () => new m.CloudControlClient(clientConfig(args)));
  let api = apis.get(client);
  if (!api) apis.set(client, (api = makeApi(m, client)));
  return api;
}

function makeApi(m: Sdk, client: CloudControlClient): CloudControl {
  const call = <T>(ctx: CallContext, op: string, send: (signal: AbortSignal) => Promise<T>) =>
    awsCall(ctx, "Cloud Control", op, send, { hint: cloudControlHint, retryAlso: retriedAlso });
  return {
    create: async (ctx, input) => (await call(ctx, "CreateResource", (s) => client.send(new m.CreateResourceCommand(input), { abortSignal: s }))).ProgressEvent!,
    update: async (ctx, input) => (await call(ctx, "UpdateResource", (s) => client.send(new m.UpdateResourceCommand(input), { abortSignal: s }))).ProgressEvent!,
    delete: async (ctx, input) => (await call(ctx, "DeleteResource", (s) => client.send(new m.DeleteResourceCommand(input), { abortSignal: s }))).ProgressEvent!,
    get: (ctx, input) => call(ctx, "GetResource", (s) => client.send(new m.GetResourceCommand(input), { abortSignal: s })),
    status: (ctx, RequestToken) => call(ctx, "GetResourceRequestStatus", (s) => client.send(new m.GetResourceRequestStatusCommand({ RequestToken }), { abortSignal: s })),
    listRequests: (ctx, input) => call(ctx, "ListResourceRequests", (s) => client.send(new m.ListResourceRequestsCommand(input), { abortSignal: s })),
    list: (ctx, input) => call(ctx, "ListResources", (s) => client.send(new m.ListResourcesCommand(input), { abortSignal: s })),
  };
}
