import { Option, type Command } from "commander";
import { hasChanges } from "../../plan/plan.js";
import type { CliContext } from "../context.js";
import { addPlanOptions, diffOption, jsonOption, planOptions, yesOption, type PlanFlags } from "./options.js";
import { readPlanFile } from "../../plan/saved-plan.js";
import type { Plan } from "../../plan/plan.js";
import type { RoundInfo } from "../../stack/options.js";
import { roundQuestion } from "../../stack/rounds.js";
import { UsageError } from "../errors.js";

interface UpOptions extends PlanFlags {
  yes?: boolean;
  json?: boolean;
  diff?: boolean;
  plan?: string;
  allowDataLoss?: string[];
}

/**
 * `up`: plans, confirms, and applies exactly that plan; creates the stack when it is new.
 * @example registerUp(root, ctx); // `up --yes --diff`
 */
export function registerUp(root: Command, ctx: CliContext): void {
  const cmd = root
    .command("up")
    .description("plan, confirm and apply exactly that plan (creates the stack if new); deferred parts follow in later rounds of the same run")
    .addOption(yesOption("apply"))
    .addOption(diffOption())
    .addOption(jsonOption())
    .option("--plan <file>", "apply exactly the plan saved by `preview --out <file>` (refused if state or program moved on)")
    .addOption(
      new Option("--allow-data-loss <name>", "let this resource (name or URN) be replaced or deleted although its stateful object's data goes with it (repeatable)").argParser(
        (v: string, prev: string[] = []) => [...prev, v],
      ),
    );
  addPlanOptions(cmd, "apply").action(async (o: UpOptions, cmd: Command) => {
    const run = ctx.run(cmd, { json: o.json ?? false });
    try {
      await ctx.newStackNote(cmd, run);
      const confirm = async (plan: Plan, info?: RoundInfo) => {
        const round = info?.round ?? 1;
        // A later round's plan follows the stack's note that says which round it is.
        run.showPlan(plan, o.diff ?? false, { refreshed: (o.refresh ?? false) && round === 1 });
        const question = roundQuestion(plan, round);
        return question === undefined ? hasChanges(plan) : ctx.confirm(cmd, plan, o, question);
      };
      if (o.plan && (o.target?.length || o.replace?.length || o.refresh || o.refreshOnly)) {
        throw new UsageError("--plan applies a saved plan as it is: --target, --replace, --refresh and --refresh-only belong to the preview that made it.", cmd);
      }
      const allow = o.allowDataLoss ? { allowDataLoss: o.allowDataLoss } : {};
      const r = o.plan ? await run.stack.apply(await readPlanFile(o.plan, ctx.io.env.CAIRN_PASSPHRASE), { confirm, ...allow }) : await run.stack.up({ ...planOptions(o), confirm, ...allow });
      if (!r.summary) {
        if (hasChanges(r.plan) && !run.json && !ctx.signal.aborted) run.reporter.print(run.c.yellow("Cancelled: nothing was changed."));
        return ctx.finishApply(run, undefined, hasChanges(r.plan));
      }
      if (r.outputs) run.showOutputs(r.outputs, r.secretOutputs ?? r.plan.secretOutputs);
      ctx.finishApply(run, r.summary, true);
    } finally {
      run.close();
    }
  });
}
