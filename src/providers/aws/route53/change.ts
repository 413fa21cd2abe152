import { ChangeResourceRecordSetsCommand, GetChangeCommand, type Change, type Route53Client } from "@aws-sdk/client-route-53";
import type { OpContext } from "../../../provider/provider.js";
import { formatDuration, milliseconds, minutes, seconds } from "../../../core/duration.js";
import { awsCall } from "../call.js";
import { normalizeChangeId, normalizeZoneId } from "./names.js";

/**
 * Everything an error says: its message plus the `Messages` list Route 53 puts on `InvalidChangeBatch`
 * (where the real reason often is), looking through an `AwsError` to its SDK cause.
 *
 * @example errorText(new InvalidChangeBatch({ message: "", messages: ["… but it already exists"], $metadata: {} })) // "… but it already exists"
 */
export function errorText(e: unknown): string {
  const parts: string[] = [];
  for (let x: unknown = e, depth = 0; x && typeof x === "object" && depth < 3; x = (x as { cause?: unknown }).cause, depth++) {
    const err = x as { message?: unknown; messages?: unknown };
    if (typeof err.message === "string" && err.message) parts.push(err.message);
    if (Array.isArray(err.messages)) for (const m of err.messages) if (typeof m === "string") parts.push(m);
  }
  return parts.join("; ");
}

/**
 * The outcome of {@link submitChanges}.
 *
 * @example const { changeId, status }: SubmittedChange = await submitChanges(ctx, client, zoneId, changes); // "C2682N5HXP0BZ4", "PENDING"
 */
export interface SubmittedChange {
  /** The change id, without the `/change/` prefix. */
  changeId: string;
  /** `PENDING` until Route 53's servers all have it, then `INSYNC`. */
  status: string;
}

/**
 * Sends one `ChangeResourceRecordSets` batch (retrying throttling and `PriorRequestNotComplete`).
 * `hint` explains operation-specific errors; otherwise Route 53's own `Messages` are shown.
 *
 * @example
 * const { changeId } = await submitChanges(ctx, client, "Z123", [{ Action: "UPSERT", ResourceRecordSet: rrset }]);
 */
export async function submitChanges(
  ctx: Pick<OpContext, "clock" | "signal">,
  client: Route53Client,
  zoneId: string,
  changes: Change[],
  hint?: (e: unknown) => string | undefined,
): Promise<SubmittedChange> {
  const out = await awsCall(
    ctx,
    "Route 53",
    "ChangeResourceRecordSets",
    (abortSignal) => client.send(new ChangeResourceRecordSetsCommand({ HostedZoneId: normalizeZoneId(zoneId), ChangeBatch: { Changes: changes } }), { abortSignal }),
    { hint: (e) => hint?.(e) ?? batchMessages(e) },
  );
  return { changeId: normalizeChangeId(out.ChangeInfo?.Id ?? ""), status: out.ChangeInfo?.Status ?? "PENDING" };
}

/**
 * Route 53's `Messages` of a refused batch when the error's message does not already say them: the SDK may
 * leave `message` empty and put the reason there, so show it (once).
 *
 * @example batchMessages(new InvalidChangeBatch({ message: "", messages: ["… already exists"], $metadata: {} })) // "… already exists"
 */
export function batchMessages(e: unknown): string | undefined {
  const list = (e as { messages?: unknown }).messages;
  if (!Array.isArray(list) || !list.length) return undefined;
  const text = list.join("; ");
  return e instanceof Error && e.message.includes(text) ? undefined : text;
}

// Syncs in progress per client (a configuration: account, region, endpoint) and change id: a change id
// names a change of one account only, and an emulator per test may hand out the same ids to two runs.
const syncing = new WeakMap<Route53Client, Map<string, Promise<string>>>();

/**
 * {@link waitForSync} shared by every record of one request: the records a batched change carried poll one
 * `GetChange` per round between them, not one each. The first caller's context (clock, cancellation, log)
 * drives the polling; the answer is the same for all.
 *
 * @example const status = await waitForSyncShared(ctx, client, changeId, "www.example.dev A"); // "INSYNC"
 */
export function waitForSyncShared(ctx: Pick<OpContext, "clock" | "signal" | "log" | "timeout">, client: Route53Client, changeId: string, what: string): Promise<string> {
  let mine = syncing.get(client);
  if (!mine) syncing.set(client, (mine = new Map()));
  const inFlight = mine;
  let p = inFlight.get(changeId);
  if (!p) {
    p = waitForSync(ctx, client, changeId, what).finally(() => inFlight.delete(changeId));
    inFlight.set(changeId, p);
  }
  return p;
}

/**
 * How long {@link waitForSync} waits at most when the operation has no smaller timeout.
 *
 * @example Duration.format(DEFAULT_SYNC_BOUND) // "10m0s"
 */
export const DEFAULT_SYNC_BOUND = minutes(10);

/**
 * Waits until Route 53 reports a change `INSYNC`: polls `GetChange` every 2 s, growing ×1.5 up to 15 s,
 * for at most 10 minutes (or `ctx.timeout` if smaller), on `ctx.clock`. It never fails the operation:
 * the change is already accepted and Route 53 applies it eventually, so when the bound passes, the
 * operation is cancelled or `GetChange` keeps failing, it logs a warning and returns the last status.
 *
 * @example
 * const status = await waitForSync(ctx, client, changeId, "www.example.dev A"); // "INSYNC"
 */
export async function waitForSync(
  ctx: Pick<OpContext, "clock" | "signal" | "log" | "timeout">,
  client: Route53Client,
  changeId: string,
  what: string,
): Promise<string> {
  const bound = Math.min(DEFAULT_SYNC_BOUND, ctx.timeout ?? DEFAULT_SYNC_BOUND);
  const deadline = ctx.clock.now() + bound;
  let delay: number = seconds(2);
  const stillPending = (why: string) =>
    ctx.log.warn(`Route 53 change ${changeId} for ${what} was submitted but is still PENDING ${why}; Route 53 applies it eventually (usually within a few minutes).`);
  for (;;) {
    const remaining = deadline - ctx.clock.now();
    if (remaining <= 0) {
      stillPending(`after ${formatDuration(bound)}`);
      return "PENDING";
    }
    try {
      await ctx.clock.sleep(milliseconds(Math.min(delay, remaining)), ctx.signal);
      const out = await awsCall(ctx, "Route 53", "GetChange", (abortSignal) => client.send(new GetChangeCommand({ Id: changeId }), { abortSignal }));
      if (out.ChangeInfo?.Status === "INSYNC") return "INSYNC";
    } catch (e) {
      // Failing here would lose track of a record that exists: report and let the operation succeed.
      stillPending(ctx.signal.aborted ? "(stopped waiting: the operation was cancelled)" : `(could not check it: ${e instanceof Error ? e.message : String(e)})`);
      return "PENDING";
    }
    delay = Math.min(delay * 1.5, seconds(15));
  }
}
