import pc from "picocolors";
import type { Plan, PlanStep } from "../plan/plan.js";
import { countSteps, hasChanges, waitsReadyNow } from "../plan/plan.js";
import type { EngineEvent, UnitKind } from "../apply/events.js";
import { formatValue, maskProps } from "./format.js";
import { formatDuration } from "../program/duration.js";
import { formatObserved } from "../wait/predicate.js";
import type { RefreshChange } from "../stack/stack.js";
import type { ProviderRecord } from "../state/types.js";

/** The one-glyph-and-word label of a step, as the plan prints it. */
export function stepLabel(step: PlanStep): string {
  switch (step.kind) {
    case "create":
      return "+ create";
    case "update":
      return "~ update";
    case "replace":
      return step.deleteFirst ? "-/+ replace (delete first)" : "+/- replace (create first)";
    case "delete":
      return step.retain ? "- forget (retainOnDelete)" : step.deposed ? "- delete (deposed)" : "- delete";
    case "read":
      return "<= read";
    case "same":
      return step.movedFrom ? "= move" : "  same";
    case "wait":
      return ">";
    default: {
      const never: never = step;
      return String(never);
    }
  }
}

/** The head line of a step: `+ create <urn>`, or `> issued (until cert.status == "ISSUED")` for a wait. */
export function stepLine(step: PlanStep): string {
  if (step.kind !== "wait") return `${colour(step, stepLabel(step))} ${step.urn}`;
  const text = `> ${step.name} (until ${step.untilText})`;
  return step.needed ? colour(step, text) : pc.dim(`${text}  not needed`);
}

function colour(step: PlanStep, text: string): string {
  switch (step.kind) {
    case "create":
      return pc.green(text);
    case "update":
      return pc.yellow(text);
    case "replace":
      return pc.magenta(text);
    case "delete":
      return pc.red(text);
    case "read":
      return pc.cyan(text);
    case "same":
      return pc.dim(text);
    case "wait":
      return pc.blue(text);
    default: {
      const never: never = step;
      return String(never);
    }
  }
}

/** A provider's settings as plan text: `region=us-east-1`, or `default`. */
function formatSettings(p: ProviderRecord | undefined): string {
  const entries = Object.entries(p?.settings ?? {});
  return entries.length ? entries.map(([k, v]) => `${k}=${v}`).join(" ") : "default";
}

/** The detail lines under a step: which attributes change, and which force a replacement. */
function details(step: PlanStep): string[] {
  const lines: string[] = [];
  const secret = (k: string) => "secretKeys" in step && step.secretKeys.includes(k);
  if ("movedFrom" in step && step.movedFrom) lines.push(`moved from ${step.movedFrom}`);
  switch (step.kind) {
    case "create":
      for (const [k, v] of Object.entries(step.news)) lines.push(`${k}: ${formatValue(v, secret(k))}`);
      break;
    case "update":
    case "replace": {
      if (step.kind === "replace" && step.reason === "tainted") lines.push("the object is tainted (its create failed part-way)");
      if (step.kind === "replace" && step.reason === "requested") lines.push("replacement requested with --replace");
      if (step.kind === "replace" && step.reason === "dependency") lines.push(`replaced delete-first because it references ${nameOf(step.cause ?? "")}, which is deleted first`);
      if (step.kind === "replace" && step.reason === "triggered") lines.push(`replaceTriggeredBy: ${step.cause}`);
      if (step.kind === "replace" && step.reason === "provider") lines.push(`provider settings changed (${formatSettings(step.prior.provider)} → ${formatSettings(step.meta.provider)}): the object moves`);
      for (const k of step.changed) {
        const forces = step.kind === "replace" && step.replaceKeys.includes(k) ? pc.red(" (forces replacement)") : "";
        const drift = step.drift.includes(k) ? pc.yellow("  (changed outside Cairn)") : "";
        lines.push(`${k}: ${formatValue(step.olds[k], secret(k))} → ${formatValue(step.news[k], secret(k))}${forces}${drift}`);
      }
      break;
    }
    case "read":
      if (step.deferred) lines.push("read during apply (its inputs depend on changes in this plan)");
      break;
    case "wait": {
      if (!step.needed) break;
      if (!step.defaultTimeout) lines.push(`timeout ${formatDuration(step.timeoutMs, { short: true })}`);
      if (step.failWhenText) lines.push(`fails at once when ${step.failWhenText}`);
      const after = step.deps.filter((d) => d !== step.target).map(nameOf);
      if (after.length) lines.push(`after ${after.join(", ")}`);
      lines.push(step.why);
      break;
    }
    case "delete":
    case "same":
      break;
    default: {
      const never: never = step;
      return [String(never)];
    }
  }
  return lines;
}

