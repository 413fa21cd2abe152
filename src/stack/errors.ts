import { UserError } from "../core/diagnostic.js";

/**
 * An error the user can fix, with every problem found listed (each once): a {@link UserError} whose
 * summary is `message` and whose detail lists the problems. The CLI prints it without a stack trace and
 * exits 1.
 *
 * @example throw new CairnError("Nothing was forgotten:", ["urn:…::a is protected"]);
 */
export class CairnError extends UserError {
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
    /** What to do, said after the problems. */
    remedy?: string,
  ) {
    const detail = [...problems.map((p) => `  - ${p}`), ...(remedy ? [remedy] : [])].join("\n");
    super(detail ? { summary: message, detail } : { summary: message });
    this.name = "CairnError";
  }
}
