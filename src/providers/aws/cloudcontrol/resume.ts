/**
 * Resuming a Cloud Control operation an earlier run started and never saw finish (kill -9, a lost
 * connection): the request token it noted says which request to follow; it is polled to its end like any
 * other, and the outcome recorded — no second create, no orphan.
 */
import type { OpContext, ResumeResult } from "../../../provider/provider.js";
import { awsCode } from "../call.js";
import type { CloudControl } from "./client.js";
import { getModel, outputsOf } from "./read.js";
import { isFinished, pollerFor } from "./requests.js";
import type { TypeInfo } from "./type-spec.js";

/** What {@link resumeRequest} is asked about. */
export interface ResumeArgs {
  urn: string;
  kind: "create" | "update" | "delete";
  id?: string;
  note: Readonly<Record<string, string>>;
  ctx: OpContext;
}

/** How long before an operation's start a request of it may be stamped (clock skew between here and AWS). */
const SKEW_MS = 5 * 60_000;

/** The object as it is now: `present` with its outputs, or `absent`. */
async function current(cc: CloudControl, info: TypeInfo, id: string | undefined, ctx: OpContext): Promise<ResumeResult> {
  if (id === undefined) return { kind: "absent" };
  const model = await getModel(cc, ctx, info, id);
  return model === undefined ? { kind: "absent" } : { kind: "present", outputs: await outputsOf(info, model, {}) };
}

/**
 * A create whose request token was never noted (the run died between sending it and hearing back): if
 * Cloud Control shows no create of this type since the operation began, none arrived; otherwise Cairn cannot
 * tell which is its own, and says so instead of guessing.
 */
async function unconfirmedCreate(cc: CloudControl, info: TypeInfo, args: ResumeArgs, since: number): Promise<ResumeResult> {
  const out = await cc.listRequests(args.ctx, { MaxResults: 100, ResourceRequestStatusFilter: { Operations: ["CREATE"] } });
  const candidates = (out.ResourceRequestStatusSummaries ?? []).filter((e) => e.TypeName === info.cfnType && (e.EventTime?.getTime() ?? 0) >= since - SKEW_MS);
  if (candidates.length === 0) return { kind: "absent" };
  const list = candidates.map((e) => `${e.Identifier ?? "(no identifier yet)"} (request ${e.RequestToken}, ${e.OperationStatus})`).join("; ");
  return {
    kind: "unknown",
    message:
      `the run stopped right after sending a create of a ${info.cfnType} (client token ${args.note.clientToken}), before AWS's answer was saved, and Cloud Control shows ${candidates.length} create(s) of that type since then: ${list}. ` +
      `Find out which is this resource's (if any). Then run again with --forget-interrupted ${args.urn}, and adopt the object with the resource's import option (import: "<identifier>"), or delete it by hand.`,
  };
}

/**
 * How an interrupted operation ended, following the request it noted.
 *
 * @example const found = await resumeRequest(cc, info, { kind: "create", note: { clientToken, requestToken }, ctx }, Date.parse(since));
 */
export async function resumeRequest(cc: CloudControl, info: TypeInfo, args: ResumeArgs, since: number): Promise<ResumeResult> {
  const token = args.note.requestToken;
  if (token === undefined) return args.kind === "create" ? unconfirmedCreate(cc, info, args, since) : current(cc, info, args.id, args.ctx);
  let event;
  try {
    event = (await cc.status(args.ctx, token)).ProgressEvent;
  } catch (e) {
    // Requests are kept for 7 days: an older one can only be judged by the object itself.
    if (awsCode(e) === "RequestTokenNotFoundException") return current(cc, info, args.id, args.ctx);
    throw e;
  }
  if (!event) return current(cc, info, args.id, args.ctx);
  if (!isFinished(event)) {
    args.ctx.log.info(`resuming: waiting for Cloud Control request ${token} (${event.Operation?.toLowerCase()} of ${info.cfnType}, ${event.OperationStatus})`);
    event = await pollerFor(cc, args.ctx.clock).wait(args.ctx, event);
  }
  const id = event.Identifier ?? args.id;
  if (args.kind === "create") {
    if (event.OperationStatus !== "SUCCESS" || id === undefined) return { kind: "absent" };
    const model = await getModel(cc, args.ctx, info, id);
    return model === undefined ? { kind: "absent" } : { kind: "created", id, outputs: await outputsOf(info, model, {}) };
  }
  return current(cc, info, id, args.ctx);
}
