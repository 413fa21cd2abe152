/**
 * The CloudFormation registry's JSON Schema of a type, as Cloud Control validates a model against it: read
 * lazily from the generated JSON (one file per namespace, descriptions and registry-only keywords trimmed),
 * so importing a service module costs nothing until a check runs.
 */
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { UserError } from "../../../core/diagnostic.js";

const DATA = join("providers", "aws", "generated");
let dataDir: string | undefined;

/**
 * The absolute path of a generated data file (`registry/AWS_S3.json`, `permissions.json`). The code that
 * reads it sits at `src/providers/aws/cloudcontrol/` in the sources and in a chunk of `dist/` when built; the
 * data sits at `providers/aws/generated/` under either root, so the root is found by walking up.
 *
 * @example generatedDataFile("permissions.json") // "/…/cairn-iac/dist/providers/aws/generated/permissions.json"
 */
export function generatedDataFile(name: string): string {
  if (dataDir === undefined) {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (let up = 0; up < 6 && !existsSync(join(dir, DATA, "registry")); up++) dir = dirname(dir);
    if (!existsSync(join(dir, DATA, "registry"))) throw new UserError(`Cairn's generated registry data is missing (looked for ${DATA}/registry above ${fileURLToPath(import.meta.url)}): reinstall cairn-iac`);
    dataDir = join(dir, DATA);
  }
  return join(dataDir, name);
}

const files = new Map<string, Record<string, object>>();

/**
 * The registry's JSON Schema of a type (its properties, `definitions`, `required` and top-level `oneOf` /
 * `anyOf`; no descriptions), or undefined when the registry has none (the type cannot be provisioned
 * through Cloud Control). Patterns are JavaScript regular expressions for the `u` flag. Validate with ajv
 * (`allowUnionTypes`, `strictTypes: false`, `strictRequired: false`; formats are not kept).
 *
 * @example
 * const schema = registrySchema("AWS::SQS::Queue"); // { type: "object", properties: { QueueName: { type: "string", … } }, … }
 * registrySchema("AWS::IAM::Policy"); // undefined
 */
export function registrySchema(cfnType: string): object | undefined {
  const parts = cfnType.split("::");
  if (parts.length !== 3) return undefined;
  const name = `${parts[0]}_${parts[1]}.json`;
  let types = files.get(name);
  if (!types) {
    const path = generatedDataFile(join("registry", name));
    types = existsSync(path) ? (JSON.parse(readFileSync(path, "utf8")) as Record<string, object>) : {};
    files.set(name, types);
  }
  return types[cfnType];
}
