import { type Change, type Route53Client } from "@aws-sdk/client-route-53";
import type { OpContext } from "../../../provider/provider.js";
import { AwsError, awsCode } from "../call.js";
import { batchMessages, errorText, submitChanges, type SubmittedChange } from "./change.js";
import { normalizeZoneId } from "./names.js";

/**
 * What one `ChangeResourceRecordSets` request may carry: at most 1,000 changes, 1,000 `ResourceRecord`
 * elements and 32,000 characters of values, where an UPSERT's records and characters count twice.
 *
 * @example BATCH_LIMITS.valueChars // 32000
 */
export const BATCH_LIMITS = { changes: 1000, records: 1000, valueChars: 32_000 } as const;

/**
 * How a zone's changes gather into one request: it is sent once no change has joined for `quietMs` and
 * for `quietTurns` event-loop turns (so a process paused by a busy machine, whose clock ran on while
 * nothing could arrive, gives the waiting work a chance first), or `maxMs` after the first change. The
 * records of certificates created together arrive a few ms apart (tens, between waves of --parallel);
 * a Route 53 request takes ~100 ms and its change ~60 s to be INSYNC, so the wait costs little.
 *
 * @example BATCH_WINDOW.quietMs // 50
 */
export const BATCH_WINDOW = { quietMs: 50, quietTurns: 10, maxMs: 2000 } as const;

/** One record's change waiting for its zone's next request, and how to settle it. */
interface Entry {
  change: Change;
  ctx: Pick<OpContext, "clock" | "signal">;
  hint: ((e: unknown) => string | undefined) | undefined;
  resolve: (c: SubmittedChange) => void;
  reject: (e: unknown) => void;
}

/** What a change costs against {@link BATCH_LIMITS}. */
function cost(c: Change): { records: number; chars: number } {
  const twice = c.Action === "UPSERT" ? 2 : 1;
  const values = c.ResourceRecordSet?.ResourceRecords ?? [];
  return { records: Math.max(1, values.length) * twice, chars: values.reduce((n, r) => n + (r.Value?.length ?? 0), 0) * twice };
}

/** `name.|TYPE|set`: a batch may not touch one record set twice, so such a change waits for the next batch. */
const keyOf = (c: Change) => `${(c.ResourceRecordSet?.Name ?? "").toLowerCase().replace(/\.?$/, ".")}|${c.ResourceRecordSet?.Type ?? ""}|${c.ResourceRecordSet?.SetIdentifier ?? ""}`;

/**
 * Splits changes, in order, into requests within {@link BATCH_LIMITS}; a second change to one record set
 * starts a new request (Route 53 refuses a batch that touches a record set twice).
 *
 * @example splitBatches(entries).length // 1 for 50 validation records
 */
export function splitBatches<T extends { change: Change }>(items: readonly T[]): T[][] {
  const out: T[][] = [];
  let batch: T[] = [];
  let records = 0;
  let chars = 0;
  let keys = new Set<string>();
  for (const item of items) {
    const c = cost(item.change);
    const key = keyOf(item.change);
    const full = batch.length + 1 > BATCH_LIMITS.changes || records + c.records > BATCH_LIMITS.records || chars + c.chars > BATCH_LIMITS.valueChars || keys.has(key);
    if (batch.length && full) {
      out.push(batch);
      batch = [];
      records = chars = 0;
      keys = new Set();
    }
    batch.push(item);
    records += c.records;
    chars += c.chars;
    keys.add(key);
  }
  if (batch.length) out.push(batch);
  return out;
}

/**
 * The entries a refused batch's messages name (`[name='x.example.dev.', type='CNAME']`): Route 53 says which
 * change it refused, and a batch is all-or-nothing, so the others were not applied and can go again.
 */
function namedIn(e: unknown, entries: readonly Entry[]): Entry[] {
  const text = errorText(e).toLowerCase();
  const named = new Set<string>();
  for (const m of text.matchAll(/name='([^']+)',\s*type='([^']+)'/g)) named.add(`${m[1]!.replace(/\.?$/, ".")}|${m[2]!.toUpperCase()}`);
  return entries.filter((x) => named.has(keyOf(x.change).split("|").slice(0, 2).join("|")));
}

/** `CREATE www.example.dev. A`: a change as its record's error names it. */
const changeText = (c: Change) => `${c.Action ?? ""} ${c.ResourceRecordSet?.Name ?? ""} ${c.ResourceRecordSet?.Type ?? ""}`.trim();

/**
 * The error one record's change fails with: the request's error, explained for that record (its own hint,
 * else which change of how big a request it was, so a shared failure still names the record).
 */
function errorFor(entry: Entry, e: unknown, size: number): unknown {
  const cause = e instanceof AwsError ? e.cause : e;
  const shared = size > 1 ? `the request carried ${size} changes; this record's: ${changeText(entry.change)}` : undefined;
  const hint = [entry.hint?.(cause) ?? batchMessages(cause), shared].filter(Boolean).join("; ");
  return hint ? new AwsError("Route 53", "ChangeResourceRecordSets", cause, hint) : e;
}

/**
 * The context a shared request runs on: the first entry's clock, and a signal that aborts only once every
 * entry's operation is cancelled (one record's timeout must not abort the others' request).
 */
