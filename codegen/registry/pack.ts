/**
 * Writes a gzipped ustar archive of JSON files, byte-for-byte the same for the same files: sorted names,
 * zero times and owners, so refreshing the vendored schemas changes the archive only when a schema changed.
 */
import { gzipSync } from "node:zlib";

const BLOCK = 512;

function header(path: string, size: number): Buffer {
  const h = Buffer.alloc(BLOCK);
  if (Buffer.byteLength(path) > 100) throw new Error(`${path}: names longer than 100 bytes are not supported`);
  h.write(path, 0, "utf8");
  h.write("0000644\0", 100); // mode
  h.write("0000000\0", 108); // uid
  h.write("0000000\0", 116); // gid
  h.write(`${size.toString(8).padStart(11, "0")}\0`, 124);
  h.write("00000000000\0", 136); // mtime 0
  h.write("        ", 148); // checksum field counts as spaces while summing
  h.write("0", 156);
  h.write("ustar\0", 257);
  h.write("00", 263);
  let sum = 0;
  for (const b of h) sum += b;
  h.write(`${sum.toString(8).padStart(6, "0")}\0 `, 148);
  return h;
}

/**
 * A `.tar.gz` of the given files (archive path → bytes), sorted by path.
 *
 * @example writeTarGz(new Map([["schemas/AWS_S3_Bucket.json", Buffer.from("{}")]]))
 */
export function writeTarGz(files: ReadonlyMap<string, Buffer>): Buffer {
  const parts: Buffer[] = [];
  for (const path of [...files.keys()].sort()) {
    const body = files.get(path)!;
    parts.push(header(path, body.length), body, Buffer.alloc((BLOCK - (body.length % BLOCK)) % BLOCK));
  }
  parts.push(Buffer.alloc(BLOCK * 2));
  return gzipSync(Buffer.concat(parts), { level: 9 });
}
