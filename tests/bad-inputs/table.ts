import type { Case } from "./case.js";
import { cliCases } from "./cli-cases.js";
import { generatedCases } from "./generated-cases.js";
import { noBucketCases } from "./no-bucket.js";
import { programCases } from "./program-cases.js";
import { providerCases } from "./provider-cases.js";
import { stateCases } from "./state-cases.js";

// The whole table of bad inputs, each with the area it belongs to.

/** The kinds of input the table covers. */
export const AREAS = ["state files", "journals", "backend URLs", "CLI flags", "config", "programs", "saved plans", "provider errors", "process exits"] as const;
export type Area = (typeof AREAS)[number];

/** A case and its area. */
export type TableCase = Case & { area: Area };

/** The area of a case written before areas were named, from what it is about. */
function areaOf(c: Case, from: "cli" | "program" | "state" | "provider"): Area {
  if (c.area) return c.area;
  const w = c.what;
  if (from === "provider") return "provider errors";
  if (from === "program") return /config|secret/i.test(w) && !/stack output/.test(w) ? "config" : "programs";
  if (from === "state") return /journal/.test(w) ? "journals" : /config|secret/.test(w) ? "config" : "state files";
  if (/backend|CAIRN_BACKEND|S3|state-dir/i.test(w)) return "backend URLs";
  if (/saved plan|plan file/.test(w)) return "saved plans";
  if (/config/.test(w)) return "config";
  return "CLI flags";
}

/** Every case, in a fixed order. */
export const table: TableCase[] = [
  ...cliCases.map((c) => ({ ...c, area: areaOf(c, "cli") })),
  ...programCases.map((c) => ({ ...c, area: areaOf(c, "program") })),
  ...stateCases.map((c) => ({ ...c, area: areaOf(c, "state") })),
  ...providerCases.map((c) => ({ ...c, area: areaOf(c, "provider") })),
  ...noBucketCases.map((c) => ({ ...c, area: "backend URLs" as const })),
  ...generatedCases.map((c) => ({ ...c, area: c.area! })),
];
