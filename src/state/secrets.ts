import { createCipheriv, createDecipheriv, randomBytes, scryptSync } from "node:crypto";
import { UserError } from "../core/diagnostic.js";

/**
 * Encryption at rest for secret values: AES-256-GCM with a key derived by scrypt from the stack's
 * passphrase and a random per-stack salt.
 *
 * @example
 * const c = createCrypter("correct horse", newSalt());
 * const text = c.encrypt({ password: "hunter2" }); // base64 of iv|tag|data
 * c.decrypt(text); // { password: "hunter2" }
 */
export interface Crypter {
  /** JSON-encodes `value` and encrypts it with a fresh random IV; returns base64 of iv|tag|data. */
  encrypt(value: unknown): string;
  /** Reverses {@link Crypter.encrypt}; throws {@link DecryptError} if the text was not made with this key. */
  decrypt(text: string): unknown;
}

/** scrypt cost parameters, stored next to the salt so they can be raised later without breaking old stacks. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
}

/**
 * Default scrypt cost: about 0.1 s on a laptop. Deriving is deliberately slow, which is why a crypter
 * is made once per stack load and reused for every value.
 */
export const DEFAULT_SCRYPT: ScryptParams = { N: 1 << 15, r: 8, p: 1 };

const IV_BYTES = 12; // the GCM standard nonce size
const TAG_BYTES = 16;
const KEY_BYTES = 32; // AES-256

/** A fresh random salt for a new stack. @example const salt = newSalt(); // 16 random bytes */
export function newSalt(): Buffer {
  return randomBytes(16);
}

/** Thrown when a ciphertext does not authenticate: a wrong key, or a damaged value. */
export class DecryptError extends UserError {
  override name = "DecryptError";
}

/**
 * Derives the key (slow, once) and returns a crypter that uses it for every value.
 *
 * @example
 * const c = createCrypter(process.env.CAIRN_PASSPHRASE!, salt);
 * c.decrypt(c.encrypt(42)); // 42
 */
export function createCrypter(passphrase: string, salt: Uint8Array, params: ScryptParams = DEFAULT_SCRYPT): Crypter {
  // maxmem must exceed 128·N·r or node refuses; leave headroom for its own bookkeeping.
  const key = scryptSync(passphrase, salt, KEY_BYTES, { ...params, maxmem: 256 * params.N * params.r + (1 << 20) });
  return {
    encrypt(value) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv("aes-256-gcm", key, iv);
      const data = Buffer.concat([cipher.update(JSON.stringify(value) ?? "null", "utf8"), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), data]).toString("base64");
    },
    decrypt(text) {
      const raw = Buffer.from(text, "base64");
      if (raw.length < IV_BYTES + TAG_BYTES) throw new DecryptError("the encrypted value is too short to be a Cairn secret");
      const decipher = createDecipheriv("aes-256-gcm", key, raw.subarray(0, IV_BYTES));
      decipher.setAuthTag(raw.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
      let plain: string;
      try {
        plain = Buffer.concat([decipher.update(raw.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]).toString("utf8");
      } catch {
        // GCM authentication failed: nothing else can tell a wrong key from a tampered value.
        throw new DecryptError("the encrypted value does not decrypt with this passphrase (wrong passphrase or damaged value)");
      }
      return JSON.parse(plain) as unknown;
    },
  };
}

const HOW_TO_SET = "set CAIRN_PASSPHRASE (e.g. `export CAIRN_PASSPHRASE=...`) and run again";

/**
 * Thrown when a secret must be written or read but no passphrase was given.
 * `where` names the stack and file when known.
 *
 * @example
 * throw new MissingPassphraseError("write", "stack dev (.cairn/stacks/dev/encryption.json)");
 * // stack dev (.cairn/stacks/dev/encryption.json): cannot store a secret without a passphrase: set CAIRN_PASSPHRASE ...
 */
export class MissingPassphraseError extends UserError {
  override name = "MissingPassphraseError";
  constructor(
    readonly action: "write" | "read",
    where?: string,
  ) {
    // The location goes first so the advice reads as one sentence at the end.
    const at = where ? `${where}: ` : "";
    super(
      action === "write"
        ? `${at}cannot store a secret without a passphrase: ${HOW_TO_SET}`
        : `${at}cannot read the secrets without a passphrase: ${HOW_TO_SET.replace("and run again", "to the passphrase they were stored with and run again")}`,
    );
  }
}

/**
 * Thrown when the passphrase does not match the one the stack's secrets were stored with.
 *
 * @example
 * throw new WrongPassphraseError("dev", ".cairn/stacks/dev/encryption.json");
 * // CAIRN_PASSPHRASE does not decrypt the secrets of stack dev (.cairn/stacks/dev/encryption.json) ...
 */
export class WrongPassphraseError extends UserError {
  override name = "WrongPassphraseError";
  constructor(
    readonly stackName: string,
    readonly file: string,
  ) {
    super(
      `CAIRN_PASSPHRASE does not decrypt the secrets of stack ${stackName} (${file}): ` +
        `set it to the passphrase the stack's secrets were stored with and run again`,
    );
  }
}
