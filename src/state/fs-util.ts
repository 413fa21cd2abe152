import { open, readFile } from "node:fs/promises";
import { dirname } from "node:path";

/**
 * Fsyncs the directory holding `file`, so a file just created or renamed into it survives a crash.
 * Some platforms cannot open directories for syncing; that is not an error worth failing a run for.
 *
 * @example await fsyncDir(".cairn/stacks/dev/state.json");
 */
export async function fsyncDir(file: string): Promise<void> {
  let fh;
  try {
    fh = await open(dirname(file), "r");
    await fh.sync();
  } catch {
    // Windows and some network filesystems refuse: the rename itself is still atomic there.
  } finally {
    await fh?.close();
  }
}

/**
 * Reads a file as UTF-8, or returns `undefined` if it does not exist.
 * @example const text = await readIfExists("state.json");
 */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw e;
  }
}
