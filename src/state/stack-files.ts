import { join } from "node:path";

/**
 * Where one stack's files live: `<stateDir>/stacks/<stack>/`.
 *
 * @example stackFiles(".cairn", "dev").snapshot // ".cairn/stacks/dev/state.json"
 */
export interface StackFiles {
  dir: string;
  /** The current snapshot. */
  snapshot: string;
  /** The previous snapshot, used when the current one is unreadable and `--from-backup` asks for it. */
  backup: string;
  /** Every snapshot version kept, as `<serial>.json` (independent copies: damage to state.json never reaches them). */
  history: string;
  /** Changes since the snapshot, one NDJSON record per line. */
  journal: string;
  /** Space kept free so the results of provider calls can still be recorded when the disk fills up. */
  reserve: string;
  /** Salt and check value of the stack's secrets. */
  encryption: string;
  config: string;
}

/** The file paths of a stack (the name must already be validated). @example stackFiles(".cairn", "dev") */
export function stackFiles(stateDir: string, stack: string): StackFiles {
  const dir = join(stateDir, "stacks", stack);
  return {
    dir,
    snapshot: join(dir, "state.json"),
    backup: join(dir, "state.json.bak"),
    history: join(dir, "history"),
    journal: join(dir, "journal.ndjson"),
    reserve: join(dir, "disk-reserve"),
    encryption: join(dir, "encryption.json"),
    config: join(dir, "config.json"),
  };
}
