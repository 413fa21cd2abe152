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
import type { EncryptionStorage } from "./store.js";
import { UserError } from "../core/diagnostic.js";


/** The known plaintext whose ciphertext is kept in encryption.json to recognise a wrong passphrase. */
const CHECK_TEXT = "cairn passphrase check";

/**
 * The secrets side of one stack: its `encryption.json` document (salt, scrypt cost, check value; never
 * the key, which is derived from the passphrase and kept only in memory) and a crypter
 * that derives the key the first time a secret is read or written, then reuses it.
 *
 * `encryption.json` is created only when the first secret is written: the crypter encrypts in memory
 * right away, and every writer calls {@link StackSecrets.persist} before putting ciphertext on disk.
 *
 * @example
 * const secrets = await StackSecrets.open({ stack: "dev", where: "encryption.json", storage, passphrase: process.env.CAIRN_PASSPHRASE });
 * const text = secrets.crypter.encrypt("hunter2");
 * await secrets.persist(); // writes encryption.json if this was the stack's first secret
 */
export class StackSecrets {
  /** Encrypts/decrypts with the stack key; throws a clear error when there is no or a wrong passphrase. */
  readonly crypter: Crypter;
  private real: Crypter | undefined;
  private unsaved: EncryptionFile | undefined;
  private persisting: Promise<void> | undefined;

  private constructor(
    private readonly stack: string,
    private readonly file: string,
    private readonly storage: EncryptionStorage,
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
   * Reads the stack's encryption document if it exists. Does not derive the key yet (that is slow and
   * not needed by stacks without secrets). An empty passphrase counts as none. `where` names the
   * document in messages.
   *
   * @example await StackSecrets.open({ stack: "dev", where: ".cairn/stacks/dev/encryption.json", storage, passphrase: "pw" })
   */
  static async open(opts: { stack: string; where: string; storage: EncryptionStorage; passphrase?: string | undefined }): Promise<StackSecrets> {
    const saved = parseEncryption(opts.where, await opts.storage.readEncryption());
    return new StackSecrets(opts.stack, opts.where, opts.storage, opts.passphrase || undefined, saved);
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
  persist(): Promise<void> {
    const pending = this.unsaved;
    if (!pending) return Promise.resolve();
    // Writers of one stack share the one creation in flight rather than racing each other for it.
    this.persisting ??= this.storage.createEncryption(JSON.stringify(pending, null, 2) + "\n").then(
      () => {
        this.saved = pending;
        this.unsaved = undefined;
        this.persisting = undefined;
      },
      (e: unknown) => {
        this.persisting = undefined;
        throw e;
      },
    );
    return this.persisting;
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
      throw new UserError(
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

function parseEncryption(file: string, text: string | undefined): EncryptionFile | undefined {
  if (text === undefined) return undefined;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new UserError(`${file} is not valid JSON: restore it from a backup (it holds the salt of the stack's secrets)`);
  }
  const version = (json as { version?: unknown } | null)?.version;
  if (typeof version === "number" && version > 1) {
    throw new UserError(`${file} was written by a newer Cairn (format v${version}, this build reads v1): upgrade cairn`);
  }
  const parsed = encryptionFileSchema.safeParse(json);
  if (!parsed.success) {
    throw new UserError(`${file} is not a valid Cairn encryption file (${describeZodError(parsed.error)}): restore it from a backup`);
  }
  return parsed.data;
}
