/**
 * `npm run registry:refresh -- <folder | .tar.gz> --commit <sha> --date <YYYY-MM-DD> [--repository <url>] [--folder <path>]`:
 * replaces the vendored CloudFormation registry schemas (`codegen/registry/schemas.tar.gz`) with the
 * `*.json` documents of a folder (e.g. a checkout of terraform-provider-awscc's
 * internal/service/cloudformation/schemas, or an unpacked `CloudformationSchema.zip`) or of an archive, and
 * records where they came from in `codegen/registry/source.json`. Then run `npm run gen` and commit.
 */
import { createHash } from "node:crypto";
import { readFileSync, readdirSync, statSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { readTarGz } from "../codegen/registry/tarball.js";
import { writeTarGz } from "../codegen/registry/pack.js";
import { readRegistrySource, type RegistrySourceRecord } from "../codegen/registry/source.js";

function option(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? process.argv[i + 1] : undefined;
}

/** The schema documents of a folder or archive, by file name. */
function documents(from: string): Map<string, Buffer> {
  const out = new Map<string, Buffer>();
  if (statSync(from).isDirectory()) {
    for (const f of readdirSync(from).filter((f) => f.endsWith(".json"))) out.set(f, readFileSync(join(from, f)));
  } else {
    for (const [p, b] of readTarGz(readFileSync(from))) if (p.endsWith(".json")) out.set(basename(p), b);
  }
  return out;
}

function main(): void {
  const from = process.argv[2];
  const commit = option("commit");
  const date = option("date");
  if (!from || from.startsWith("--") || !commit || !date) {
    console.error("usage: npm run registry:refresh -- <folder | schemas.tar.gz> --commit <sha> --date <YYYY-MM-DD> [--repository <url>] [--folder <path>]");
    process.exit(2);
  }
  const docs = documents(from);
  const files = new Map<string, Buffer>();
  for (const bytes of docs.values()) {
    const doc = JSON.parse(bytes.toString("utf8")) as { typeName?: unknown };
    if (typeof doc.typeName !== "string") continue; // not a resource schema (e.g. a provider's own meta-schema)
    // One canonical file name per type: AWS::S3::Bucket → AWS_S3_Bucket.json.
    files.set(`schemas/${doc.typeName.replaceAll("::", "_")}.json`, bytes);
  }
  if (files.size === 0) throw new Error(`${from}: no registry schema documents (*.json with a typeName) found`);
  const archive = writeTarGz(files);
  const archivePath = new URL("../codegen/registry/schemas.tar.gz", import.meta.url);
  writeFileSync(archivePath, archive);
  const before = readRegistrySource();
  const record: RegistrySourceRecord = {
    repository: option("repository") ?? before.repository,
    folder: option("folder") ?? before.folder,
    commit,
    date,
    types: files.size,
    sha256: createHash("sha256").update(archive).digest("hex"),
  };
  writeFileSync(new URL("../codegen/registry/source.json", import.meta.url), `${JSON.stringify(record, null, 2)}\n`);
  console.log(`registry:refresh: ${files.size} types from ${from} (was ${before.types}); run \`npm run gen\` and commit.`);
}

main();
