import { beginLine, headLine, parseJournal } from "./journal-format.js";
import { SnapshotError } from "./snapshot.js";
import type { JournalRecord } from "./schema.js";
import type { JournalPrep } from "./store.js";
import type { PendingOperation, StateMutation } from "./types.js";

/** What scanning a journal against its snapshot found (records still encoded). */
export interface JournalScan {
  /** The state changes to replay on the snapshot, by journal line, in order (none when the journal predates it). */
  replay: { line: number; m: StateMutation[] }[];
  prep: JournalPrep;
  nextOp: number;
  notes: string[];
  /** The serial to replay from: the snapshot's (or the journal head's, past a damaged snapshot). */
  baseSerial: number;
  /** The serial the state reaches once `replay` is applied (each record with changes adds one). */
  serial: number;
}

/**
 * Reads a journal (`bytes`, possibly undefined) against the snapshot serial it should continue: the
 * pending operations, the records to replay, and what the journal's writer must do to continue it.
 * Throws a damaged {@link SnapshotError}, naming both, when the journal continues a newer snapshot than the one loaded (unless
 * `fromBackup`: the current snapshot was damaged and its predecessor loaded, so the journal is replayed
 * with the serial moved past it).
 *
 * @example const scan = scanJournal(bytes, "journal.ndjson", 7, { snapshot: "state.json", existed: true });
 */
export function scanJournal(
  bytes: Buffer | undefined,
  journalName: string,
  snapshotSerial: number,
  snap: { name: string; existed: boolean; fromBackup?: boolean },
): JournalScan {
  const notes: string[] = [];
  const j = bytes ? parseJournal(bytes, journalName) : undefined;
  if (j?.tornNote) notes.push(j.tornNote);
  const place = j?.head ? placeJournal(j.head.serial, journalName, snapshotSerial, snap, notes) : { continuesSnapshot: false, baseSerial: snapshotSerial };
  const walked = walkRecords(j?.head ? j.records : [], place.continuesSnapshot, place.baseSerial);
  return {
    replay: walked.replay,
    prep: { snapshotSerial: place.baseSerial, continuesSnapshot: place.continuesSnapshot, validBytes: j?.validBytes ?? 0, size: bytes?.length ?? 0, pending: [...walked.open.values()] },
    nextOp: walked.maxOp + 1,
    notes,
    baseSerial: place.baseSerial,
    serial: walked.serial,
  };
}

/**
 * How a journal whose head says `headSerial` relates to the snapshot loaded: it continues it (its records
 * are replayed), predates it (an interrupted compaction: only its pending operations count), or continues
 * a newer one, which is refused unless the snapshot is a backup loaded in place of a damaged one.
 */
function placeJournal(headSerial: number, journalName: string, snapshotSerial: number, snap: { name: string; existed: boolean; fromBackup?: boolean }, notes: string[]): { continuesSnapshot: boolean; baseSerial: number } {
  if (headSerial > snapshotSerial && snap.fromBackup) {
    notes.push(`${journalName} continues version ${headSerial}, newer than the backup loaded: its changes were replayed on the backup; resources changed only in the lost version may be stale: run refresh`);
    return { continuesSnapshot: true, baseSerial: headSerial };
  }
  if (headSerial > snapshotSerial) {
    const what = snap.existed ? `has serial ${snapshotSerial}` : "is missing";
    throw new SnapshotError(snap.name, `${what}, but ${journalName} continues serial ${headSerial}: the snapshot was deleted or replaced by an older copy`, true);
  }
  // An older journal is one whose compaction was interrupted after the snapshot was written:
  // its changes are in the snapshot already, but its pending operations are still unresolved.
  if (headSerial !== snapshotSerial) notes.push(`${journalName} predates ${snap.name} (an interrupted compaction): only its pending operations were used`);
  return { continuesSnapshot: headSerial === snapshotSerial, baseSerial: snapshotSerial };
}

/**
 * The operations a journal's records leave open, the changes to replay (when it continues the snapshot), and
 * the serial they reach: how every load, and `state recover`, walk a journal.
 * @example const { open, replay } = walkRecords(parsed.records, true, snapshot.serial);
 */
export function walkRecords(records: readonly JournalRecord[], continuesSnapshot: boolean, baseSerial: number) {
  const open = new Map<number, PendingOperation>();
  const replay: JournalScan["replay"] = [];
  let maxOp = 0;
  let serial = baseSerial;
  let line = 1; // the head is line 1
  for (const rec of records) {
    line++;
    if (rec.t === "begin") {
      const p: PendingOperation = { op: rec.op, kind: rec.kind, urn: rec.urn, type: rec.type, since: rec.since };
      if (rec.id !== undefined) p.id = rec.id;
      open.set(rec.op, p);
      if (rec.note !== undefined) p.note = { ...rec.note };
    } else if (rec.t === "note") {
      const p = open.get(rec.op);
      if (p) p.note = { ...p.note, ...rec.d };
    } else if (rec.t === "end" || rec.t === "abort") {
      open.delete(rec.op);
    }
    if (rec.t !== "mutate") maxOp = Math.max(maxOp, rec.op);
    if (continuesSnapshot && rec.t !== "begin" && rec.t !== "note" && rec.m?.length) {
      replay.push({ line, m: rec.m });
      serial++;
    }
  }
  return { open, replay, maxOp, serial };
}

/**
 * The journal text a writer continuing `prep` starts from: the valid part of a continuing journal,
 * or a fresh head keeping only the pending operations.
 * @example normalizedJournal(bytes, scan.prep)
 */
export function normalizedJournal(bytes: Buffer | undefined, prep: JournalPrep): string | undefined {
  if (!bytes) return undefined;
  if (prep.continuesSnapshot) return bytes.subarray(0, prep.validBytes).toString("utf8");
  return headLine(prep.snapshotSerial) + prep.pending.map(beginLine).join("");
}
