import { describe, expect, it } from "vitest";
import type { EngineEvent } from "../../../src/apply/events.js";
import { diagnosticLine } from "../../../src/cli/render/events.js";
import { engineEventToJson } from "../../../src/cli/json/events.js";

const site = { toString: () => "infra.ts:7:3" };
const urn = "urn:cairn:dev::app::local:File::cfg";

describe("a diagnostic event, printed", () => {
  it("is the one diagnostic shape: summary, the program's line under it, then the detail", () => {
    const e = { type: "diagnostic", severity: "warning", summary: '"cfg" was adopted', detail: "Check its attributes.", urn, site } as const;

    expect(diagnosticLine(e)).toBe('warning: "cfg" was adopted\n  --> infra.ts:7:3\nCheck its attributes.');
  });

  it("never adds a resource name found by searching the text: a note says its name itself", () => {
    const named = diagnosticLine({ type: "diagnostic", severity: "info", summary: "retrying", urn });

    expect(named).toBe("info: retrying");
  });
});

describe("a diagnostic event in --json", () => {
  it("carries summary, detail, attribute and the site as text, and message as the summary and detail", () => {
    const e: EngineEvent = { type: "diagnostic", severity: "info", summary: "s", detail: "d", urn, attribute: "out", site };

    expect(engineEventToJson(e, "up")).toMatchObject({ type: "diagnostic", severity: "info", message: "s\nd", summary: "s", detail: "d", urn, attribute: "out", site: "infra.ts:7:3" });
  });
});