/** The human-readable plan: a line per step (with attribute details), the outputs, and a count. */
export function renderPlan(plan: Plan): string {
  const out: string[] = [];
  const shown = plan.steps.filter((s) => s.kind !== "same" || s.movedFrom);
  if (!hasChanges(plan)) out.push(pc.green(`No changes. Stack "${plan.stack}" is up to date.`));
  if (plan.drift.length) out.push(pc.yellow("Changed outside Cairn (found by refresh):"), ...renderRefresh(plan.drift).split("\n").map((l) => `  ${l}`), "");
  for (const s of shown) {
    out.push(stepLine(s));
    for (const d of details(s)) out.push(`      ${pc.dim(d)}`);
  }
  const outputs = Object.entries(plan.outputs);
  if (outputs.length && plan.mode !== "destroy") {
    out.push("", "Outputs:");
    for (const [k, v] of outputs) out.push(`  ${k}: ${formatValue(v, plan.secretOutputs.includes(k))}`);
  }
  for (const d of plan.diagnostics) out.push(`${d.severity === "error" ? pc.red("error:") : pc.yellow("warning:")} ${d.message}`);
  const c = countSteps(plan.steps);
  const parts = [
    c.create && `${c.create} to create`,
    c.update && `${c.update} to update`,
    c.replace && `${c.replace} to replace`,
    c.delete && `${c.delete} to delete`,
    c.read && `${c.read} to read`,
  ].filter(Boolean);
  const waits = plan.steps.filter((s) => s.kind === "wait" && s.needed).length;
  if (waits) parts.push(`${waits} wait${waits === 1 ? "" : "s"}`);
  if (hasChanges(plan)) out.push("", `Plan: ${parts.join(", ") || "no resource changes (stack outputs or state records only)"}.`);
  return out.join("\n");
}

/** The plan as JSON-safe data: secrets masked, unknowns as `{ "$unknown": true }`. */
export function planToJson(plan: Plan): unknown {
  const steps = plan.steps.map((s) => {
    const keys = "secretKeys" in s ? s.secretKeys : [];
    const copy: Record<string, unknown> = { ...s };
    for (const f of ["news", "olds", "outputs"]) if (f in copy) copy[f] = maskProps(copy[f] as Record<string, unknown>, keys);
    return copy;
  });
  return JSON.parse(JSON.stringify({ ...plan, steps, outputs: maskProps(plan.outputs, plan.secretOutputs), hasChanges: hasChanges(plan), waits: waitsReadyNow(plan) }));
}

const PAST: Record<UnitKind, string> = { create: "created", update: "updated", replace: "replaced", delete: "deleted", forget: "forgotten (retainOnDelete: left in the cloud)", read: "read", wait: "waited", "delete-replaced": "deleted (replaced)" };

/** The name part of a URN (the last `::` segment). */
function nameOf(urn: string): string {
  return urn.slice(urn.lastIndexOf("::") + 2);
}

/** One line for an engine event (for terminals and CI logs), or undefined for events not worth a line. */
export function renderEvent(e: EngineEvent): string | undefined {
  // A wait's own step lines add nothing: "wait-ended" says it, with the observed values.
  if ((e.type === "step-succeeded" || e.type === "step-failed") && e.kind === "wait") return undefined;
  switch (e.type) {
    case "step-started":
    case "wait-polled": // drawn live by WaitProgress
      return undefined;
    case "wait-ended":
      return waitEndedLine(e);
    case "step-succeeded":
      return `${pc.green("✓")} ${PAST[e.kind]} ${e.urn} ${pc.dim(`(${formatDuration(e.durationMs)})`)}`;
    case "step-failed":
      return `${pc.red("✗")} ${e.kind} ${e.urn} failed: ${e.error}`;
    case "step-skipped":
      return `${pc.yellow("-")} skipped ${e.urn}: ${e.reason}`;
    case "step-retrying":
      return `${pc.yellow("↻")} ${e.kind} ${e.urn}: attempt ${e.attempt} failed (${e.error}); retrying in ${formatDuration(e.delayMs)}`;
    case "diagnostic":
      return `${e.severity === "error" ? pc.red("error:") : e.severity === "warning" ? pc.yellow("warning:") : pc.dim("info:")} ${e.message}`;
    case "summary": {
      const s = e.summary;
      const done = Object.entries(s.done).map(([k, n]) => `${n} ${PAST[k as UnitKind]}`);
      const parts = [...done, s.failed && pc.red(`${s.failed} failed`), s.skipped && pc.yellow(`${s.skipped} skipped`)].filter(Boolean);
      return `\n${s.ok ? pc.green("Done") : pc.red("Failed")}: ${parts.join(", ") || "nothing to do"} ${pc.dim(`(${formatDuration(s.durationMs)})`)}`;
    }
    default: {
      const never: never = e;
      return String(never);
    }
  }
}

/** `✓ > issued  ISSUED [waited 3m12s]`, or the outcome's message when the wait did not succeed. */
export function waitEndedLine(e: Extract<EngineEvent, { type: "wait-ended" }>): string {
  const o = e.outcome;
  if (o.kind === "satisfied") return `${pc.green("✓")} ${pc.blue(">")} ${e.name}  ${pc.dim(`[waited ${formatDuration(o.elapsedMs)}]`)}  ${pc.dim(`(${formatObserved(o.observed)})`)}`;
  if (o.kind === "dependency-failed") return `${pc.yellow("-")} ${pc.blue(">")} ${e.message}`;
  return `${pc.red("✗")} ${pc.blue(">")} ${e.message}`;
}

/** Lines describing refresh findings. */
export function renderRefresh(changes: RefreshChange[]): string {
  if (changes.length === 0) return pc.green("No drift: every resource matches the state.");
  return changes
    .map((c) => (c.kind === "gone" ? `${pc.red("- gone")}  ${c.urn} (deleted outside Cairn; it will be removed from state)` : `${pc.yellow("~ drift")} ${c.urn}: ${c.changed.join(", ")}`))
    .join("\n");
}
