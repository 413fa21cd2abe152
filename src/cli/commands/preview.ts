import type { Command } from "commander";
import { changesBeyondObserved, isPartial } from "../../plan/plan.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../errors.js";
import { addPlanOptions, diffOption, jsonOption, planOptions, type PlanFlags } from "./options.js";
import { writePlanFile } from "../../plan/saved-plan.js";

interface PreviewOptions extends PlanFlags {
  json?: boolean;
  diff?: boolean;
  expectNoChanges?: boolean;
  out?: string;
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
    .option("--out <file>", "save the plan to a file that `up --plan <file>` applies exactly (secrets encrypted)");
  addPlanOptions(cmd, "plan").action(async (o: PreviewOptions, cmd: Command) => {
    const run = ctx.run(cmd, { json: o.json ?? false });
    try {
      await ctx.newStackNote(cmd, run);
      const plan = await run.stack.preview(planOptions(o));
      run.showPlan(plan, o.diff ?? false);
      if (o.out && !plan.diagnostics.some((d) => d.severity === "error")) {
        await writePlanFile(o.out, plan, ctx.io.env.CAIRN_PASSPHRASE);
        run.reporter.print(`Saved the plan to ${o.out}: apply exactly it with \`${ctx.command} up --plan ${o.out}\`.`, "err");
      }
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
