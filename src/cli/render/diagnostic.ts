import { noColors, type Colors } from "../../core/colors.js";
import { diagnosticLines, diagnosticText, siteText, type Diagnostic } from "../../core/diagnostic.js";

/**
 * Diagnostics under a heading that says what they mean together: the heading as the error, then each
 * diagnostic as an item (its summary, where, and detail, indented under it).
 *
 * @example headedLines("The plan has 2 error(s); nothing was changed:", diags).join("\n")
 * // error: The plan has 2 error(s); nothing was changed:
 * //   - "a" (x:y:Z): must not be negative
 * //     --> infra.ts:3:1
 */
export function headedLines(heading: string, ds: readonly Diagnostic[], c: Colors = noColors): string[] {
  const lines = [`${c.red("error:")} ${heading}`];
  for (const d of ds) {
    const [first, ...rest] = diagnosticLines(d, noColors);
    lines.push(`  - ${first!.replace(/^(error|warning): /, "")}`);
    if (rest.length) lines.push(...rest.join("\n").split("\n").map((l) => `  ${l}`));
  }
  return lines;
}

/**
 * A diagnostic in `--json` output: its fields, the site as `file:line:column` text.
 * @example const d: JsonDiagnostic = { severity: "error", message: "x", summary: "x", site: "infra.ts:3:1" };
 */
export interface JsonDiagnostic {
  severity: "error" | "warning";
  /** The summary and detail in one text, without the site (the field every version had). */
  message: string;
  summary: string;
  detail?: string;
  urn?: string;
  attribute?: string;
  site?: string;
}

/**
 * A diagnostic as `--json` carries it: plain fields, the site as text, `message` the summary and detail.
 *
 * @example diagnosticJson({ severity: "error", summary: "x", site }) // { severity: "error", message: "x", summary: "x", site: "infra.ts:3:1" }
 */
export function diagnosticJson(d: Diagnostic): JsonDiagnostic {
  const site = siteText(d);
  return {
    severity: d.severity,
    message: diagnosticText(d),
    summary: d.summary,
    ...(d.detail ? { detail: d.detail } : {}),
    ...(d.urn ? { urn: d.urn } : {}),
    ...(d.attribute ? { attribute: d.attribute } : {}),
    ...(site ? { site } : {}),
  };
}
