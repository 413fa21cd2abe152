import fs from "node:fs";
import type { FileHandle } from "node:fs/promises";
import { randomBytes } from "node:crypto";
import { basename, dirname, join, resolve } from "node:path";
import { fsAdvice, StateReadError } from "./fs-errors.js";
import { UserError } from "../core/diagnostic.js";

// Every state file write goes through this module and calls `fs.<fn>` at call time (never a binding
// captured at import), so a test can put the state directory on a simulated tiny disk.

/**
 * A state write that failed. `file` names what was being written; the previous content of the file is
 * still in place (writes go to a temporary file first).
 *
 * @example if (e instanceof StateWriteError) console.error(e.file);
 */
export class StateWriteError extends UserError {
  override name = "StateWriteError";
  constructor(
    message: string,
    readonly file: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The disk (or the user's quota) is full. The message starts with `disk full (ENOSPC) writing <file>`.
 *
 * @example throw new DiskFullError(".cairn/stacks/dev/state.json", "ENOSPC")
 */
export class DiskFullError extends StateWriteError {
  override name = "DiskFullError";
  constructor(file: string, code: "ENOSPC" | "EDQUOT") {
    super(
      `${code === "ENOSPC" ? "disk full" : "disk quota exceeded"} (${code}) writing ${file}: ` +
        `the last good state was left in place; free some space and run again`,
      file,
      code,
    );
  }
}

/**
 * Turns an error from writing `file` into a {@link StateWriteError} that names the file
 * ({@link DiskFullError} for ENOSPC/EDQUOT). Errors that already are one pass through.
 *
 * @example catch (e) { throw writeError(file, e); }
 */
export function writeError(file: string, e: unknown): StateWriteError {
  if (e instanceof StateWriteError) return e;
  const err = e as NodeJS.ErrnoException;
  if (err?.code === "ENOSPC" || err?.code === "EDQUOT") return new DiskFullError(file, err.code);
  const advice = fsAdvice(err?.code);
  return new StateWriteError(`writing ${file} failed (${err?.message ?? String(e)})${advice ? `: ${advice}` : ""}; the last good state was left in place`, file, err?.code);
}

/**
 * Makes a folder and the missing folders above it, one level at a time: Node's own recursive mkdir never
 * returns on a special file system such as /proc, where this fails at once (ENOENT), naming the folder.
 *
 * @example await makeDirs(".cairn/stacks/dev");
 */
export async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = [];
  for (let at = resolve(dir); ; ) {
    const st = await fs.promises.stat(at).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw writeError(at, e);
    });
    if (st) {
      if (!st.isDirectory()) throw writeError(at, Object.assign(new Error(`${at} is a file, not a folder`), { code: "ENOTDIR" }));
      break;
    }
    missing.push(at);
    const up = dirname(at);
    if (up === at) break;
    at = up;
  }
  for (const d of missing.reverse()) {
    await fs.promises.mkdir(d).catch((e: NodeJS.ErrnoException) => {
      if (e.code !== "EEXIST") throw writeError(d, e);
    });
  }
}

/** Writes all of `buf` at the handle's position; a short write is continued, a write of 0 bytes is an error. */
export async function writeAll(fh: FileHandle, buf: Buffer): Promise<void> {
  for (let off = 0; off < buf.length; ) {
    const { bytesWritten } = await fh.write(buf, off, buf.length - off);
    if (bytesWritten <= 0) throw Object.assign(new Error(`wrote ${off} of ${buf.length} bytes`), { code: "EIO" });
    off += bytesWritten;
  }
}

/** How many bytes {@link writeTemp} gathers from pieces before each write. */
const WRITE_BYTES = 1024 * 1024;

/**
 * Writes `data` (or its pieces, one after another: a large text need never be one string) to a new temporary
 * file beside `file` and fsyncs it, checking that every byte landed. Returns the temporary path and the bytes
 * written; the caller renames or links it into place (or removes it).
 *
 * @example const { path } = await writeTemp("state.json", text); await fs.promises.rename(path, "state.json");
 */
