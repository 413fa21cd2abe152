import type { DeclarationSite } from "./declaration-site.js";

/** How bad a {@link Diagnostic} is: an error stops the command; a warning is shown and the command goes on. */
export type Severity = "error" | "warning";

/**
 * One problem found in the user's program, plan or cloud, as plain data: the one shape every layer
 * (providers' `check`, evaluation, the planner, apply events) reports in, so the CLI prints each the same
 * way and names the user's line once. `summary` says what is wrong in one sentence; `detail` says more
 * (what to do); `urn`, `attribute` and `site` say where. The site is never part of the text: printers add it.
 *
 * @example
 * const d: Diagnostic = { severity: "error", summary: 'wait "ready" reads "endpiont", which aws:rds:DBInstance has no attribute of', detail: 'Did you mean "endpoint"?', urn, site };
 */
export interface Diagnostic {
  readonly severity: Severity;
  /** What is wrong, in one sentence, without where. */
  readonly summary: string;
  /** More about it: why, and what to do. */
  readonly detail?: string;
  /** The resource, wait or lookup concerned. */
  readonly urn?: string;
  /** Where the user's program declared what is concerned (`infra.ts:12:3`); never serialised. */
  readonly site?: DeclarationSite | SiteText;
  /** The input or attribute concerned, as the user spells it (`lifecycleRules[0].id`). */
  readonly attribute?: string;
}

/** A site already known as text (`infra.ts:12:3`), for diagnostics built outside a program run. */
export interface SiteText {
  toString(): string;
}

/**
 * Diagnostics collected over one phase, as Terraform's `tfdiags.Diagnostics`: appended as found, never
 * thrown one by one, so a user sees every problem of a run at once. Two diagnostics with the same severity,
 * summary, URN and attribute are one: the second is dropped (by key, not by searching message text).
 *
 * @example
 * const diags = new Diagnostics();
 * diags.add({ severity: "warning", summary: "no region set" });
 * if (diags.hasErrors()) throw new DiagnosticsError(diags.errors());
 */
export class Diagnostics implements Iterable<Diagnostic> {
  private readonly items: Diagnostic[] = [];
  private readonly keys = new Set<string>();

  /** Adds `d` unless the same problem is already here. Returns this, to chain. */
  add(...ds: Diagnostic[]): this {
    for (const d of ds) {
      const key = diagnosticKey(d);
      if (this.keys.has(key)) continue;
      this.keys.add(key);
      this.items.push(d);
    }
    return this;
  }

  /** True when any diagnostic is an error. */
  hasErrors(): boolean {
    return this.items.some((d) => d.severity === "error");
  }

  /** The errors, in the order found. */
  errors(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "error");
  }

  /** The warnings, in the order found. */
  warnings(): Diagnostic[] {
    return this.items.filter((d) => d.severity === "warning");
  }

  /** How many there are. */
  get size(): number {
    return this.items.length;
  }

  [Symbol.iterator](): Iterator<Diagnostic> {
    return this.items[Symbol.iterator]();
  }
}

/**
 * What makes two diagnostics the same problem: severity, summary, URN and attribute.
 *
 * @example diagnosticKey({ severity: "error", summary: "x", urn: "u" }) === diagnosticKey({ severity: "error", summary: "x", urn: "u", detail: "y" }) // true
 */
export function diagnosticKey(d: Diagnostic): string {
  return JSON.stringify([d.severity, d.summary, d.urn ?? "", d.attribute ?? ""]);
}

/**
 * The base of every error a user can cause and fix (a typo, a missing import, a refused plan): it carries
 * its problem as a {@link Diagnostic}, so the CLI prints the summary, the user's `file:line` and what to do,
 * and no stack trace of Cairn's own code (unless `--debug`). Anything thrown that is not a `UserError` is a
 * fault in Cairn or a provider, and is printed with its stack. `message` is the summary and detail, without
 * the site: the site is printed once, by the printer.
 *
 * @example
 * throw new UserError({ summary: 'two resources are named "db"', detail: "Give each resource a name of its own.", urn, site });
 */
export class UserError extends Error {
  /** The problem, with where it is. */
  readonly diagnostic: Diagnostic;

  constructor(d: Omit<Diagnostic, "severity"> & { severity?: Severity }, options?: { cause?: unknown }) {
    super(d.detail ? `${d.summary}\n${d.detail}` : d.summary, options);
    this.name = "UserError";
    this.diagnostic = { severity: "error", ...d };
  }
}

/**
 * Thrown when a phase ends with error diagnostics: every one of them, not only the first.
 *
 * @example if (diags.hasErrors()) throw new DiagnosticsError(diags.errors());
 */
export class DiagnosticsError extends UserError {
  constructor(readonly diagnostics: readonly Diagnostic[]) {
    const [first] = diagnostics;
    super(
      diagnostics.length === 1 && first
        ? first
        : { summary: `${diagnostics.length} problems`, detail: diagnostics.map((d) => `- ${d.summary}`).join("\n") },
    );
    this.name = "DiagnosticsError";
  }
}

/**
 * True for an error the user can fix: a {@link UserError}, from this copy of Cairn or another (by name,
 * so two copies of Cairn in one process agree).
 *
 * @example isUserError(new UserError({ summary: "x" })) // true
 */
export function isUserError(e: unknown): e is UserError {
  return e instanceof UserError || (e instanceof Error && typeof (e as Partial<UserError>).diagnostic === "object" && (e as Partial<UserError>).diagnostic !== null);
}
