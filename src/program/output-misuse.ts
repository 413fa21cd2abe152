import { DeclarationSite, userCallSite } from "../core/declaration-site.js";
import { UserError } from "../core/diagnostic.js";

/** How an output was misused: turned into a string (template, `+`, `String()`), or given to `JSON.stringify`. */
export type Misuse = "string" | "json";

/**
 * An output used as if its value were there already: its message names the user's line and what to write.
 *
 * @example try { `${bucket.arn}` } catch (e) { (e as OutputMisuseError).site } // "infra.ts:12:7"
 */
export class OutputMisuseError extends UserError {
  override readonly name = "OutputMisuseError";

  constructor(
    message: string,
    /** The user's `file:line:column` where it happened, or undefined when no frame near it is the user's. */
    readonly site: string | undefined,
  ) {
    super(message);
  }
}

/**
 * The error for a misuse of an output (named by `label` when known), at the line of the user's code that
 * called `entry` (`toString`, `toJSON`, `Symbol.toPrimitive`): the site is captured only now, on the error path.
 *
 * @example throw misuseError("db.endpoint", "string", Output.prototype.toString);
 */
export function misuseError(label: string | undefined, how: Misuse, entry: Function): OutputMisuseError {
  const site = new DeclarationSite(userCallSite(entry)).toString() || undefined;
  const what = label === undefined ? "An Output" : `The Output ${label}`;
  const at = site === undefined ? "" : ` at ${site}`;
  const message =
    how === "string"
      ? `${what} was used as a string${at}; its value is only known when the engine runs. ` +
        "Write interpolate`…${out}…` or out.apply((v) => `…${v}…`) instead (interpolate is exported by cairn-iac)."
      : `${what} was passed to JSON.stringify${at}; its value is only known when the engine runs. ` +
        "Write out.apply((v) => JSON.stringify(v)), or all({ a: out, … }).apply((o) => JSON.stringify(o)) for an object holding outputs.";
  return new OutputMisuseError(message, site);
}
