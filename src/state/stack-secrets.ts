import { link, open, unlink } from "node:fs/promises";
import { join } from "node:path";
import { encryptionFileSchema, describeZodError, type EncryptionFile } from "./schema.js";
import {
  DEFAULT_SCRYPT,
  DecryptError,
  MissingPassphraseError,
  WrongPassphraseError,
  createCrypter,
  newSalt,
  type Crypter,
} from "./secrets.js";
import { fsyncDir, readIfExists } from "./fs-util.js";

/** The known plaintext whose ciphertext is kept in encryption.json to recognise a wrong passphrase. */
const CHECK_TEXT = "cairn passphrase check";

/**
 * The secrets side of one stack: its `encryption.json` (salt, scrypt cost, check value) and a crypter
 * that derives the key the first time a secret is read or written, then reuses it.
 *
 * `encryption.json` is created only when the first secret is written: the crypter encrypts in memory
 * right away, and every writer calls {@link StackSecrets.persist} before putting ciphertext on disk.
 *
 * @example
 * const secrets = await StackSecrets.open({ stackDir, stack: "dev", passphrase: process.env.CAIRN_PASSPHRASE });
 * const text = secrets.crypter.encrypt("hunter2");
 * await secrets.persist(); // writes encryption.json if this was the stack's first secret
 */
export class StackSecrets {
  /** Encrypts/decrypts with the stack key; throws a clear error when there is no or a wrong passphrase. */
  readonly crypter: Crypter;
  private real: Crypter | undefined;
  private unsaved: EncryptionFile | undefined;

  private constructor(
    private readonly stack: string,
    private readonly file: string,
    private readonly passphrase: string | undefined,
    private saved: EncryptionFile | undefined,
  ) {
    this.crypter = {
      encrypt: (value) => this.key("write").encrypt(value),
      decrypt: (text) => {
        try {
          return this.key("read").decrypt(text);
        } catch (e) {
          if (e instanceof DecryptError) {
            // The check value decrypted, so the passphrase is right: this one value is damaged.
            throw new DecryptError(`a secret of stack ${this.stack} does not decrypt although the passphrase is right: the value is damaged`);
          }
          throw e;
        }
      },
    };
  }

  /**
   * Reads `<stackDir>/encryption.json` if it exists. Does not derive the key yet (that is slow and
   * not needed by stacks without secrets). An empty passphrase counts as none.
   *
   * @example await StackSecrets.open({ stackDir: ".cairn/stacks/dev", stack: "dev", passphrase: "pw" })
   */
  static async open(opts: { stackDir: string; stack: string; passphrase?: string | undefined }): Promise<StackSecrets> {
    const file = join(opts.stackDir, "encryption.json");
    return new StackSecrets(opts.stack, file, opts.passphrase || undefined, await readEncryptionFile(file));
  }

  /** True if a passphrase was given, so secrets can be stored. @example if (!s.hasPassphrase) warn() */
  get hasPassphrase(): boolean {
    return this.passphrase !== undefined;
  }

  /**
   * Throws now, rather than in the middle of an apply, if secrets will have to be written and they
   * cannot be: {@link MissingPassphraseError} without a passphrase, {@link WrongPassphraseError} if
   * it is not the one the stack's secrets were stored with. Derives the key (once).
   * @example secrets.requirePassphrase();
   */
  requirePassphrase(): void {
    this.key("write");
  }

  /**
   * Writes encryption.json if a secret was encrypted with a key whose salt is not on disk yet.
   * Cheap when there is nothing to do: writers call it before every write that may hold ciphertext.
   * @example await secrets.persist();
   */
  async persist(): Promise<void> {
    const pending = this.unsaved;
    if (!pending) return;
    const tmp = `${this.file}.${process.pid}.tmp`;
    const fh = await open(tmp, "w", 0o600);
    try {
      await fh.writeFile(JSON.stringify(pending, null, 2) + "\n");
      await fh.sync();
    } finally {
      await fh.close();
    }
    try {
      // link() fails if the file exists, so two runs can never both install a salt (rename would overwrite).
      await link(tmp, this.file);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === "EEXIST") {
        throw new Error(
          `another run created ${this.file} while this one was storing its first secret; nothing was written with the new key: run again`,
        );
      }
      throw e;
    } finally {
      await unlink(tmp).catch(() => {});
    }
    await fsyncDir(this.file);
    this.saved = pending;
    this.unsaved = undefined;
  }

  private where(): string {
    return `stack ${this.stack} (${this.file})`;
  }

  private key(action: "read" | "write"): Crypter {
    if (this.real) return this.real;
    if (!this.passphrase) throw new MissingPassphraseError(action, this.where());
    const saved = this.saved;
    if (saved) {
      const c = createCrypter(this.passphrase, Buffer.from(saved.salt, "base64"), saved.scrypt);
      let ok = false;
      try {
        ok = c.decrypt(saved.check) === CHECK_TEXT;
      } catch {
        ok = false;
      }
      if (!ok) throw new WrongPassphraseError(this.stack, this.file);
      this.real = c;
      return c;
    }
    if (action === "read") {
      throw new Error(
        `stack ${this.stack} has encrypted secrets but ${this.file} (which holds their salt) is missing: ` +
          `restore it from a backup; without it the secrets cannot be decrypted`,
      );
    }
    const salt = newSalt();
    const c = createCrypter(this.passphrase, salt, DEFAULT_SCRYPT);
    this.unsaved = { version: 1, cipher: "aes-256-gcm", kdf: "scrypt", scrypt: DEFAULT_SCRYPT, salt: salt.toString("base64"), check: c.encrypt(CHECK_TEXT) };
    this.real = c;
    return c;
  }
}

async function readEncryptionFile(file: string): Promise<EncryptionFile | undefined> {
  const text = await readIfExists(file);
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new Error(`${file} is not valid JSON: restore it from a backup (it holds the salt of the stack's secrets)`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > 1) {
    throw new Error(`${file} was written by a newer Cairn (format v${version}, this build reads v1): upgrade cairn`);
  }
  const parsed = encryptionFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`${file} is not a valid Cairn encryption file (${describeZodError(parsed.error)}): restore it from a backup`);
  }
  return parsed.data;
}
