import { JournalCorruptError, parseJournal, type ParsedJournal } from "./journal-format.js";
import { applyMutations, copyOfResources } from "./mutations.js";
import { parseSnapshot, SnapshotError } from "./snapshot.js";
import type { StoreHistory, StoreReader } from "./store.js";
import { emptyState, type PendingOperation, type StackState } from "./types.js";
import type { Urn } from "../core/urn.js";
import { walkRecords } from "./replay.js";
import { UserError } from "../core/diagnostic.js";

/**
 * A snapshot that cannot be read (truncated, not JSON, not a state) or that the journal shows is not the
 * newest (deleted, replaced by an older copy). Nothing is written while it stands; the message names the
 * file, what is wrong, and the two ways out: `state recover`, or `--from-backup`.
 *
 * @example throw new DamagedStateError(".cairn/stacks/dev/state.json", "is not valid JSON", { stack: "dev" })
 */
export class DamagedStateError extends SnapshotError {
  override name = "DamagedStateError";
  constructor(file: string, problem: string, where: { stack: string; programHint?: string | undefined }) {
    const cmd = where.programHint ?? "npx tsx infra.ts";
    super(
      file,
      `${problem}. Nothing was changed, and the file was left as it is. Two ways out: ` +
        `\`${cmd} state recover --stack ${where.stack}\` rebuilds the newest state from the journal and the stored history, ` +
        `shows what it recovered and writes it only once you confirm; or run the command again with --from-backup to use the ` +
        `previous version instead (changes recorded after it may be forgotten: run refresh afterwards).`,
      true,
    );
  }
}

/**
 * `state recover` found nothing to rebuild the state from: no stored version can be read, and the journal
 * does not start from the empty stack (or there is none). Writing an empty state would make the next `up`
 * create every resource again, so nothing is written; the message says what is left and the ways on.
 *
 * @example throw new NothingToRecoverError(store.names, { stack: "dev" }, ["… state.json is not valid JSON"], 7)
 */
export class NothingToRecoverError extends UserError {
  override name = "NothingToRecoverError";
  constructor(names: { snapshot: string; journal: string }, where: { stack: string; programHint?: string | undefined }, damaged: readonly string[], journalSerial: number | undefined) {
    const cmd = where.programHint ?? "npx tsx infra.ts";
    const lost = journalSerial === undefined ? `there is no journal (${names.journal})` : `${names.journal} continues version ${journalSerial}, which is lost`;
    super(
      `state recover cannot rebuild stack ${where.stack}: no stored version of it can be read (${damaged.join("; ") || `${names.snapshot} is missing`}), and ${lost}. ` +
        `Writing an empty state would make the next up create every resource again, so nothing was changed. ` +
        `What is left is in the cloud: the objects themselves. If you have a copy of ${names.snapshot} (a backup), put it back and run state recover again. ` +
        `Otherwise move the damaged state aside and adopt each object again with \`${cmd} state import <type> <name> <id> --stack ${where.stack}\` ` +
        `(or the resource's import option) before the next up.`,
    );
  }
}

/** One resource of a recovered state, and where its record came from. */
export interface RecoveredResource {
  urn: Urn;
  type: string;
  /** `version`: as in the stored version recovery started from; `journal`: created or changed by a journal record after it. */
  from: "version" | "journal";
}

/** What `state recover` would write, and what it found on the way: shown before anything is written. */
export interface RecoveryPlan {
  /** The stored version the state was rebuilt from (undefined: none was readable; the journal was replayed on an empty state). */
  base: { name: string; serial: number } | undefined;
  /** Journal records replayed on it. */
  records: number;
  resources: RecoveredResource[];
  /** Resources the replayed journal removed. */
  removed: Urn[];
  /** Operations journaled as begun and never finished: kept, so the next run checks their objects. */
  pending: PendingOperation[];
  /** What was found damaged or missing (each names the file or object). */
  damaged: string[];
  /** What may have been lost and what to do about it. */
  notes: string[];
  /** The version the recovered state is written as. */
  serial: number;
  /** The version the journal continues, when there is a journal. */
  journalSerial?: number;
  /** The recovered state as stored (secrets still encrypted). */
  state: StackState;
}

/** What `state recover` did. */
export interface RecoveryResult {
  /** False when the state read fine: nothing to recover. */
  needed: boolean;
  /** True once the recovered state was written. */
  applied: boolean;
  plan?: RecoveryPlan;
}

/** A readable stored version. */
interface Candidate {
  name: string;
  serial: number;
  state: StackState;
}

/** The journal as far as it can be read, and where it stopped being readable. */
function readableJournal(bytes: Buffer | undefined, name: string, damaged: string[]): ParsedJournal | undefined {
  if (!bytes) return undefined;
  try {
    return parseJournal(bytes, name);
  } catch (e) {
    if (!(e instanceof JournalCorruptError)) throw e;
    // Keep every whole record before the damaged line; the damaged line and those after it are dropped.
    let at = 0;
    for (let n = 1; n < e.line; n++) at = bytes.indexOf(0x0a, at) + 1;
    damaged.push(`${name} line ${e.line} is damaged: the records from it on were dropped`);
    return parseJournal(bytes.subarray(0, at), name);
  }
}

