/** The inputs of an `aws:assets:Zip`: what is uploaded where. Made by `assets.folder` / `assets.entry`. */
export interface ZipInputs {
  /** sha256 of the archive (hex): the asset's identity. A new hash is a new object (replace). */
  hash: string;
  /** The bucket uploaded to. */
  bucket: string;
  /** The object key: `<hash>.zip`. */
  key: string;
  /** The folder (or, with `bundle`, the entry file) the archive is made from, absolute. Not compared. */
  path: string;
  /** True when `path` is one entry bundled with esbuild. */
  bundle?: boolean;
}

/** The outputs of an `aws:assets:Zip`: where the archive is, once uploaded. */
export interface ZipOutputs {
  bucket: string;
  key: string;
  hash: string;
}
