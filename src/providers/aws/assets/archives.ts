import { dirname } from "node:path";
import { bundleEntry } from "./bundle.js";
import { zipEntries, zipFolder, type Zipped } from "./zip.js";
import type { ZipInputs } from "./zip-types.js";
import { UserError } from "../../../core/diagnostic.js";

// Archives made while the program declared its assets, by hash: the upload sends these very bytes (the plan
// showed their hash). Process-wide and small: one entry per distinct archive a program declares.
const made = new Map<string, Uint8Array>();

/**
 * Remembers an archive made at declaration, for its upload.
 *
 * @example const z = zipFolder(dir); remember(z);
 */
export function remember(z: Zipped): void {
  made.set(z.hash, z.bytes);
}

/**
 * The bytes of the archive an asset's inputs name: the one made at declaration, else made again from its
 * source (a process that did not declare it). Refuses bytes whose hash is not the planned one: the source
 * changed after the plan was made.
 *
 * @example const bytes = archiveOf(inputs, urn);
 */
export function archiveOf(inputs: ZipInputs, urn: string): Uint8Array {
  const known = made.get(inputs.hash);
  if (known) return known;
  const again = inputs.bundle ? zipEntries(bundleEntry(inputs.path, { cwd: dirname(inputs.path) })) : zipFolder(inputs.path);
  if (again.hash !== inputs.hash) {
    throw new UserError(`${urn}: ${inputs.path} changed since the plan was made (its archive's hash is ${again.hash.slice(0, 12)}…, the plan's ${inputs.hash.slice(0, 12)}…): run preview and up again.`);
  }
  remember(again);
  return again.bytes;
}
