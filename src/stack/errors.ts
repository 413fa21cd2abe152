/**
 * An error the user can fix, with every problem found listed (each once). The CLI prints its message
 * without a stack trace and exits 1.
 */
export class CairnError extends Error {
  constructor(
    message: string,
    readonly problems: readonly string[] = [],
  ) {
    super(problems.length ? `${message}\n${problems.map((p) => `  - ${p}`).join("\n")}` : message);
    this.name = "CairnError";
  }
}
