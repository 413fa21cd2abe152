import { secret, type Output } from "./output.js";
import type { EvalDiagnostic } from "./context.js";

export type { ConfigValue } from "./config-value.js";
import type { ConfigValue } from "./config-value.js";

/**
 * A stack's configuration, as Pulumi users know it: values set with
 * `npx tsx infra.ts config set <key> <value> [--secret]` and read in the program.
 * A missing required key does not stop evaluation at once: every missing key is reported together.
 *
 * @example
 * export default program("app", ({ config }) => {
 *   const env = config.get("env") ?? "dev";
 *   const replicas = config.getNumber("replicas") ?? 1;
 *   const token = config.requireSecret("apiToken"); // Output<string>, printed as [secret]
 * });
 */
export class Config {
  /** @internal */
  constructor(
    private readonly values: Readonly<Record<string, ConfigValue>>,
    private readonly stack: string,
    private readonly command: string,
    private readonly diagnostics: EvalDiagnostic[],
  ) {}

  private missing(key: string, secretHint: boolean): void {
    this.diagnostics.push({
      severity: "error",
      summary: `Missing required configuration "${key}" for stack "${this.stack}": set it with \`${this.command} config set ${key} <value>${secretHint ? " --secret" : ""} --stack ${this.stack}\`.`,
    });
  }

  private plain(key: string): string | undefined {
    const v = this.values[key];
    if (v?.secret) {
      this.diagnostics.push({ severity: "error", summary: `Configuration "${key}" is a secret: read it with config.getSecret("${key}") or config.requireSecret("${key}"), which keep it secret.` });
      return undefined;
    }
    return v?.value;
  }

  /** The value of `key`, or undefined. */
  get(key: string): string | undefined {
    return this.plain(key);
  }

  /** The value of `key`; reported as missing (with the command that sets it) when absent. */
  require(key: string): string {
    const v = this.plain(key);
    if (v === undefined && !this.values[key]) this.missing(key, false);
    return v ?? "";
  }

  /** The value of `key` as a number, or undefined. A value that is not a number is reported. */
  getNumber(key: string): number | undefined {
    const v = this.plain(key);
    if (v === undefined) return undefined;
    const n = Number(v);
    if (v.trim() === "" || !Number.isFinite(n)) {
      this.diagnostics.push({ severity: "error", summary: `Configuration "${key}" must be a number, but is "${v}": set it with \`${this.command} config set ${key} <number> --stack ${this.stack}\`.` });
      return undefined;
    }
    return n;
  }

  /** Like {@link getNumber}, but a missing key is reported. */
  requireNumber(key: string): number {
    if (!this.values[key]) this.missing(key, false);
    return this.getNumber(key) ?? 0;
  }

  /** The value of `key` as a boolean (`true`/`false`), or undefined. */
  getBoolean(key: string): boolean | undefined {
    const v = this.plain(key);
    if (v === undefined) return undefined;
    if (v !== "true" && v !== "false") {
      this.diagnostics.push({ severity: "error", summary: `Configuration "${key}" must be true or false, but is "${v}": set it with \`${this.command} config set ${key} true --stack ${this.stack}\` (or false).` });
      return undefined;
    }
    return v === "true";
  }

  /** A secret value as a secret Output, or undefined. */
  getSecret(key: string): Output<string> | undefined {
    const v = this.values[key];
    return v === undefined ? undefined : secret(v.value);
  }

  /** A secret value as a secret Output; reported as missing when absent. */
  requireSecret(key: string): Output<string> {
    const v = this.values[key];
    if (!v) this.missing(key, true);
    return secret(v?.value ?? "");
  }
}
