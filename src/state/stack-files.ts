import { join } from "node:path";
import writeFileAtomic from "write-file-atomic";
import { fsyncDir } from "./fs-util.js";

/**
 * Where one stack's files live: `<stateDir>/stacks/<stack>/`.
 *
 * @example stackFiles(".cairn", "dev").snapshot // ".cairn/stacks/dev/state.json"
 */
export interface StackFiles {
  dir: string;
  /** The last compacted state. */
  snapshot: string;
  /** Changes since the snapshot, one NDJSON record per line. */
  journal: string;
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
    journal: join(dir, "journal.ndjson"),
    encryption: join(dir, "encryption.json"),
    config: join(dir, "config.json"),
  };
}

/**
 * Replaces a file atomically and durably: temp file, fsync, rename, fsync of the directory.
 * Returns the bytes written.
 *
 * @example await replaceFile(files.snapshot, text);
 */
export async function replaceFile(file: string, text: string): Promise<number> {
  const buf = Buffer.from(text, "utf8");
  await writeFileAtomic(file, buf, { fsync: true });
  await fsyncDir(file);
  return buf.length;
}
