import { afterEach, describe, expect, it } from "vitest";
import { chmodSync, mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { unzipSync } from "fflate";
import { zipFolder } from "../../../../src/providers/aws/assets/zip.js";

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Writes `files` into a new temporary folder, in the order given, each with the modification time given. */
function folderOf(files: [path: string, text: string, mtime: number][]): string {
  const dir = mkdtempSync(join(tmpdir(), "cairn-zip-"));
  dirs.push(dir);
  for (const [path, text, mtime] of files) {
    mkdirSync(join(dir, path, ".."), { recursive: true });
    writeFileSync(join(dir, path), text);
    utimesSync(join(dir, path), mtime, mtime);
  }
  return dir;
}

/** The central directory's records: name, DOS time and date, and the Unix mode in the external attributes. */
function centralEntries(zip: Uint8Array): { name: string; time: number; date: number; mode: number }[] {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const out = [];
  for (let at = 0; at + 46 <= zip.length; at++) {
    if (view.getUint32(at, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(at + 28, true);
    out.push({
      name: new TextDecoder().decode(zip.subarray(at + 46, at + 46 + nameLength)),
      time: view.getUint16(at + 12, true),
      date: view.getUint16(at + 14, true),
      mode: view.getUint32(at + 38, true) >>> 16,
    });
  }
  return out;
}

describe("deterministic zip of a folder", () => {
  it("gives the same bytes and hash for the same files written in another order with other times", () => {
    const a = folderOf([["index.js", "exports.handler = 1;", 1_000_000], ["lib/util.js", "u", 2_000_000], ["b.txt", "b", 3_000_000]]);
    const b = folderOf([["b.txt", "b", 1_700_000_000], ["lib/util.js", "u", 1_600_000_000], ["index.js", "exports.handler = 1;", 1_500_000_000]]);

    const za = zipFolder(a);
    const zb = zipFolder(b);

    expect(Buffer.from(za.bytes).equals(Buffer.from(zb.bytes))).toBe(true);
    expect(za.hash).toBe(zb.hash);
    expect(za.hash).toMatch(/^[0-9a-f]{64}$/);
  });

  it("sorts entries by path, times them all 1980-01-01 00:00, and keeps the files' contents", () => {
    const dir = folderOf([["z.js", "z", 5], ["a/b.js", "ab", 6], ["m.js", "m", 7]]);

    const zip = zipFolder(dir).bytes;

    const entries = centralEntries(zip);
    expect(entries.map((e) => e.name)).toEqual(["a/b.js", "m.js", "z.js"]);
    // DOS date: (year - 1980) << 9 | month << 5 | day; time 00:00:00.
    expect(entries.every((e) => e.time === 0 && e.date === ((0 << 9) | (1 << 5) | 1))).toBe(true);
    const files = unzipSync(zip);
    expect(new TextDecoder().decode(files["a/b.js"])).toBe("ab");
  });

  it("stores files as 0644 and keeps executables 0755, whatever else their mode on disk", () => {
    const dir = folderOf([["run.sh", "#!/bin/sh", 1], ["data.json", "{}", 1]]);
    chmodSync(join(dir, "run.sh"), 0o700);
    chmodSync(join(dir, "data.json"), 0o600);

    const modes = Object.fromEntries(centralEntries(zipFolder(dir).bytes).map((e) => [e.name, e.mode & 0o7777]));

    expect(modes).toEqual({ "data.json": 0o644, "run.sh": 0o755 });
  });

  it("gives a new hash when one byte of one file changes", () => {
    const before = zipFolder(folderOf([["index.js", "exports.handler = 1;", 1]])).hash;
    const after = zipFolder(folderOf([["index.js", "exports.handler = 2;", 1]])).hash;

    expect(after).not.toBe(before);
  });
});
