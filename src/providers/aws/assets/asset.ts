import { existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { defineResource, type ResourceInstance } from "../../../program/define.js";
import type { Input, Output } from "../../../program/output.js";
import type { ResourceOptions } from "../../../program/resource.js";
import { callerFile } from "../../../core/declaration-site.js";
import { remember } from "./archives.js";
import { bundleEntry } from "./bundle.js";
import { zipEntries, zipFolder, type Zipped } from "./zip.js";
import { zipProvider } from "./zip.provider.js";
import type { ZipInputs, ZipOutputs } from "./zip-types.js";
import { UserError } from "../../../core/diagnostic.js";

export type { ZipInputs, ZipOutputs } from "./zip-types.js";

/**
 * `aws:assets:Zip`: a deterministic zip uploaded to S3 under its content hash. Declare it with
 * {@link folder} or {@link entry}, which make the archive and its hash.
 */
export const Zip = defineResource<ZipInputs, ZipOutputs>("aws:assets:Zip", {
  provider: zipProvider,
  schema: {
    inputs: {
      hash: { type: "string", forceNew: true, description: "sha256 of the archive (hex)." },
      bucket: { type: "string", forceNew: true, description: "The bucket the archive is uploaded to." },
      key: { type: "string", forceNew: true, description: "The object key, `<hash>.zip`." },
      path: { type: "string", description: "The folder or entry the archive is made from (not compared)." },
      bundle: { type: "boolean", description: "Whether `path` is an entry bundled with esbuild." },
    },
    outputs: {
      bucket: { type: "string", stable: true, description: "The bucket the archive is in." },
      key: { type: "string", stable: true, description: "The archive's key, `<hash>.zip`." },
      hash: { type: "string", stable: true, description: "sha256 of the archive (hex)." },
    },
  },
});

/** A declared asset: its outputs, and `code` to give a Lambda function (`{ s3Bucket, s3Key }`). */
export type ZipAsset = ResourceInstance<ZipOutputs> & {
  /** The function's `code` input: the bucket and key, known once the archive is uploaded. */
  readonly code: { s3Bucket: Output<string>; s3Key: Output<string> };
};

/** Where an asset goes: the bucket (its name, or an `s3.Bucket`'s `bucketName`). */
export interface AssetArgs {
  bucket: Input<string>;
}

/** How an entry is bundled. */
export interface EntryArgs extends AssetArgs {
  /** esbuild's `target` (default `node20`). */
  target?: string;
  /** Modules left out of the bundle, besides `@aws-sdk/*` (which Lambda's Node.js runtimes provide). */
  external?: string[];
}

/** `path` resolved against the folder of the user's file that named it (else the current folder). */
function fromCaller(path: string): string {
  const file = callerFile();
  return resolve(file ? dirname(file) : process.cwd(), path);
}

function declare(name: string, path: string, zipped: Zipped, args: AssetArgs, bundle: boolean, opts?: ResourceOptions): ZipAsset {
  remember(zipped);
  const inputs = { hash: zipped.hash, bucket: args.bucket, key: `${zipped.hash}.zip`, path, ...(bundle ? { bundle } : {}) };
  const asset = new Zip(name, inputs, opts);
  return Object.assign(asset, { code: { s3Bucket: asset.bucket, s3Key: asset.key } }) as ZipAsset;
}

/**
 * Lambda code from a folder: its files become a deterministic zip (sorted, fixed times and modes) uploaded to
 * `bucket` as `<sha256>.zip` before the function that uses it is created or updated. The path is relative to
 * the file that calls this. A changed file gives a new hash, so a new key: the plan shows it, and the
 * function is updated. An unchanged folder uploads nothing.
 *
 * @example
 * import { assets } from "cairn-iac/aws";
 * import * as lambda from "cairn-iac/aws/lambda";
 * const code = assets.folder("worker-code", "./worker", { bucket: "my-assets-bucket" });
 * new lambda.Function("worker", { code: code.code, handler: "index.handler", runtime: "nodejs22.x", role });
 */
export function folder(name: string, path: string, args: AssetArgs, opts?: ResourceOptions): ZipAsset {
  const dir = fromCaller(path);
  if (!existsSync(dir) || !statSync(dir).isDirectory()) {
    throw new UserError(`assets.folder("${name}", "${path}"): ${dir} is not a folder. The path is relative to the file that calls assets.folder: fix it, or create the folder.`);
  }
  const zipped = zipFolder(dir);
  if (zipped.bytes.byteLength <= 22) throw new UserError(`assets.folder("${name}", "${path}"): ${dir} has no files: put the function's code in it.`);
  return declare(name, dir, zipped, args, false, opts);
}

/**
 * Lambda code from one TypeScript or JavaScript entry, bundled with esbuild (an optional peer dependency:
 * `npm install --save-dev esbuild`) into `index.js`, CommonJS: the handler is `index.<export>`. Then as
 * {@link folder}.
 *
 * @example
 * const code = assets.entry("api-code", "./src/api.ts", { bucket: assetsBucket.bucketName });
 * new lambda.Function("api", { code: code.code, handler: "index.handler", runtime: "nodejs22.x", role });
 */
export function entry(name: string, path: string, args: EntryArgs, opts?: ResourceOptions): ZipAsset {
  const file = fromCaller(path);
  if (!existsSync(file) || !statSync(file).isFile()) {
    throw new UserError(`assets.entry("${name}", "${path}"): ${file} is not a file. The path is relative to the file that calls assets.entry: fix it.`);
  }
  const zipped = zipEntries(bundleEntry(file, { cwd: dirname(file), ...(args.target ? { target: args.target } : {}), ...(args.external ? { external: args.external } : {}) }));
  return declare(name, file, zipped, args, true, opts);
}
