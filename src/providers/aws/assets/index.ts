/**
 * Assets: Lambda code from a folder or a bundled entry, zipped deterministically and uploaded to S3 under
 * its content hash (`aws:assets:Zip`).
 *
 * @example
 * import { assets } from "cairn-iac/aws";
 * const code = assets.folder("worker-code", "./worker", { bucket: "my-assets-bucket" });
 */
export { folder, entry, Zip, type ZipAsset, type AssetArgs, type EntryArgs, type ZipInputs, type ZipOutputs } from "./asset.js";
export { zipFolder, zipEntries, folderEntries, type ZipEntry, type Zipped } from "./zip.js";
