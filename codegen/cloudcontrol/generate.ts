/**
 * Generates `src/providers/aws/services/`: one module per AWS service from the pinned CloudFormation
 * specification (`@aws-cdk/aws-service-spec`), plus a catalog of services. Pure: returns the text of every
 * file; `codegen/gen.ts` writes or checks them.
 */
import { createRequire } from "node:module";
import { loadAwsServiceSpec } from "@aws-cdk/aws-service-spec";
import { readCurated } from "./curated.js";
import { decideServices } from "./topology.js";
import { HEADER, SERVICES_DIR, newProject, writeService } from "./write.js";
import type { ServiceModel } from "./model.js";
import { loadRegistry } from "../registry/load.js";
import { registrySource } from "../registry/source.js";
import { registryFiles } from "../registry/runtime.js";

/** The catalog module's name inside {@link SERVICES_DIR} (no service may be called this). */
const CATALOG = "catalog";

/** What was generated, for the summary line and the README's counts. */
export interface Generated {
  files: Map<string, string>;
  /** The registry JSON the runtime reads lazily (validation schemas, handler permissions). */
  runtime: Map<string, string>;
  services: number;
  types: number;
  source: string;
}

/**
 * Every generated file (repository-relative path → text), in sorted order.
 *
 * @example const { files, types } = await generateServices(); // types: 1821
 */
export async function generateServices(): Promise<Generated> {
  const version = (createRequire(import.meta.url)("@aws-cdk/aws-service-spec/package.json") as { version: string }).version;
  const registry = loadRegistry();
  const source = `@aws-cdk/aws-service-spec ${version} and ${registrySource()}`;
  const db = await loadAwsServiceSpec();
  const services = decideServices(db, readCurated(new URL("./curated.json", import.meta.url)), registry);
  const project = newProject();
  const files = new Map<string, string>();
  for (const svc of services) {
    if (svc.module === CATALOG) throw new Error(`a service is named "${CATALOG}", the name of the catalog module: rename the catalog`);
    files.set(`${SERVICES_DIR}/${svc.module}.ts`, writeService(project, svc, source));
  }
  files.set(`${SERVICES_DIR}/${CATALOG}.ts`, catalog(services, source));
  const types = services.reduce((n, s) => n + s.types.length, 0);
  const extras = new Map(services.flatMap((s) => s.types.filter((t) => t.enumExtras).map((t) => [t.cfnType, t.enumExtras!] as const)));
  const runtime = registryFiles(registry, extras).files;
  return { files: new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))), runtime, services: services.length, types, source };
}

/** Which module holds which CloudFormation namespace: lets a run reach a type no module it imported defines. */
function catalog(services: ServiceModel[], source: string): string {
  const entries = services.map((s) => `  ${JSON.stringify(s.module)}: ${JSON.stringify(s.namespace)},`);
  const tokens = services.flatMap((s) => s.types.filter((t) => t.token !== `aws:${s.module}:${t.name}`).map((t) => `  ${JSON.stringify(t.token)}: ${JSON.stringify(t.cfnType)},`));
  return [
    HEADER(source),
    `/** The CloudFormation namespace of each service module (\`cairn-iac/aws/<module>\`). */`,
    `export const SERVICE_NAMESPACES: Readonly<Record<string, string>> = {`,
    ...entries,
    `};`,
    ``,
    `/** Type tokens that do not follow \`aws:<module>:<Name>\` (they would collide with a hand-written type). */`,
    `export const SPECIAL_TOKENS: Readonly<Record<string, string>> = {`,
    ...tokens,
    `};`,
    ``,
    `/** How many resource types and services the modules cover. */`,
    `export const COVERAGE = { services: ${services.length}, types: ${services.reduce((n, s) => n + s.types.length, 0)}, source: ${JSON.stringify(source)} } as const;`,
    ``,
  ].join("\n");
}
