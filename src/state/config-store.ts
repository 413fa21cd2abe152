import type { ConfigValue, RawConfigValue } from "./stored.js";

export type { ConfigValue } from "./stored.js";
import { configFileSchema, describeZodError } from "./schema.js";
import type { StackSecrets } from "./stack-secrets.js";
import type { ConfigStorage } from "./store.js";
import { UserError } from "../core/diagnostic.js";


// Keys that would change an object's prototype or shadow what every object has.
const RESERVED = new Set(["__proto__", "constructor", "prototype", "hasOwnProperty", "toString", "valueOf"]);

/**
 * Throws a clear error for a configuration key that cannot be stored: empty, reserved (`__proto__`,
 * `constructor`, ...), longer than 200 characters, or holding control characters.
 *
 * @example validateConfigKey("aws:region") // ok
 * validateConfigKey("__proto__") // throws
 */
export function validateConfigKey(key: string, where: string): void {
  const bad = (why: string) => new Error(`config key ${JSON.stringify(key)} ${why} (${where}): choose another key`);
  if (key === "") throw bad("is empty");
  if (RESERVED.has(key)) throw bad("is reserved (it names a property every JavaScript object has)");
  if (key.length > 200) throw bad("is longer than 200 characters");
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(key)) throw bad("contains control characters");
}

/**
 * Parses a stored configuration document `{ "values": { "key": "plain" | { "$secret": "..." } } }` into a
 * prototype-free record, refusing damaged documents and reserved keys with a message naming `where`.
 *
 * @example parseConfigText('{"values":{"region":"eu-west-1"}}', "config.json").region // "eu-west-1"
 */
export function parseConfigText(text: string, where: string): Record<string, RawConfigValue> {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new UserError(`${where} is not valid JSON (${(e as Error).message}): fix it by hand or restore it from a backup`);
  }
  const r = configFileSchema.safeParse(json);
  if (!r.success) {
    throw new UserError(
      `${where} is not a valid Cairn config file (${describeZodError(r.error)}): ` +
        `expected { "values": { "key": "value" | { "$secret": "..." } } }; fix it by hand or restore it from a backup`,
    );
  }
  const values = Object.create(null) as Record<string, RawConfigValue>;
  // JSON.parse keeps "__proto__" as an own key: read own keys only, and refuse the reserved ones.
  for (const key of Object.keys((json as { values: object }).values)) {
    validateConfigKey(key, where);
    values[key] = (json as { values: Record<string, RawConfigValue> }).values[key]!;
  }
  return values;
}

/**
 * Serializes configuration values with sorted keys (stable under version control).
 * @example serializeConfig({ b: "2", a: "1" }) // '{\n  "values": {\n    "a": "1",\n    "b": "2"\n  }\n}\n'
 */
export function serializeConfig(values: Record<string, RawConfigValue>): string {
  const sorted = Object.fromEntries(Object.keys(values).sort().map((k) => [k, values[k]]));
  return JSON.stringify({ values: sorted }, null, 2) + "\n";
}

/**
 * A stack's configuration on top of a store: keys checked, secrets encrypted, every change one
 * atomic read-modify-write so concurrent `config set` never lose a key.
 *
 * @example
 * const cfg = new ConfigStore(store, "config.json", secrets);
 * await cfg.set("dbPassword", "hunter2", { secret: true });
 * (await cfg.read()).dbPassword; // { value: "hunter2", secret: true }
 */
export class ConfigStore {
  constructor(
    private readonly store: ConfigStorage,
    private readonly where: string,
    private readonly secrets: StackSecrets,
  ) {}

  /** All values, secrets decrypted (needs the passphrase if there are any). @example await cfg.read() */
  async read(): Promise<Record<string, ConfigValue>> {
    const out: Record<string, ConfigValue> = {};
    for (const [k, v] of Object.entries(await this.store.readConfig())) {
      out[k] = typeof v === "string" ? { value: v, secret: false } : { value: String(this.secrets.crypter.decrypt(v.$secret)), secret: true };
    }
    return out;
  }

  /** Sets one value; a secret one is encrypted (needs the passphrase). @example await cfg.set("region", "eu-west-1") */
  async set(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    validateConfigKey(key, this.where);
    const stored: RawConfigValue = opts.secret ? { $secret: this.secrets.crypter.encrypt(value) } : value;
    await this.secrets.persist(); // the salt must be stored before any ciphertext it decrypts
    await this.store.updateConfig((values) => {
      values[key] = stored;
      return true;
    });
  }

  /** Removes one value; returns whether it was there. @example await cfg.remove("region") // true */
  async remove(key: string): Promise<boolean> {
    let had = false;
    await this.store.updateConfig((values) => {
      had = Object.hasOwn(values, key);
      if (had) delete values[key];
      return had;
    });
    return had;
  }
}
