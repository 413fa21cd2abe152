import { isDeepStrictEqual } from "node:util";
import type { StackExport, StackTransfer, StateLocker } from "./backend.js";
import { UserError } from "../core/diagnostic.js";

/** What `state migrate` (`Stack.migrate`) copied. */
export interface MigrateResult {
  from: string;
  to: string;
  /** The current version's serial (0 for a stack without a snapshot yet). */
  version: number;
  resources: number;
  /** Stored versions copied. */
  versions: number;
  /** Journal records copied (pending operations and changes not yet compacted). */
  journalRecords: number;
  configKeys: number;
}

/**
 * Copies a stack (snapshot, journal, configuration, secrets salt, history) from one backend to another
 * holding both locks, then reads the copy back and checks it equals the source. The target must hold
 * nothing of the stack; the source is left as it was. Secrets are copied encrypted: the passphrase
 * stays the same and is not needed.
 *
 * @example const r = await migrateStack(fileBackend, pgBackend); console.log(`${r.versions} versions copied`);
 */
export async function migrateStack(from: StateLocker & StackTransfer, to: StateLocker & StackTransfer): Promise<MigrateResult> {
  if (from.url === to.url) throw new UserError(`cannot migrate stack ${from.stack} to where it already is (${to.url})`);
  const source = await from.lock({ command: `state migrate --to ${to.url}` });
  try {
    const target = await to.lock({ command: `state migrate from ${from.url}` });
    try {
      const data = await from.exportStack();
      await to.importStack(data);
      const copy = await to.exportStack();
      const diff = difference(data, copy);
      if (diff) throw new UserError(`the copy of stack ${from.stack} in ${to.url} differs from the source (${diff}): the source was left as it was; remove the copy and migrate again`);
      return summary(from.url, to.url, data);
    } finally {
      await target.release();
    }
  } finally {
    await source.release();
    await to.close().catch(() => {});
  }
}

/** The first part in which two exports differ, or undefined when they are equal (times of versions aside). */
function difference(a: StackExport, b: StackExport): string | undefined {
  if (a.snapshot !== b.snapshot) return "the current snapshot";
  if ((a.journal ?? "") !== (b.journal ?? "")) return "the journal";
  if (!isDeepStrictEqual({ ...a.config }, { ...b.config })) return "the configuration";
  if (a.encryption !== b.encryption) return "the secrets salt";
  const versions = (e: StackExport) => e.history.map((h) => [h.version, h.text]);
  if (!isDeepStrictEqual(versions(a), versions(b))) return "the history";
  return undefined;
}

function summary(from: string, to: string, d: StackExport): MigrateResult {
  const snap = d.snapshot ? (JSON.parse(d.snapshot) as { serial: number; resources: object }) : undefined;
  return {
    from,
    to,
    version: snap?.serial ?? 0,
    resources: snap ? Object.keys(snap.resources).length : 0,
    versions: d.history.length,
    journalRecords: Math.max(0, (d.journal ?? "").split("\n").filter((l) => l !== "").length - 1),
    configKeys: Object.keys(d.config).length,
  };
}
