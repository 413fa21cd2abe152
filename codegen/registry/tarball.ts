/**
 * Reads the regular files of a gzipped ustar archive (the vendored `schemas.tar.gz`) in memory: the format
 * is 512-byte headers each followed by the file's bytes padded to 512, which is all this archive uses.
 */
import { gunzipSync } from "node:zlib";

const BLOCK = 512;

/** A NUL-terminated field of a header, as text. */
function field(buf: Buffer, at: number, len: number): string {
  const raw = buf.subarray(at, at + len);
  const end = raw.indexOf(0);
  return raw.subarray(0, end < 0 ? len : end).toString("utf8");
}

/**
 * Every regular file of a `.tar.gz`, path → bytes, in archive order.
 *
 * @example readTarGz(readFileSync("codegen/registry/schemas.tar.gz")).get("schemas/AWS_S3_Bucket.json")
 */
export function readTarGz(gz: Buffer): Map<string, Buffer> {
  const tar = gunzipSync(gz);
  const files = new Map<string, Buffer>();
  for (let at = 0; at + BLOCK <= tar.length; ) {
    const name = field(tar, at, 100);
    if (name === "") break; // the two zero blocks that end the archive
    const size = parseInt(field(tar, at + 124, 12).trim() || "0", 8);
    const type = field(tar, at + 156, 1);
    const prefix = field(tar, at + 345, 155);
    const path = prefix ? `${prefix}/${name}` : name;
    if (type === "x" || type === "g" || type === "L") throw new Error(`${path}: extended tar headers are not supported: repack the archive with plain ustar names`);
    if (type === "0" || type === "") files.set(path, tar.subarray(at + BLOCK, at + BLOCK + size));
    at += BLOCK + Math.ceil(size / BLOCK) * BLOCK;
  }
  return files;
}