export async function writeTemp(file: string, data: string | Buffer | Iterable<string>, mode = 0o644): Promise<{ path: string; bytes: number }> {
  const pieces = typeof data === "string" || Buffer.isBuffer(data) ? [data] : data;
  const tmp = join(dirname(file), `.${basename(file)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  let fh: FileHandle | undefined;
  try {
    fh = await fs.promises.open(tmp, "wx", mode);
    let bytes = 0;
    // Pieces are small (a large string would live until a full collection); the writes are not: up to
    // WRITE_BYTES at a time.
    let batch: Buffer[] = [];
    let batched = 0;
    for (const piece of pieces) {
      const buf = typeof piece === "string" ? Buffer.from(piece, "utf8") : piece;
      batch.push(buf);
      batched += buf.length;
      bytes += buf.length;
      if (batched >= WRITE_BYTES) {
        await writeAll(fh, batch.length === 1 ? buf : Buffer.concat(batch, batched));
        batch = [];
        batched = 0;
      }
    }
    if (batch.length) await writeAll(fh, batch.length === 1 ? batch[0]! : Buffer.concat(batch, batched));
    await fh.sync();
    const { size } = await fh.stat();
    if (size !== bytes) throw Object.assign(new Error(`the file holds ${size} of ${bytes} bytes after writing`), { code: "EIO" });
    await fh.close();
    fh = undefined;
    return { path: tmp, bytes };
  } catch (e) {
    await fh?.close().catch(() => {});
    await fs.promises.unlink(tmp).catch(() => {});
    throw writeError(file, e);
  }
}

/**
 * Replaces `file` atomically and durably: temp file → write (byte count checked) → fsync → rename →
 * fsync of the directory. On any failure the old file is untouched and the error names `file`
 * (`disk full (ENOSPC) writing <file>` when the disk is full). Returns the bytes written.
 *
 * @example await durableWrite(".cairn/stacks/dev/config.json", JSON.stringify(cfg));
 */
export async function durableWrite(file: string, data: string | Buffer, opts: { mode?: number } = {}): Promise<number> {
  const buf = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  const { path: tmp } = await writeTemp(file, buf, opts.mode);
  try {
    await fs.promises.rename(tmp, file);
  } catch (e) {
    await fs.promises.unlink(tmp).catch(() => {});
    throw writeError(file, e);
  }
  await fsyncDir(file);
  return buf.length;
}

/**
 * Copies `from` to `to` as an independent file, durably: a clone where the file system can make one
 * (copy-on-write: no extra space until one changes), else a byte copy; fsynced, then renamed into place.
 * Unlike a hard link, damage done to `from` in place later never reaches `to`.
 *
 * @example await durableCopy(".cairn/stacks/dev/state.json", ".cairn/stacks/dev/history/000000000007.json");
 */
export async function durableCopy(from: string, to: string): Promise<void> {
  const tmp = join(dirname(to), `.${basename(to)}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`);
  try {
    await fs.promises.copyFile(from, tmp, fs.constants.COPYFILE_FICLONE | fs.constants.COPYFILE_EXCL);
    const fh = await fs.promises.open(tmp, "r+");
    try {
      await fh.sync();
    } finally {
      await fh.close();
    }
    await fs.promises.rename(tmp, to);
  } catch (e) {
    await fs.promises.unlink(tmp).catch(() => {});
    throw writeError(to, e);
  }
  await fsyncDir(to);
}

/**
 * Creates `file` with `data` durably, failing with `EEXIST` if it already exists (a hard link is
 * atomic and, unlike rename, never replaces): two writers can never both create it.
 *
 * @example await durableCreate(".cairn/stacks/dev/encryption.json", text, 0o600);
 */
export async function durableCreate(file: string, data: string | Buffer, mode = 0o644): Promise<void> {
  const { path: tmp } = await writeTemp(file, data, mode);
  try {
    await fs.promises.link(tmp, file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "EEXIST") throw e;
    throw writeError(file, e);
  } finally {
    await fs.promises.unlink(tmp).catch(() => {});
  }
  await fsyncDir(file);
}

/**
 * Fsyncs the directory holding `file`, so a file just created or renamed into it survives a crash.
 * Some platforms cannot open directories for syncing; that is not an error worth failing a run for.
 *
 * @example await fsyncDir(".cairn/stacks/dev/state.json");
 */
export async function fsyncDir(file: string): Promise<void> {
  let fh: FileHandle | undefined;
  try {
    fh = await fs.promises.open(dirname(file), "r");
    await fh.sync();
  } catch {
    // Windows and some network filesystems refuse: the rename itself is still atomic there.
  } finally {
    await fh?.close().catch(() => {});
  }
}

/**
 * Reads a file as UTF-8, or returns `undefined` if it does not exist.
 * @example const text = await readIfExists("state.json");
 */
export async function readIfExists(file: string): Promise<string | undefined> {
  try {
    return await fs.promises.readFile(file, "utf8");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateReadError(file, e);
  }
}

/**
 * The first `bytes` bytes of a file as text (fewer when it is shorter), or undefined if it does not exist:
 * what a file's head says, without reading a large file whole.
 *
 * @example await readStart(files.snapshot, 4096) // '{\n "version": 1,\n "project": …'
 */
export async function readStart(file: string, bytes: number): Promise<string | undefined> {
  const fh = await openIfExists(file);
  if (!fh) return undefined;
  try {
    const buf = Buffer.alloc(bytes);
    const { bytesRead } = await fh.read(buf, 0, bytes, 0);
    return buf.toString("utf8", 0, bytesRead);
  } catch (e) {
    throw new StateReadError(file, e);
  } finally {
    await fh.close().catch(() => {});
  }
}

/** `path` opened for reading, or undefined if it does not exist (any other failure names the file). */
async function openIfExists(path: string): Promise<FileHandle | undefined> {
  try {
    return await fs.promises.open(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new StateReadError(path, e);
  }
}

/** A file as it was when read: enough to tell, later, whether it is still that file (no one replaced or wrote it). */
export interface FileIdentity {
  path: string;
  ino: number;
  size: number;
  mtimeMs: number;
}

/**
 * {@link readIfExists}, with the file's identity from the same open file: the identity is the text's own,
 * whatever replaces the file later.
 *
 * @example const read = await readWithIdentity("state.json"); read?.file.ino
 */
export async function readWithIdentity(path: string): Promise<{ text: string; file: FileIdentity } | undefined> {
  const fh = await openIfExists(path);
  if (!fh) return undefined;
  try {
    const st = await fh.stat();
    return { text: await fh.readFile("utf8"), file: { path, ino: st.ino, size: st.size, mtimeMs: st.mtimeMs } };
  } catch (e) {
    throw new StateReadError(path, e);
  } finally {
    await fh.close().catch(() => {});
  }
}

/** True while `st` (a fresh stat) is the file `file` was read as. */
export function isSameFile(st: { ino: number; size: number; mtimeMs: number }, file: FileIdentity): boolean {
  return st.ino === file.ino && st.size === file.size && st.mtimeMs === file.mtimeMs;
}
