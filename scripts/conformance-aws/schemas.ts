/**
 * Where the sweep finds registry schemas: the ones Cairn ships (`registrySchema`), or a directory of the
 * registry's full documents (`AWS_S3_Bucket.json`, as in the CloudFormation schema collection, with their
 * `default`s), given with `--schemas <dir>` or `CAIRN_REGISTRY_SCHEMAS`.
 */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { registrySchema } from "../../src/providers/aws/cloudcontrol/registry-schema.js";

type Schema = Record<string, unknown>;

/**
 * A schema lookup over a directory, or the shipped schemas when `dir` is undefined.
 *
 * @example const schemaOf = schemaSource(process.env.CAIRN_REGISTRY_SCHEMAS); schemaOf("AWS::S3::Bucket")?.typeName
 */
export function schemaSource(dir: string | undefined): (typeName: string) => Schema | undefined {
  const cache = new Map<string, Schema | undefined>();
  return (typeName) => {
    if (!dir) return registrySchema(typeName) as Schema | undefined;
    if (!cache.has(typeName)) {
      const file = join(dir, `${typeName.replace(/::/g, "_")}.json`);
      cache.set(typeName, existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Schema) : undefined);
    }
    return cache.get(typeName);
  };
}
