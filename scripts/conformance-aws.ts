// npm run conformance:aws: the conformance sweep (issue 39) over every provisionable generated AWS type on the
// fake Cloud Control: a minimal valid model from the type's registry schema, then create → refresh → preview
// (no changes) → change one mutable property (no write-only value lost) → import into a fresh stack (no
// changes) → destroy, through Cairn's engine and the real SDK. Prints counts per stage and every failing type
// with its reason; `--json` prints the results as JSON instead.
// Options: --schemas <dir> (or CAIRN_REGISTRY_SCHEMAS): registry schemas to build models from and validate
// with; --only <Type,Type>: sweep these types; --limit <n>: the first n types.
import { SERVICE_NAMESPACES } from "../src/providers/aws/services/catalog.js";
import { knownType, loadType } from "../src/providers/aws/cloudcontrol/types.js";
import { serveFakeCloudControl } from "../src/testing/cloudcontrol/fake-server.js";
import { schemaSource } from "./conformance-aws/schemas.js";
import { STAGES, sweepType, type SweepResult } from "./conformance-aws/sweep.js";

const args = process.argv.slice(2);
const flag = (name: string) => (args.includes(name) ? args[args.indexOf(name) + 1] : undefined);

/** Every type Cairn generates, by loading each service module (they register their types). */
async function generatedTypes(): Promise<string[]> {
  const types = new Set<string>();
  for (const mod of Object.keys(SERVICE_NAMESPACES)) {
    const exports = (await import(`cairn-iac/aws/${mod}`)) as Record<string, unknown>;
    for (const v of Object.values(exports)) {
      const token = typeof v === "function" ? (v as { type?: unknown }).type : undefined;
      const info = typeof token === "string" ? knownType(token) : undefined;
      if (info) types.add(info.cfnType);
    }
  }
  return [...types].sort();
}

async function main(): Promise<void> {
  const dir = flag("--schemas") ?? process.env.CAIRN_REGISTRY_SCHEMAS;
  const schemaOf = schemaSource(dir);
  const only = flag("--only")?.split(",");
  let types = only ?? (await generatedTypes());
  const skipped: string[] = [];
  const provisionable: string[] = [];
  for (const t of types) {
    const info = await loadType(t);
    const schema = schemaOf(t);
    // Full registry documents name their handlers; otherwise the type's registry facts say.
    const creatable = dir ? schema !== undefined && "create" in ((schema.handlers ?? {}) as object) : info?.registry.provisionable === true;
    if (info && creatable) provisionable.push(t);
    else skipped.push(t);
  }
  types = provisionable.slice(0, Number(flag("--limit") ?? Infinity));
  const fake = await serveFakeCloudControl({ pollsToFinish: 0, schemaOf });
  Object.assign(process.env, fake.env); // the stacks' default AWS provider reaches the fake
  const results: SweepResult[] = [];
  try {
    for (const [i, t] of types.entries()) {
      results.push(await sweepType({ cloud: fake.cloud, schemaOf }, t));
      fake.cloud.clear(); // what a failed type left behind must not stand in the way of the next
      if ((i + 1) % 50 === 0) process.stderr.write(`  ${i + 1}/${types.length}\n`);
    }
  } finally {
    await fake.stop();
  }
  if (args.includes("--json")) return void process.stdout.write(`${JSON.stringify({ skipped, results }, null, 2)}\n`);
  process.stdout.write(`${report(results, skipped.length)}\n`);
  if (results.some((r) => r.failed)) process.exitCode = 1;
}

/** Counts per stage, then each failing type with its stage and reason. @example report(results, 340) */
function report(results: SweepResult[], skipped: number): string {
  const lines = [`Conformance sweep on the fake Cloud Control: ${results.length} provisionable types (${skipped} not provisionable, skipped).`, "", "| stage | passed |", "|---|---|"];
  for (const s of STAGES) lines.push(`| ${s} | ${results.filter((r) => r.passed.includes(s)).length} |`);
  const failed = results.filter((r) => r.failed);
  lines.push("", `Passed every stage: ${results.length - failed.length} of ${results.length}.`);
  if (failed.length) lines.push("", "Failing types:", ...failed.map((r) => `- ${r.type}: ${r.failed!.stage}: ${r.failed!.reason}`));
  return lines.join("\n");
}

await main();
