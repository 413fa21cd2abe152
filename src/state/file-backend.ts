import { listStackDirs, FileStore } from "./file-store.js";
import { stackFiles, type StackFiles } from "./stack-files.js";
import { validateStackName } from "./stack-name.js";
import { StoreBackend } from "./store-backend.js";

export type { LoadResult } from "./backend.js";

/** Options of a {@link FileBackend}. */
export interface FileBackendOptions {
  /** Root of all state, e.g. `.cairn`; the stack lives in `<stateDir>/stacks/<stack>/`. */
  stateDir: string;
  stack: string;
  project: string;
  /** Passphrase for secrets; the CLI passes `process.env.CAIRN_PASSPHRASE`. Empty counts as none. */
  passphrase?: string | undefined;
  /** How users run the program (`npx tsx infra.ts`, `node infra.ts`), for hints such as how to unlock. Default `npx tsx infra.ts`. */
  programHint?: string | undefined;
  /** Use the previous version if `state.json` is damaged (`--from-backup`); otherwise it is refused. */
  fromBackup?: boolean | undefined;
}

/**
 * State of one stack in local files:
 *
 * ```text
 * <stateDir>/stacks/<stack>/state.json       snapshot (replaced atomically by compaction)
 *                           state.json.bak   the previous snapshot (used, if state.json is damaged, with --from-backup)
 *                           history/         the last 100 snapshot versions, <serial>.json
 *                           journal.ndjson   changes since the snapshot (group-committed)
 *                           disk-reserve     256 KiB released when the disk fills, to record results
 *                           lock, lock.json  the stack lock and its holder
 *                           lock.guard       held for milliseconds while the lock changes hands
 *                           encryption.json  salt and check value of the secrets
 *                           config.json      stack configuration
 * ```
 *
 * A file that cannot be read safely (damaged, or from a newer Cairn) makes `load` throw an error
 * naming it, and is never overwritten or deleted; `recover` rebuilds a damaged snapshot from the
 * journal and history.
 *
 * @example
 * const backend = new FileBackend({ stateDir: ".cairn", stack: "dev", project: "hello", passphrase: process.env.CAIRN_PASSPHRASE });
 * const lock = await backend.lock("up");
 * try {
 *   const { state, pending, notes } = await backend.load();
 *   const journal = backend.openJournal(state);
 *   // ... journal.begin / end ...
 *   await journal.compact();
 *   await journal.close();
 * } finally {
 *   await lock.release();
 * }
 */
export class FileBackend extends StoreBackend {
  /** Paths of this stack's files. */
  readonly files: StackFiles;

  constructor(opts: FileBackendOptions) {
    validateStackName(opts.stack); // before the name becomes a path
    const files = stackFiles(opts.stateDir, opts.stack);
    super(new FileStore(files, { stack: opts.stack, stateDir: opts.stateDir, programHint: opts.programHint }), opts);
    this.files = files;
  }
}

/**
 * The stacks that have a directory under `<stateDir>/stacks`, sorted.
 * @example await listStacks(".cairn") // ["dev", "prod"]
 */
export function listStacks(stateDir: string): Promise<string[]> {
  return listStackDirs(stateDir);
}
