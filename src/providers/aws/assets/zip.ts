import { createHash } from "node:crypto";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { zipSync, type Zippable } from "fflate";

/** One file of an archive: its path inside (`/`-separated), its bytes, and whether it is executable. */
export interface ZipEntry {
  path: string;
  bytes: Uint8Array;
  executable: boolean;
}

/** A deterministic archive and its content hash (sha256 of the archive's bytes, hex). */
export interface Zipped {
  bytes: Uint8Array;
  hash: string;
}

// The DOS time field starts at 1980. Built from local time parts: fflate writes the local parts, so every
// time zone writes the same 1980-01-01 00:00.
const FIXED_TIME = () => new Date(1980, 0, 1, 0, 0, 0);
/** Regular-file type bits (S_IFREG) with the mode, in the high half of the external attributes, as Unix zip writes them. */
const unixAttrs = (mode: number) => (0o100000 | mode) * 0x10000;

/**
 * A deterministic zip of `entries`: sorted by path, every time 1980-01-01 00:00, files 0644 and executables
 * 0755 (Unix), deflate level 6. The same entries give the same bytes on every machine and run.
 *
 * @example zipEntries([{ path: "index.js", bytes: new TextEncoder().encode("…"), executable: false }]).hash // 64 hex characters
 */
export function zipEntries(entries: readonly ZipEntry[]): Zipped {
  const sorted = [...entries].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const files: Zippable = {};
  for (const e of sorted) {
    files[e.path] = [e.bytes, { mtime: FIXED_TIME(), os: 3, attrs: unixAttrs(e.executable ? 0o755 : 0o644), level: 6 }];
  }
  const bytes = zipSync(files);
  return { bytes, hash: createHash("sha256").update(bytes).digest("hex") };
}

/**
 * The files under `dir`, recursively, with paths relative to it (`/`-separated, sorted). Symbolic links are
 * followed; directories themselves are not entries (Lambda needs only the files).
 *
 * @example folderEntries("/app/fn").map((e) => e.path) // ["index.js", "lib/util.js"]
 */
export function folderEntries(dir: string): ZipEntry[] {
  const out: ZipEntry[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const full = join(d, name);
      const st = statSync(full);
      if (st.isDirectory()) walk(full);
      else if (st.isFile()) out.push({ path: relative(dir, full).split(sep).join("/"), bytes: readFileSync(full), executable: (st.mode & 0o111) !== 0 });
    }
  };
  walk(dir);
  return out;
}

/**
 * The deterministic zip of a folder (see {@link zipEntries}).
 *
 * @example zipFolder("/app/fn").hash // the same for the same files, whatever their times on disk
 */
export function zipFolder(dir: string): Zipped {
  return zipEntries(folderEntries(dir));
}
