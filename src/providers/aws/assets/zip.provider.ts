import { DeleteObjectCommand, HeadObjectCommand, PutObjectCommand } from "@aws-sdk/client-s3";
import type { Diagnostic, Diff, OpContext, Provider } from "../../../provider/provider.js";
import { awsCall, awsCode } from "../call.js";
import { archiveOf } from "./archives.js";
import { s3Client } from "./s3-client.js";
import type { ZipInputs, ZipOutputs } from "./zip-types.js";

const NOT_FOUND = new Set(["NotFound", "NoSuchKey", "404"]);

/** The S3 object an asset's inputs name, as an id: `s3://bucket/key`. */
const idOf = (i: Pick<ZipInputs, "bucket" | "key">) => `s3://${i.bucket}/${i.key}`;
const outputsOf = (i: ZipInputs): ZipOutputs => ({ bucket: i.bucket, key: i.key, hash: i.hash });

/** What to do when the bucket is missing (HeadObject's 404 carries no code: PutObject is the call that says). */
const bucketHint = (i: ZipInputs) => (e: unknown) =>
  awsCode(e) === "NoSuchBucket" ? `the assets bucket "${i.bucket}" does not exist: create it (an s3.Bucket in the program) or name another` : undefined;

/** Whether the object is in the bucket (HeadObject). A missing bucket answers 404 too: the upload then names it. */
async function exists(i: ZipInputs, ctx: OpContext): Promise<boolean> {
  try {
    await awsCall(ctx, "s3", "HeadObject", (abortSignal) => s3Client(ctx).send(new HeadObjectCommand({ Bucket: i.bucket, Key: i.key }), { abortSignal }));
    return true;
  } catch (e) {
    // HeadObject answers a bare 404 (no body, so no error code): its status says it.
    if (NOT_FOUND.has(awsCode(e) ?? "") || (e as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode === 404) return false;
    throw e;
  }
}

/** Uploads the archive unless its key is there already (the key is the content hash: same key, same bytes). */
async function upload(urn: string, i: ZipInputs, ctx: OpContext): Promise<{ id: string; outputs: ZipOutputs }> {
  if (!(await exists(i, ctx))) {
    const body = archiveOf(i, urn);
    ctx.log.info(`uploading ${i.key} (${body.byteLength} bytes) to ${i.bucket}`);
    await awsCall(ctx, "s3", "PutObject", (abortSignal) => s3Client(ctx).send(new PutObjectCommand({ Bucket: i.bucket, Key: i.key, Body: body, ContentType: "application/zip" }), { abortSignal }), { hint: bucketHint(i) });
  }
  return { id: idOf(i), outputs: outputsOf(i) };
}

/** Deletes the archive (gone already is fine: S3 answers a delete of a missing key with success). */
async function remove(i: Pick<ZipInputs, "bucket" | "key">, ctx: OpContext): Promise<void> {
  try {
    await awsCall(ctx, "s3", "DeleteObject", (abortSignal) => s3Client(ctx).send(new DeleteObjectCommand({ Bucket: i.bucket, Key: i.key }), { abortSignal }));
  } catch (e) {
    if (awsCode(e) !== "NoSuchBucket") throw e;
  }
}

function check(i: ZipInputs): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (typeof i.hash === "string" && !/^[0-9a-f]{64}$/.test(i.hash)) out.push({ severity: "error", summary: "hash must be a sha256 in hex (64 characters)", attribute: "hash" });
  if (typeof i.hash === "string" && typeof i.key === "string" && i.key !== `${i.hash}.zip`) out.push({ severity: "error", summary: `key must be "<hash>.zip"`, attribute: "key" });
  return out;
}

/** A new hash or bucket is a new object; the source path may move (another checkout) without a change. */
function diff(olds: ZipInputs, news: ZipInputs): Diff {
  const changed = (["hash", "key", "bucket"] as const).filter((k) => olds[k] !== news[k]);
  return changed.length ? { kind: "replace", changed, replaceKeys: changed } : { kind: "same" };
}

/**
 * The provider of `aws:assets:Zip`: `create` uploads the archive to `<bucket>/<hash>.zip` unless HeadObject
 * finds it there (so creating again makes nothing new: `idempotentCreate`); `read` finds the object gone
 * (then the next `up` uploads it again); a new hash replaces the asset: the new archive is uploaded, the
 * function updated, then the old archive deleted. `delete` deletes the object, so `destroy` leaves the
 * assets bucket empty (S3 deletes no bucket that holds objects). Lambda copies the archive when it creates or
 * updates a function (`S3ObjectStorageMode` COPY, the default), so the function never needs it afterwards.
 *
 * @example const { id } = await zipProvider.create({ urn, inputs, ctx }); // "s3://assets/<hash>.zip"
 */
export const zipProvider: Provider<ZipInputs, ZipOutputs> = {
  idempotentCreate: true,
  permissions: (op) => ({ create: ["s3:GetObject", "s3:ListBucket", "s3:PutObject"], read: ["s3:GetObject", "s3:ListBucket"], update: [], delete: ["s3:DeleteObject"], list: undefined })[op],
  check: ({ inputs }) => check(inputs),
  diff: ({ olds, news }) => diff(olds, news),
  create: ({ urn, inputs, ctx }) => upload(urn, inputs, ctx),
  read: async ({ inputs, outputs, ctx }) => ((await exists(inputs, ctx)) ? { ...outputsOf(inputs), ...outputs } : undefined),
  delete: ({ inputs, ctx }) => remove(inputs, ctx),
};
