/**
 * Where the sweep finds registry schemas: a directory of the registry's documents (`AWS_S3_Bucket.json`, as
 * in the CloudFormation schema collection), given with `--schemas <dir>` or `CAIRN_REGISTRY_SCHEMAS`. Without
 * one, types are swept from Cairn's own specification (required properties and shapes), and the fake checks
 * them against it.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

type Schema = Record<string, unknown>;

/**
 * A schema lookup over a directory, or one that finds none when `dir` is undefined.
 *
 * @example const schemaOf = schemaSource(process.env.CAIRN_REGISTRY_SCHEMAS); schemaOf("AWS::S3::Bucket")?.typeName
 */
export function schemaSource(dir: string | undefined): (typeName: string) => Schema | undefined {
  const cache = new Map<string, Schema | undefined>();
  return (typeName) => {
    if (!dir) return undefined;
    if (!cache.has(typeName)) {
      const file = join(dir, `${typeName.replace(/::/g, "_")}.json`);
      cache.set(typeName, existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Schema) : undefined);
    }
    return cache.get(typeName);
  };
}
