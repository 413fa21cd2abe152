import type { Command } from "commander";
import { changesBeyondObserved, isPartial } from "../../plan/plan.js";
import type { CliContext } from "../context.js";
import { permissionNotes, policyText } from "../render/permissions.js";
import { EXIT } from "../errors.js";
import { addPlanOptions, diffOption, jsonOption, planOptions, type PlanFlags } from "./options.js";
import { writePlanFile } from "../../plan/saved-plan.js";
import type { Plan } from "../../plan/plan.js";
import type { Run } from "../context.js";
import { awsSetupWarnings } from "../aws-setup.js";
import { writePlanGraph, writePlanPage } from "../graph-files.js";

interface PreviewOptions extends PlanFlags {
  json?: boolean;
  diff?: boolean;
  expectNoChanges?: boolean;
  out?: string;
  permissions?: boolean;
  graph?: string;
  html?: string;
}

/** `--permissions`: the policy document on stdout (alone, to save as it is), what it leaves out on stderr. */
function showPermissions(run: Run, plan: Plan, read: readonly string[]): void {
  const needed = run.stack.permissions(plan, { read });
  run.reporter.print(policyText(needed), "out");
  for (const note of permissionNotes(needed)) run.reporter.print(run.c.dim(note), "err");
}

/** `--graph`, `--html`: the plan as a picture and as a page, its text through the run's redaction. */
async function writePictures(run: Run, plan: Plan, o: PreviewOptions): Promise<void> {
  const redact = (t: string) => run.stack.redact(t);
  if (o.graph) {
    await writePlanGraph(o.graph, plan, redact);
    run.reporter.print(`Wrote the plan's graph to ${o.graph}.`, "err");
  }
  if (o.html) {
    await writePlanPage(o.html, plan, redact);
    run.reporter.print(`Wrote the plan's page to ${o.html}.`, "err");
  }
}

/**
 * `preview`: plans and prints, changing nothing.
 * @example registerPreview(root, ctx); // `preview --diff --expect-no-changes`
 */
export function registerPreview(root: Command, ctx: CliContext): void {
  const cmd = root
    .command("preview")
    .description("show what up would do, changing nothing (exit 3 when parts are deferred to a later round of `up`)")
    .addOption(diffOption())
    .addOption(jsonOption())
    .option("--expect-no-changes", "exit 1 if the plan has changes (for CI drift checks)")
    .option("--out <file>", "save the plan to a file that `up --plan <file>` applies exactly (secrets encrypted)")
    .option("--permissions", "print the IAM policy the plan needs (its creates, updates, deletes and reads) on stdout, the plan on stderr; with --json, the plan event has it anyway")
    .option("--graph <file>", "also write the plan as a graph: .svg, .mmd (Mermaid) or DOT, by the file's extension")
    .option("--html <file>", "also write the plan as one self-contained page for reviews (summary, graph, diffs, waits, deferred parts)");
  addPlanOptions(cmd, "plan").action(async (o: PreviewOptions, cmd: Command) => {
    const run = ctx.run(cmd, { json: o.json ?? false });
    try {
      // With --permissions stdout holds the policy alone: everything else goes to stderr.
      const policyOnly = (o.permissions ?? false) && !o.json;
      await ctx.newStackNote(cmd, run, policyOnly ? "err" : "out");
      const plan = await run.stack.preview(planOptions(o));
      // A refresh read every object in state (--refresh-only plans no step that says so).
      const read = o.refresh || o.refreshOnly ? [...new Set((await run.stack.resources()).map((r) => r.type))] : [];
      run.showPlan(plan, o.diff ?? false, { to: policyOnly ? "err" : "out", read });
      for (const w of awsSetupWarnings(plan, ctx.io.env)) run.reporter.print(run.c.yellow(`warning: ${w}`), "err");
      if (policyOnly) showPermissions(run, plan, read);
      if (o.out && !plan.diagnostics.some((d) => d.severity === "error")) {
        await writePlanFile(o.out, plan, ctx.io.env.CAIRN_PASSPHRASE);
        run.reporter.print(`Saved the plan to ${o.out}: apply exactly it with \`${ctx.command} up --plan ${o.out}\`.`, "err");
      }
      await writePictures(run, plan, o);
      if (plan.diagnostics.some((d) => d.severity === "error")) ctx.exitCode = EXIT.failure;
      else if (o.expectNoChanges && changesBeyondObserved(plan)) {
        run.reporter.print(run.c.red("error: the plan has changes, and --expect-no-changes was given"), "err");
        ctx.exitCode = EXIT.failure;
      } else if (isPartial(plan)) ctx.exitCode = EXIT.partial; // parts wait for values only the apply makes known

    } finally {
      run.close();
    }
  });
}
