import type { ApplySummary, EngineEvent } from "../../apply/events.js";
import type { ActionKind } from "../../plan/actions.js";
import { actionKind } from "../../plan/steps/index.js";
import { formatDuration } from "../../core/duration.js";
import { formatObserved } from "../../core/predicate.js";
import type { RefreshChange } from "../../stack/stack.js";
import { noColors, type Colors } from "../../core/colors.js";
import { hintFor } from "../hints.js";
import { diagnosticLines } from "../../core/diagnostic.js";
import { nameOf, typeOf } from "../../core/urn.js";

type Ev<T extends EngineEvent["type"]> = Extract<EngineEvent, { type: T }>;

/**
 * What a running unit is doing, for progress lines.
 * @example doing("create") // "creating"
 */
export function doing(kind: ActionKind): string {
  return actionKind(kind).runningText;
}

/**
 * Elapsed time in whole seconds (`0s`, `42s`, `1m10s`): a running counter reads better than `412ms`.
 * @example elapsedText(70_400) // "1m10s"
 */
export function elapsedText(ms: number): string {
  return ms < 1000 ? "0s" : formatDuration(Math.floor(ms / 1000) * 1000);
}

/** A finished step's duration: `12ms` below a second, else `3s`, `1m10s`. */
const took = (ms: number) => formatDuration(ms);

/**
 * `server (local:Command)`: how progress lines name a resource.
 * @example shortName("urn:cairn:dev::app::local:Command::server") // "server (local:Command)"
 */
export function shortName(urn: string): string {
  return `${nameOf(urn)} (${typeOf(urn)})`;
}

/**
 * `✓ created urn:…::config (12ms)`.
 * @example succeededLine({ type: "step-succeeded", urn, kind: "create", durationMs: 12 }) // "✓ created urn:… (12ms)"
 */
export function succeededLine(e: Ev<"step-succeeded">, c: Colors = noColors): string {
  return `${c.green("✓")} ${actionKind(e.kind).doneText} ${e.urn} ${c.dim(`(${took(e.durationMs)})`)}`;
}

/**
 * A failed step as a block: the resource and operation, the provider's message (indented, every line),
 * where the program declared it (`--> infra.ts:12:3`), and a hint saying what state it is left in and what to do.
 * @example failedLines({ type: "step-failed", urn, kind: "create", error: "boom" }, "npx tsx infra.ts").join("\n")
 */
export function failedLines(e: Ev<"step-failed">, command: string, c: Colors = noColors): string[] {
  const message = e.error.split("\n").map((l) => `    ${l}`);
  const at = e.site ? [c.dim(`    --> ${e.site}`)] : [];
  return [`${c.red("✗")} ${e.kind} ${e.urn} ${c.red("failed")}:`, ...message, ...at, `    ${c.dim("hint:")} ${hintFor(e.kind, e.error, command)}`];
}

/**
 * `- skipped urn:…: dependency failed: urn:…`.
 * @example skippedLine({ type: "step-skipped", urn, kind: "create", reason: "cancelled" }) // "- skipped create urn:…: cancelled"
 */
export function skippedLine(e: Ev<"step-skipped">, c: Colors = noColors): string {
  return `${c.yellow("-")} skipped ${e.kind} ${e.urn}: ${e.reason}`;
}

/**
 * `↻ create urn:…: attempt 1 failed (Throttling: rate exceeded); retrying in 1s`.
 * @example retryingLine({ type: "step-retrying", urn, kind: "create", attempt: 1, error: "Throttling", delayMs: 800 })
 */
export function retryingLine(e: Ev<"step-retrying">, c: Colors = noColors): string {
  return `${c.yellow("↻")} ${e.kind} ${e.urn}: attempt ${e.attempt} failed (${e.error}); retrying in ${took(e.delayMs)}`;
}

/**
 * `✓ > issued  [waited 3m12s]  (status = "ISSUED")`, or the outcome's message when the wait did not succeed.
 * @example waitEndedLine(event) // '✓ > issued  [waited 3s]  (status = "ISSUED")'
 */
export function waitEndedLine(e: Ev<"wait-ended">, c: Colors = noColors): string {
  const o = e.outcome;
  if (o.kind === "satisfied") return `${c.green("✓")} ${c.blue(">")} ${e.name}  ${c.dim(`[waited ${formatDuration(o.elapsedMs)}]`)}  ${c.dim(`(${formatObserved(o.observed)})`)}`;
  if (o.kind === "dependency-failed") return `${c.yellow("-")} ${c.blue(">")} ${e.message}`;
  return `${c.red("✗")} ${c.blue(">")} ${e.message}`;
}

/**
 * `warning: …` (info in dim), then where (`  --> infra.ts:3:1`) and the detail, as every diagnostic prints.
 * @example diagnosticLine({ type: "diagnostic", severity: "warning", summary: "stale lock" }) // "warning: stale lock"
 */
export function diagnosticLine(e: Ev<"diagnostic">, c: Colors = noColors): string {
  if (e.severity !== "info") return diagnosticLines({ ...e, severity: e.severity }, c).join("\n");
  return [`${c.dim("info:")} ${e.summary}`, ...diagnosticLines({ ...e, severity: "warning" }, c).slice(1)].join("\n");
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/**
 * The closing line of a run: `Done: 3 created, 1 replaced, 1 wait satisfied in 2m14s`, or `Failed: …, 1 failed, 2 skipped in 3s`.
 * The deletion of a replaced object is part of its replace, so it is not counted twice.
 * @example summaryLine({ ok: true, succeeded: 2, failed: 0, skipped: 0, done: { create: 2 }, durationMs: 3000 }) // "Done: 2 created in 3s"
 */
export function summaryLine(s: ApplySummary, c: Colors = noColors): string {
  const d = s.done;
  const parts = [
    d.create && `${d.create} created`,
    d.update && `${d.update} updated`,
    d.replace && `${d.replace} replaced`,
    d.delete && `${d.delete} deleted`,
    d.read && `${d.read} read`,
    d.wait && `${plural(d.wait, "wait")} satisfied`,
    d.forget && `${d.forget} forgotten`,
    s.failed && c.red(`${s.failed} failed`),
    s.skipped && c.yellow(`${s.skipped} skipped`),
    s.deferred && c.cyan(`${s.deferred} deferred to the next round`),
  ].filter(Boolean);
  const head = s.ok ? c.green("Done:") : c.red("Failed:");
  return `${head} ${parts.join(", ") || "nothing to do"} in ${formatDuration(s.durationMs)}`;
}

/**
 * Lines describing refresh findings.
 * @example renderRefresh([{ kind: "gone", urn, type: "local:File" }]) // "- gone  urn:… (deleted outside Cairn; …)"
 */
export function renderRefresh(changes: readonly RefreshChange[], c: Colors = noColors): string {
  if (changes.length === 0) return c.green("No drift: every resource matches the state.");
  return changes
    .map((ch) => (ch.kind === "gone" ? `${c.red("- gone")}  ${ch.urn} (deleted outside Cairn; it will be removed from state)` : `${c.yellow("~ drift")} ${ch.urn}: ${ch.changed.join(", ")}`))
    .join("\n");
}
