import type { Command } from "commander";
import { hasChanges } from "../../plan/plan.js";
import type { CliContext } from "../context.js";
import { EXIT } from "../errors.js";
import { addPlanOptions, diffOption, jsonOption, planOptions, yesOption } from "./options.js";

interface UpOptions {
  yes?: boolean;
  json?: boolean;
  diff?: boolean;
  target?: string[];
  replace?: string[];
  refresh?: boolean;
}

/**
 * `up`: plans, confirms, and applies exactly that plan; creates the stack when it is new.
 * @example registerUp(root, ctx); // `up --yes --diff`
 */
export function registerUp(root: Command, ctx: CliContext): void {
  const cmd = root
    .command("up")
    .description("plan, confirm and apply exactly that plan (creates the stack if new)")
    .addOption(yesOption("apply"))
    .addOption(diffOption())
    .addOption(jsonOption());
  addPlanOptions(cmd, "apply").action(async (o: UpOptions, cmd: Command) => {
    const run = ctx.run(cmd, { json: o.json ?? false });
    try {
      await ctx.newStackNote(cmd, run);
      const r = await run.stack.up({
        ...planOptions(o),
        confirm: async (plan) => {
          run.showPlan(plan, o.diff ?? false);
          return ctx.confirm(cmd, plan, o, `Apply these changes to stack "${plan.stack}"?`);
        },
      });
      if (!r.summary) {
        if (hasChanges(r.plan) && !run.json) run.reporter.print(run.c.yellow("Cancelled: nothing was changed."));
        return;
      }
      if (r.outputs) run.showOutputs(r.outputs, r.plan.secretOutputs);
      if (!r.summary.ok) ctx.exitCode = ctx.signal.aborted ? EXIT.interrupted : EXIT.failure;
    } finally {
      run.close();
    }
  });
}
