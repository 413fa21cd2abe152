import writeFileAtomic from "write-file-atomic";
import { readIfExists } from "./fs-util.js";
import { configFileSchema, describeZodError, type ConfigFile } from "./schema.js";
import type { StackSecrets } from "./stack-secrets.js";

/** One configuration value as the program sees it (secrets decrypted). */
export interface ConfigValue {
  value: string;
  secret: boolean;
}

/**
 * A stack's configuration, stored in `<stackDir>/config.json` as
 * `{ "values": { "key": "plain" | { "$secret": "..." } } }` and always rewritten atomically.
 *
 * @example
 * const cfg = new ConfigStore(".cairn/stacks/dev/config.json", secrets);
 * await cfg.set("dbPassword", "hunter2", { secret: true });
 * (await cfg.read()).dbPassword; // { value: "hunter2", secret: true }
 */
export class ConfigStore {
  constructor(
    private readonly file: string,
    private readonly secrets: StackSecrets,
  ) {}

  /** All values, secrets decrypted (needs the passphrase if there are any). @example await cfg.read() */
  async read(): Promise<Record<string, ConfigValue>> {
    const out: Record<string, ConfigValue> = {};
    for (const [k, v] of Object.entries((await this.readFile()).values)) {
      out[k] = typeof v === "string" ? { value: v, secret: false } : { value: String(this.secrets.crypter.decrypt(v.$secret)), secret: true };
    }
    return out;
  }

  /** Sets one value; a secret one is encrypted (needs the passphrase). @example await cfg.set("region", "eu-west-1") */
  async set(key: string, value: string, opts: { secret?: boolean } = {}): Promise<void> {
    if (key === "") throw new Error(`config key must not be empty (${this.file})`);
    const cfg = await this.readFile();
    cfg.values[key] = opts.secret ? { $secret: this.secrets.crypter.encrypt(value) } : value;
    await this.secrets.persist();
    await this.write(cfg);
  }

  /** Removes one value; returns whether it was there. @example await cfg.remove("region") // true */
  async remove(key: string): Promise<boolean> {
    const cfg = await this.readFile();
    if (!Object.hasOwn(cfg.values, key)) return false;
    delete cfg.values[key];
    await this.write(cfg);
    return true;
  }

  private async readFile(): Promise<ConfigFile> {
    const text = await readIfExists(this.file);
    if (text === undefined) return { values: {} };
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch (e) {
      throw new Error(`${this.file} is not valid JSON (${(e as Error).message}): fix it by hand or restore it from a backup`);
    }
    const r = configFileSchema.safeParse(json);
    if (!r.success) {
      throw new Error(
        `${this.file} is not a valid Cairn config file (${describeZodError(r.error)}): ` +
          `expected { "values": { "key": "value" | { "$secret": "..." } } }; fix it by hand or restore it from a backup`,
      );
    }
    return r.data;
  }

  private async write(cfg: ConfigFile): Promise<void> {
    // Sorted keys keep the file stable under version control.
    const values = Object.fromEntries(Object.entries(cfg.values).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
    await writeFileAtomic(this.file, JSON.stringify({ values }, null, 2) + "\n");
  }
}
