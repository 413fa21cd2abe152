/** Where the vendored registry schemas come from (`source.json`, written by `npm run registry:refresh`). */
import { readFileSync } from "node:fs";

/**
 * The provenance record of the vendored archive.
 *
 * @example readRegistrySource().commit // "3a586feb"
 */
export interface RegistrySourceRecord {
  repository: string;
  folder: string;
  commit: string;
  date: string;
  types: number;
  sha256: string;
}

/**
 * The record itself (`source.json`).
 *
 * @example readRegistrySource().date // "2026-08-06"
 */
export function readRegistrySource(): RegistrySourceRecord {
  return JSON.parse(readFileSync(new URL("./source.json", import.meta.url), "utf8")) as RegistrySourceRecord;
}

/**
 * The registry's provenance in a few words, for generated headers.
 *
 * @example registrySource() // "the CloudFormation registry schemas of 2026-08-06 (terraform-provider-awscc 3a586feb)"
 */
export function registrySource(): string {
  const s = readRegistrySource();
  return `the CloudFormation registry schemas of ${s.date} (${s.repository.split("/").at(-1)} ${s.commit})`;
}
