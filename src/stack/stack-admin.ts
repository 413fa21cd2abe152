import type { StackCatalog, StackExport, StackSummary, StackTransfer, StateLocker } from "../state/backend.js";
import { CairnError } from "./errors.js";
import { backupDir, writeStackBackup, type RestoredStack, type StackRemoval } from "./stack-backup.js";
import { openStackBackend, type StackParts } from "./stack-parts.js";

/** What the stack administration commands use of a backend: its stacks, and each stack whole under its lock. */
export type AdminBackend = StackCatalog & StackTransfer & StateLocker;

/** One stack of a backend, as the stack administration commands (`stack ls/rm/restore`) see it. */
export interface AdminTarget {
  /** The stack's own backend. */
  backend: AdminBackend;
  project: string;
  stack: string;
  /** Where the program lives (the default folder for backups). */
  programDir: string;
  /** The backend of another stack of the same project and backend; undefined when it cannot be opened. */
  sibling(name: string): AdminBackend | undefined;
}

/**
 * A stack as the stack administration commands see it: its siblings are opened in the same backend, unless
 * its backend was given as an object (which holds one stack).
 *
 * @example await stackSummaries(adminTarget(parts))
 */
export function adminTarget(parts: StackParts): AdminTarget {
  const { program, options } = parts;
  const objectBackend = typeof options.backend === "object";
  return {
    backend: parts.backend, project: program.name, stack: parts.name, programDir: program.location.dir,
    sibling: (name) => (objectBackend ? undefined : openStackBackend(program, { ...options, stack: name }, name).backend),
  };
}

/**
 * The project's stacks in the target's backend, at a glance: resources, last update, lock holder.
 *
 * @example await stackSummaries(target) // [{ stack: "dev", exists: true, resources: 3, … }]
 */
export async function stackSummaries(t: AdminTarget): Promise<StackSummary[]> {
  const out: StackSummary[] = [];
  for (const name of await t.backend.listStacks()) {
    const s = await (name === t.stack ? t.backend : t.sibling(name))?.summary();
    if (s?.exists) out.push(s);
  }
  return out;
}

/**
 * Deletes the stack from its backend (changes nothing in the cloud), keeping a copy in a backup file that
 * {@link restoreStack} reads back. Refuses while resources remain in it, unless `force`.
 *
 * @example await removeStack(target, { confirm: async () => true }) // { stack: "dev", removed: true, backupFile }
 */
export async function removeStack(t: AdminTarget, opts: { force?: boolean; confirm?: (found: StackSummary) => Promise<boolean>; backupDir?: string }): Promise<StackRemoval> {
  let found: StackSummary | undefined;
  let backupFile: string | undefined;
  const removed = await t.backend.removeStack({
    decide: async (s) => {
      found = s;
      if (!s.exists) throw new CairnError(`Stack "${t.stack}" does not exist in ${t.backend.url}; nothing was removed. \`stack ls\` lists the stacks there.`);
      const left = [s.resources ? `${s.resources} resource(s)` : "", s.pending ? `${s.pending} interrupted operation(s)` : ""].filter(Boolean).join(" and ");
      if (left && !opts.force) {
        throw new CairnError(`Stack "${t.stack}" still has ${left}; nothing was removed. Run destroy first to delete them, or pass --force to remove the stack anyway (their cloud objects stay, managed by nothing).`);
      }
      return opts.confirm ? opts.confirm(s) : true;
    },
    keep: async (data) => void (backupFile = await writeStackBackup(opts.backupDir ?? backupDir(t.backend.url, t.programDir), data)),
  });
  return { stack: t.stack, removed, ...(found ? { found } : {}), ...(backupFile ? { backupFile } : {}) };
}

/**
 * Writes a stack removed by {@link removeStack} back into the target's backend, which must hold nothing of it.
 *
 * @example await restoreStack(target, await readStackBackup(file)) // { stack: "dev", restored: true, resources: 3, versions: 4 }
 */
export async function restoreStack(t: AdminTarget, data: StackExport, opts: { confirm?: (data: StackExport) => Promise<boolean> }): Promise<RestoredStack> {
  if (data.project !== t.project) throw new CairnError(`This backup is of project "${data.project}", not "${t.project}"; nothing was restored.`);
  const target = data.stack === t.stack ? t.backend : t.sibling(data.stack);
  if (!target) throw new CairnError(`Stack "${data.stack}" cannot be opened from ${t.backend.url}: this stack's backend was given as an object, which holds one stack. Restore it through a backend URL.`);
  const lock = await target.lock({ command: "stack restore" });
  try {
    if ((await target.summary()).exists) throw new CairnError(`Stack "${data.stack}" exists in ${target.url}; nothing was restored. Restore into another backend, or remove that stack first.`);
    if (opts.confirm && !(await opts.confirm(data))) return { stack: data.stack, restored: false };
    await target.importStack(data);
  } finally {
    await lock.release();
  }
  const s = await target.summary();
  return { stack: data.stack, restored: true, resources: s.resources, versions: data.history.length };
}
