import type { Command } from "commander";
import { Option } from "commander";
import type { Urn } from "../../core/urn.js";
import { hasChanges } from "../../plan/plan.js";
import type { CliContext } from "../context.js";
import { diffOption, jsonOption, yesOption } from "./options.js";

interface DestroyOptions {
  yes?: boolean;
  json?: boolean;
  diff?: boolean;
  target?: string[];
  force?: boolean;
}

/**
 * `destroy`: deletes every resource of the stack (or the targets), in reverse dependency order.
 * @example registerDestroy(root, ctx); // `destroy --yes --target <urn>`
 */
export function registerDestroy(root: Command, ctx: CliContext): void {
  root
    .command("destroy")
    .description("delete every resource of the stack, in reverse dependency order (refused while another stack reads its outputs, unless --force)")
    .addOption(yesOption("destroy"))
    .addOption(diffOption())
    .addOption(jsonOption())
    .addOption(new Option("--target <urn>", "destroy only this resource (repeatable)").argParser((v: string, prev: string[] = []) => [...prev, v]))
    .option("--force", "destroy even though other stacks read this stack's outputs (stackOutputs; see `stack graph`)")
    .action(async (o: DestroyOptions, cmd: Command) => {
      await ctx.requireStack(cmd);
      const run = ctx.run(cmd, { json: o.json ?? false });
      try {
        const r = await run.stack.destroy({
          targets: (o.target ?? []) as Urn[],
          force: o.force ?? false,
          confirm: async (plan) => {
            run.showPlan(plan, o.diff ?? false);
            return ctx.confirm(cmd, plan, o, `Destroy these resources of stack "${plan.stack}"?`);
          },
        });
        if (!r.summary && hasChanges(r.plan) && !run.json && !ctx.signal.aborted) run.reporter.print(run.c.yellow("Cancelled: nothing was changed."));
        ctx.finishApply(run, r.summary, hasChanges(r.plan));
      } finally {
        run.close();
      }
    });
}
