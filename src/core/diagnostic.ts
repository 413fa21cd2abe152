// A type only: picocolors loads with the CLI, not with `import "cairn-iac"` (tests/build/import-cost.test.ts).
import type { Colors } from "./colors.js";
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
  /** `file:line:column`. */
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

  /** The diagnostics, in the order found (`for (const d of diags)`). */
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
 * throw new UserError("CAIRN_PASSPHRASE is not set: set it to the stack's passphrase.");
 */
export class UserError extends Error {
  /** The problem, with where it is. */
  readonly diagnostic: Diagnostic;

  /** `d` is the problem, or only its summary (a message that says what is wrong and what to do). */
  constructor(d: string | (Omit<Diagnostic, "severity"> & { severity?: Severity }), options?: { cause?: unknown }) {
    const diagnostic: Diagnostic = typeof d === "string" ? { severity: "error", summary: d } : { severity: "error", ...d };
    super(diagnosticText(diagnostic), options);
    this.name = "UserError";
    this.diagnostic = diagnostic;
  }
}

/**
 * Thrown when a phase ends with error diagnostics: every one of them, not only the first. `summary` heads
 * them in `message` (for code that reads only that); the CLI prints each diagnostic instead.
 *
 * @example if (diags.hasErrors()) throw new DiagnosticsError(diags.errors(), 'The program "web" has 2 problems');
 */
export class DiagnosticsError extends UserError {
  readonly diagnostics: readonly Diagnostic[];
  /** What the diagnostics together mean (`The plan has 2 error(s)`), when the thrower said. */
  readonly heading: string | undefined;

  constructor(diagnostics: readonly Diagnostic[], summary?: string) {
    const [first] = diagnostics;
    super(
      diagnostics.length === 1 && first && !summary
        ? first
        : { summary: summary ?? `${diagnostics.length} problems`, detail: diagnostics.map((d) => `  - ${diagnosticText(d).replaceAll("\n", "\n    ")}`).join("\n") },
    );
    this.name = "DiagnosticsError";
    this.diagnostics = diagnostics;
    this.heading = summary;
  }
}

/**
 * A diagnostic's words, the summary and then the detail, without where: what a plain message holds.
 *
 * @example diagnosticText({ severity: "error", summary: "no region", detail: "Set AWS_REGION." }) // "no region\nSet AWS_REGION."
 */
export function diagnosticText(d: Diagnostic): string {
  return d.detail ? `${d.summary}\n${d.detail}` : d.summary;
}

/**
 * The user's `file:line:column` a diagnostic names, as text, or undefined when it names none (a site whose
 * frame was not the user's prints as "").
 *
 * @example siteText({ severity: "error", summary: "x", site }) // "infra.ts:12:3"
 */
export function siteText(d: Pick<Diagnostic, "site">): string | undefined {
  const text = d.site?.toString();
  return text ? text : undefined;
}

/**
 * A diagnostic as a user reads it, everywhere it is printed (plan, progress, errors, and a program file that
 * fails while it loads): the severity and summary; where, when the program's line is known (`  --> infra.ts:12:3`,
 * an arrow, so it is never taken for a stack frame); then the detail. The site is printed here and only here.
 * A summary of several lines (a heading and its list) is printed as it is written.
 *
 * @example
 * diagnosticLines({ severity: "error", summary: 'Duplicate resource URN …', detail: "Give one a different name.", urn, site }).join("\n")
 * // error: Duplicate resource URN …
 * //   --> infra.ts:12:3
 * // Give one a different name.
 */
export function diagnosticLines(d: Diagnostic, c?: Pick<Colors, "red" | "yellow" | "dim">): string[] {
  const label = d.severity === "error" ? (c?.red("error:") ?? "error:") : (c?.yellow("warning:") ?? "warning:");
  const lines = [`${label} ${d.summary}`];
  const site = siteText(d);
  if (site) lines.push(c?.dim(`  --> ${site}`) ?? `  --> ${site}`);
  if (d.detail) lines.push(d.detail);
  return lines;
}

/**
 * The diagnostics of anything thrown: a {@link DiagnosticsError}'s every one, a {@link UserError}'s one, or
 * undefined for any other error (a fault of Cairn or a provider, not a problem the user can fix).
 *
 * @example diagnosticsOf(new UserError({ summary: "x" }))?.[0]?.summary // "x"
 */
export function diagnosticsOf(e: unknown): readonly Diagnostic[] | undefined {
  if (!isUserError(e)) return undefined;
  const many = (e as Partial<DiagnosticsError>).diagnostics;
  if (Array.isArray(many) && many.length) return many;
  // A message added to after the error was made (`e.message += …`) is what the thrower meant to say.
  const d = e.diagnostic;
  if (e.message === diagnosticText(d)) return [d];
  const { detail: _, ...rest } = d;
  return [{ ...rest, summary: e.message }];
}

/**
 * Rewrites the words of a thrown error in place, its message and, for a {@link UserError}, its diagnostics:
 * how secrets are masked in an error before it reaches a person.
 *
 * @example rewriteError(e, (t) => secrets.redact(t));
 */
export function rewriteError(e: unknown, f: (text: string) => string): void {
  if (!(e instanceof Error)) return;
  e.message = f(e.message);
  if (!isUserError(e)) return;
  const each = (d: Diagnostic): Diagnostic => ({ ...d, summary: f(d.summary), ...(d.detail ? { detail: f(d.detail) } : {}) });
  const fields = e as { diagnostic: Diagnostic; diagnostics?: readonly Diagnostic[]; heading?: string };
  fields.diagnostic = each(fields.diagnostic);
  if (Array.isArray(fields.diagnostics)) fields.diagnostics = fields.diagnostics.map(each);
  if (typeof fields.heading === "string") fields.heading = f(fields.heading);
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
