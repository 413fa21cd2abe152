import { S3Client } from "@aws-sdk/client-s3";
import type { OpContext } from "../../../provider/provider.js";
import { resolveProvider } from "../provider.js";
import { cachedClient, clientConfig } from "../client-cache.js";

/**
 * The S3 client assets are uploaded with: region, profile, endpoint and credentials from the resource's
 * `aws.Provider` (else the SDK's default chain, `AWS_ENDPOINT_URL_S3` included). With an endpoint (a local
 * emulator, from the provider or the environment) it addresses buckets by path, as emulators expect.
 *
 * @example await s3Client(ctx).send(new HeadObjectCommand({ Bucket, Key }));
 */
export function s3Client(ctx: Pick<OpContext, "provider">): S3Client {
  const args = resolveProvider(ctx.provider);
  const local = args.endpoint ?? process.env.AWS_ENDPOINT_URL_S3 ?? process.env.AWS_ENDPOINT_URL;
  return cachedClient("s3-assets", args, () => new S3Client({ ...clientConfig(args), ...(local ? { forcePathStyle: true } : {}) }));
}
