import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod/mini";
import type { StackExport, StackSummary } from "../state/backend.js";
import { durableCreate } from "../state/durable-file.js";
import { parseBackendUrl } from "../state/backend-url.js";
import { CairnError } from "./errors.js";

/** What `stack rm` did. */
export interface StackRemoval {
  stack: string;
  removed: boolean;
  /** The stack as found under the lock, before the removal. */
  found?: StackSummary;
  /** The file holding a copy of everything removed: `stack restore <file>` brings it back. */
  backupFile?: string;
}

/** What `stack restore` did. */
export interface RestoredStack {
  stack: string;
  restored: boolean;
  resources?: number;
  /** Stored versions restored with it (its `state history`). */
  versions?: number;
}

/** The format of a removed stack's backup file (`stack rm` writes it, `stack restore` reads it). */
export const STACK_BACKUP_FORMAT = "cairn-stack-backup/1";

const rawConfig = z.union([z.string(), z.strictObject({ $secret: z.string() })]);
const backupSchema = z.object({
  format: z.literal(STACK_BACKUP_FORMAT),
  removedAt: z.string(),
  stack: z.object({
    project: z.string(),
    stack: z.string(),
    snapshot: z.optional(z.string()),
    journal: z.optional(z.string()),
    config: z.record(z.string(), rawConfig),
    encryption: z.optional(z.string()),
    history: z.array(z.object({ version: z.int(), text: z.string(), writtenAt: z.optional(z.string()) })),
  }),
});

/**
 * Where `stack rm` keeps a removed stack: beside the file state (`<state dir>/removed/`), or in
 * `.cairn/removed/` beside the program for shared backends.
 *
 * @example backupDir("file:///app/.cairn", "/app") // "/app/.cairn/removed"
 */
export function backupDir(stateUrl: string, programDir: string): string {
  const parsed = stateUrl.startsWith("file://") ? parseBackendUrl(stateUrl) : undefined;
  return parsed?.kind === "file" ? join(parsed.dir, "removed") : join(programDir, ".cairn", "removed");
}

/**
 * Writes a removed stack to a new file in `dir` (secrets stay encrypted, readable by the owner only);
 * resolves with its path.
 *
 * @example await writeStackBackup("/app/.cairn/removed", await backend.exportStack())
 */
export async function writeStackBackup(dir: string, data: StackExport, now = new Date()): Promise<string> {
  await mkdir(dir, { recursive: true });
  const file = join(dir, `${data.project}.${data.stack}.${now.toISOString().replace(/[:.]/g, "-")}.json`);
  await durableCreate(file, JSON.stringify({ format: STACK_BACKUP_FORMAT, removedAt: now.toISOString(), stack: data }, null, 2) + "\n", 0o600);
  return file;
}

/**
 * Reads a backup written by `stack rm`, refusing anything else with a message naming the file.
 * @example const data = await readStackBackup(".cairn/removed/web.dev.2025-01-01T10-00-00-000Z.json");
 */
export async function readStackBackup(file: string): Promise<StackExport> {
  const text = await readFile(file, "utf8").catch((e: NodeJS.ErrnoException) => {
    throw new CairnError(`Cannot read ${file}: ${e.code === "ENOENT" ? "no such file" : e.message}. \`stack rm\` prints the path of the backup it writes.`);
  });
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new CairnError(`${file} is not JSON (${(e as Error).message}): it is not a stack backup written by \`stack rm\`.`);
  }
  const r = backupSchema.safeParse(json);
  if (!r.success) throw new CairnError(`${file} is not a stack backup written by \`stack rm\` (format ${STACK_BACKUP_FORMAT}): ${r.error.issues[0]?.path.join(".") || "the document"} ${r.error.issues[0]?.message ?? ""}`.trimEnd());
  const s = r.data.stack;
  const out: StackExport = { project: s.project, stack: s.stack, config: s.config, history: s.history.map((h) => ({ version: h.version, text: h.text, ...(h.writtenAt !== undefined ? { writtenAt: h.writtenAt } : {}) })) };
  if (s.snapshot !== undefined) out.snapshot = s.snapshot;
  if (s.journal !== undefined) out.journal = s.journal;
  if (s.encryption !== undefined) out.encryption = s.encryption;
  return out;
}