function sharedCtx(entries: readonly Entry[]): { ctx: Pick<OpContext, "clock" | "signal">; release: () => void } {
  if (entries.length === 1) return { ctx: entries[0]!.ctx, release: () => {} };
  const all = new AbortController();
  let left = entries.length;
  const onAbort = () => {
    if (--left === 0) all.abort(entries[0]!.ctx.signal.reason);
  };
  for (const x of entries) x.ctx.signal.addEventListener("abort", onAbort, { once: true });
  return { ctx: { clock: entries[0]!.ctx.clock, signal: all.signal }, release: () => entries.forEach((x) => x.ctx.signal.removeEventListener("abort", onAbort)) };
}

/**
 * Sends `entries` as one request and settles each. A refused batch (`InvalidChangeBatch`) applied nothing:
 * the changes it names fail with its error, the others go again without them; when it names none, the
 * batch is halved until the culprit stands alone. Any other error (no such zone, access denied, throttled
 * past the retries) is every change's own outcome, as it would have been alone.
 */
async function send(client: Route53Client, zoneId: string, queued: Entry[]): Promise<void> {
  // A change whose operation was cancelled while it waited is not sent (as a cancelled call never is).
  const entries = queued.filter((x) => {
    if (!x.ctx.signal.aborted) return true;
    x.reject(new AwsError("Route 53", "ChangeResourceRecordSets", x.ctx.signal.reason, "Stopped: the operation was cancelled before its change was sent"));
    return false;
  });
  if (entries.length === 0) return;
  const shared = sharedCtx(entries);
  try {
    const done = await submitChanges(shared.ctx, client, zoneId, entries.map((x) => x.change), entries.length === 1 ? entries[0]!.hint : undefined);
    for (const x of entries) x.resolve(done);
  } catch (e) {
    if (entries.length === 1 || awsCode(e) !== "InvalidChangeBatch") {
      for (const x of entries) x.reject(errorFor(x, e, entries.length));
      return;
    }
    const named = namedIn(e, entries);
    for (const x of named) x.reject(errorFor(x, e, entries.length));
    if (named.length) return send(client, zoneId, entries.filter((x) => !named.includes(x)));
    const half = Math.ceil(entries.length / 2);
    await send(client, zoneId, entries.slice(0, half));
    await send(client, zoneId, entries.slice(half));
  } finally {
    shared.release();
  }
}

/** The changes of one zone (and client) waiting for their request, and when they arrived. */
interface Queue {
  entries: Entry[];
  timer: ReturnType<typeof setTimeout> | undefined;
  first: number;
  last: number;
  /** Changes queued so far, to tell whether one joined during the quiet turns. */
  arrivals: number;
}

// Batches per client (account, region, endpoint) and zone: runs sharing a client share a batch, which is
// what Route 53's per-account rate limit wants; each change still answers its own caller.
const queues = new WeakMap<Route53Client, Map<string, Queue>>();

/** Arms the quiet timer; when it fires, a few turns more, then sends unless a change joined meanwhile. */
function arm(client: Route53Client, zoneId: string, q: Queue): void {
  const wait = Math.max(0, Math.min(q.last + BATCH_WINDOW.quietMs, q.first + BATCH_WINDOW.maxMs) - Date.now());
  // Real timers, not ctx.clock: the window groups calls that arrive together, whatever the operation's clock says.
  q.timer = setTimeout(() => {
    const seen = q.arrivals;
    const settle = (turns: number): void => {
      const overdue = Date.now() - q.first >= BATCH_WINDOW.maxMs;
      if (q.arrivals !== seen && !overdue) return arm(client, zoneId, q);
      if (turns > 0 && !overdue) return void setImmediate(() => settle(turns - 1));
      flush(client, zoneId, q);
    };
    settle(BATCH_WINDOW.quietTurns);
  }, wait);
}

function flush(client: Route53Client, zoneId: string, q: Queue): void {
  const entries = q.entries;
  q.entries = [];
  q.timer = undefined;
  void (async () => {
    for (const batch of splitBatches(entries)) await send(client, zoneId, batch);
  })();
}

/**
 * Queues one record's change for its zone's next `ChangeResourceRecordSets`: changes to one zone (through
 * one client) that arrive together (see {@link BATCH_WINDOW}) go in one request (split only at the
 * API's limits). Resolves with the request's change id, or rejects with this change's own error: a batch
 * refused because of another record is sent again without it.
 *
 * @example
 * const { changeId } = await submitBatched(ctx, client, "Z123", { Action: "CREATE", ResourceRecordSet: rrset }, hint);
 */
export function submitBatched(
  ctx: Pick<OpContext, "clock" | "signal">,
  client: Route53Client,
  zoneId: string,
  change: Change,
  hint?: (e: unknown) => string | undefined,
): Promise<SubmittedChange> {
  const zone = normalizeZoneId(zoneId);
  let zones = queues.get(client);
  if (!zones) queues.set(client, (zones = new Map()));
  let q = zones.get(zone);
  if (!q) zones.set(zone, (q = { entries: [], timer: undefined, first: 0, last: 0, arrivals: 0 }));
  const queue = q;
  return new Promise<SubmittedChange>((resolve, reject) => {
    const now = Date.now();
    if (queue.entries.length === 0) queue.first = now;
    queue.last = now;
    queue.arrivals++;
    queue.entries.push({ change, ctx, hint, resolve, reject });
    if (!queue.timer) arm(client, zone, queue);
  });
}
