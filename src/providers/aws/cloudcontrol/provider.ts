/**
 * The one provider behind every generated AWS type: create, update and delete as Cloud Control requests
 * (waited for together, see requests.ts), reads through `GetResource`, and the type's specification for
 * checks, diffs and patches. Nothing here is specific to a type.
 */
import { createHash } from "node:crypto";
import type { ProgressEvent } from "@aws-sdk/client-cloudcontrol";
import type { Diff, OpContext, Provider } from "../../../provider/provider.js";
import { IncompleteCreateError } from "../../../core/errors.js";
import type { Urn } from "../../../core/urn.js";
import { cloudControl, type CloudControl } from "./client.js";
import { toCloud } from "./convert.js";
import { checkInputs } from "./check.js";
import { planChange, updatePatch } from "./diff.js";
import { RequestFailed } from "./errors.js";
import { getModel, isNotFound, listedModels, outputsOf } from "./read.js";
import { pollerFor } from "./requests.js";
import { resumeRequest } from "./resume.js";
import type { TypeInfo } from "./type-spec.js";

type Props = Record<string, unknown>;

/** Reads at once in a `readMany` (a wait round over many objects of one type). */
const READ_CONCURRENCY = 8;

/**
 * The `ClientToken` of a create: the same for a retry of the same request (so Cloud Control answers with the
 * first request instead of creating twice), different for every other create. ≤ 64 characters, `[-A-Za-z0-9]`.
 */
function clientToken(urn: Urn, desired: string, ctx: OpContext): string {
  const seed = `${urn}\n${desired}\n${ctx.operation?.id ?? `${Date.now()}-${Math.random()}`}`;
  return `cairn-${createHash("sha256").update(seed).digest("hex").slice(0, 40)}`;
}

/** Sends a request and waits for it to finish; a FAILED request becomes a {@link RequestFailed}. */
async function run(cc: CloudControl, ctx: OpContext, info: TypeInfo, op: "create" | "update" | "delete", send: () => Promise<ProgressEvent>): Promise<ProgressEvent> {
  const started = await send();
  if (started.RequestToken) await ctx.operation?.note({ requestToken: started.RequestToken });
  if (started.OperationStatus !== "SUCCESS") ctx.log.info(`Cloud Control ${op} request ${started.RequestToken ?? ""} ${started.OperationStatus?.toLowerCase() ?? "sent"}`);
  const finished = pollerFor(cc, ctx.clock).wait(ctx, started);
  // Waiting is not calling: the slot of --parallel serves other calls meanwhile.
  const done = await (ctx.pause ? ctx.pause(finished) : finished);
  if (done.OperationStatus !== "SUCCESS") throw new RequestFailed(op, info.cfnType, done);
  return done;
}

/** Reads the object after a request that changed it: outputs as the cloud now has them. */
async function readBack(cc: CloudControl, ctx: OpContext, info: TypeInfo, id: string, inputs: Props): Promise<Props | undefined> {
  const model = await getModel(cc, ctx, info, id);
  return model === undefined ? undefined : await outputsOf(info, model, inputs);
}

/** The provider of a Cloud Control type: every optional method of the contract is there. */
export type CloudControlProvider = Provider<Props, Props> & Required<Pick<Provider<Props, Props>, "check" | "diff" | "update" | "readMany" | "resume">>;

/**
 * The provider of one Cloud Control type.
 *
 * @example const provider = cloudControlProvider(decodeTypeSpec("AWS::SQS::Queue", "aws:sqs:Queue", data));
 */
export function cloudControlProvider(info: TypeInfo): CloudControlProvider {
  return {
    checksUnknown: true,
    check: ({ inputs }) => checkInputs(info, inputs),

    async diff({ olds, news }): Promise<Diff> {
      const { changed, replaceKeys, cause, deleteFirst } = await planChange(info, olds, news);
      if (changed.length === 0) return { kind: "same" };
      if (replaceKeys.length) return { kind: "replace", changed, replaceKeys, ...(cause ? { cause } : {}), ...(deleteFirst ? { deleteBeforeReplace: true } : {}) };
      return { kind: "update", changed };
    },

    async create({ urn, inputs, ctx }) {
      const cc = await cloudControl(ctx);
      const desired = JSON.stringify(toCloud(info, inputs));
      const token = clientToken(urn, desired, ctx);
      await ctx.operation?.note({ clientToken: token, since: String(Date.now()) });
      const done = await run(cc, ctx, info, "create", () => cc.create(ctx, { TypeName: info.cfnType, DesiredState: desired, ClientToken: token }));
      const id = done.Identifier;
      if (!id) throw new Error(`Cloud Control created a ${info.cfnType} but did not say its identifier (request ${done.RequestToken}): find it in the console and adopt it with the import option.`);
      try {
        const outputs = await readBack(cc, ctx, info, id, inputs);
        if (outputs === undefined) throw new Error(`the new object ${id} could not be read back (GetResource said it does not exist)`);
        return { id, outputs };
      } catch (e) {
        // The object exists: record it (tainted, so the next run replaces or repairs it) rather than lose it.
        throw new IncompleteCreateError(id, { ...inputs }, e instanceof Error ? e : new Error(String(e)));
      }
    },

    async read({ id, inputs, ctx }) {
      return readBack(await cloudControl(ctx), ctx, info, id, inputs);
    },

    async readMany({ targets, ctx }) {
      const cc = await cloudControl(ctx);
      const found = targets.length > 1 ? await listedModels(cc, ctx, info, targets) : new Map<string, Props | undefined>();
      const rest = targets.filter((t) => !found.has(t.id));
      for (let i = 0; i < rest.length; i += READ_CONCURRENCY) {
        const batch = rest.slice(i, i + READ_CONCURRENCY);
        const read = await Promise.all(batch.map((t) => readBack(cc, ctx, info, t.id, t.inputs)));
        batch.forEach((t, j) => found.set(t.id, read[j]));
      }
      return found;
    },

    async update({ id, olds, news, ctx }) {
      const cc = await cloudControl(ctx);
      const patch = await updatePatch(info, olds, news);
      if (patch.length) await run(cc, ctx, info, "update", () => cc.update(ctx, { TypeName: info.cfnType, Identifier: id, PatchDocument: JSON.stringify(patch) }));
      const outputs = await readBack(cc, ctx, info, id, news);
      if (outputs === undefined) throw new Error(`${info.cfnType} "${id}" no longer exists after its update: run refresh, then up to create it again.`);
      return outputs;
    },

    async resume({ urn, kind, id, note, ctx }) {
      return resumeRequest(await cloudControl(ctx), info, { urn, kind, note, ctx, ...(id !== undefined ? { id } : {}) }, Number(note.since ?? 0));
    },

    async delete({ id, ctx }) {
      const cc = await cloudControl(ctx);
      try {
        await run(cc, ctx, info, "delete", () => cc.delete(ctx, { TypeName: info.cfnType, Identifier: id }));
      } catch (e) {
        // Deleting something already gone succeeds.
        if (isNotFound(e) || (e instanceof RequestFailed && e.event.ErrorCode === "NotFound")) return;
        throw e;
      }
    },
  };
}