/** The stored versions that parse, newest first (the current snapshot included when it parses). */
async function candidates(store: StoreReader & StoreHistory, expected: { project: string; stack: string }, damaged: string[]): Promise<{ found: Candidate[]; known: number[] }> {
  const found: Candidate[] = [];
  const known: number[] = [];
  const snap = await store.readSnapshot();
  if (snap) {
    try {
      const state = parseSnapshot(snap.text, snap.name, expected);
      found.push({ name: snap.name, serial: state.serial, state });
    } catch (e) {
      if (!(e instanceof SnapshotError) || !e.damaged) throw e;
      damaged.push(e.message);
    }
  }
  for (const h of (await store.history()).reverse()) {
    known.push(h.version);
    if (found.some((c) => c.serial === h.version)) continue;
    const text = await store.readVersion(h.version);
    if (text === undefined) continue;
    // A version with no copy of its own but the snapshot (its history file deleted) is the snapshot, reported above.
    if (text === snap?.text && damaged.length) continue;
    try {
      found.push({ name: `version ${h.version}`, serial: h.version, state: parseSnapshot(text, `version ${h.version}`, expected) });
    } catch (e) {
      if (!(e instanceof SnapshotError) || !e.damaged) throw e;
      damaged.push(`stored version ${h.version} is damaged too`);
    }
  }
  found.sort((a, b) => b.serial - a.serial);
  return { found, known };
}

/**
 * Works out the newest state the stored parts still hold: the readable version the journal continues (or
 * else the newest readable one), with the journal's readable records replayed on it. Reads only; returns
 * undefined when nothing needs recovering (the snapshot reads and the journal continues it); throws
 * {@link NothingToRecoverError} when nothing readable is left to rebuild it from.
 *
 * @example const plan = await planRecovery(store, { project: "web", stack: "dev" });
 */
export async function planRecovery(store: StoreReader & StoreHistory, expected: { project: string; stack: string; programHint?: string | undefined }): Promise<RecoveryPlan | undefined> {
  const damaged: string[] = [];
  const notes: string[] = [];
  const { found, known } = await candidates(store, expected, damaged);
  const journal = readableJournal(await store.readJournal(), store.names.journal, damaged);
  const head = journal?.head?.serial;
  const current = found.find((c) => c.name === store.names.snapshot);
  const ahead = head !== undefined && head > (current?.serial ?? 0);
  if (!damaged.length && !ahead) return undefined;
  if (ahead && !damaged.length) {
    damaged.push(`${store.names.snapshot} ${current ? `has version ${current.serial}` : "is missing"}, but ${store.names.journal} continues version ${head}`);
  }

  const base = (head !== undefined ? found.find((c) => c.serial === head) : undefined) ?? found[0];
  // Without a readable version, only a journal that starts from the empty stack (version 0, nothing after it) rebuilds it.
  if (!base && (head === undefined || head > 0 || known.some((v) => v > head))) throw new NothingToRecoverError(store.names, expected, damaged, head);
  const state: StackState = base ? { ...base.state, resources: copyOfResources(base.state.resources) } : emptyState(expected.project, expected.stack);
  const replays = head !== undefined && (base === undefined || head >= base.serial);
  if (!base) notes.push("no stored version could be read: the journal's records were replayed on an empty state");
  else if (head !== undefined && head > base.serial) notes.push(`the journal continues version ${head}, which is lost: resources changed only in versions ${base.serial + 1}–${head} may be stale or missing; run refresh after recovering`);
  else if (head !== undefined && head < base.serial) notes.push(`${store.names.journal} predates ${base.name}: only its unfinished operations were kept`);

  const fromJournal = new Set<Urn>();
  const removed = new Set<Urn>();
  // The journal walked as every load walks it: the operations it leaves open, the changes to replay.
  const { open, replay } = walkRecords(journal?.records ?? [], replays, state.serial);
  const records = replay.length;
  for (const { m: recorded } of replay) {
    applyMutations(state, recorded);
    for (const m of recorded) {
      if (m.kind === "upsert") {
        fromJournal.add(m.resource.urn);
        removed.delete(m.resource.urn);
      } else if (m.kind === "remove") {
        removed.add(m.urn);
        fromJournal.delete(m.urn);
      }
    }
  }
  const serial = Math.max(state.serial, head ?? 0, ...known, ...found.map((c) => c.serial)) + 1;
  const resources = Object.values(state.resources).map((r): RecoveredResource => ({ urn: r.urn, type: r.type, from: fromJournal.has(r.urn) ? "journal" : "version" }));
  return {
    base: base ? { name: base.name, serial: base.serial } : undefined,
    records, resources, removed: [...removed], pending: [...open.values()], damaged, notes, serial,
    ...(head !== undefined ? { journalSerial: head } : {}),
    state: { ...state, serial },
  };
}
