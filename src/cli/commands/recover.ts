import type { Command } from "commander";
import type { RecoveryPlan } from "../../state/recover.js";
import type { CliContext } from "../context.js";
import { confirmEdit, yesEditOption } from "./edit-confirm.js";
import { stateGroup } from "./state-edit.js";

/**
 * What `state recover` found and would write, one fact per line.
 * @example renderRecovery("dev", plan).join("\n")
 */
export function renderRecovery(stack: string, plan: RecoveryPlan): string[] {
  const lines = [`state recover found stack "${stack}" damaged:`, ...plan.damaged.map((d) => `  - ${d}`)];
  const base = plan.base && (plan.base.name === `version ${plan.base.serial}` ? `stored version ${plan.base.serial}` : `${plan.base.name} (version ${plan.base.serial})`);
  lines.push(base ? `It rebuilds the state from ${base}` : "It rebuilds the state from nothing stored (no readable version)");
  lines.push(`  + ${plan.records} journal record(s) after it: ${plan.resources.length} resource(s), ${plan.removed.length} removed.`);
  for (const r of plan.resources) lines.push(`    ${r.from === "journal" ? "~" : " "} ${r.urn}${r.from === "journal" ? "  (from the journal)" : ""}`);
  for (const urn of plan.removed) lines.push(`    - ${urn}  (removed by the journal)`);
  if (plan.pending.length) lines.push(`${plan.pending.length} interrupted operation(s) are kept: the next run checks their objects.`);
  for (const n of plan.notes) lines.push(`Note: ${n}`);
  lines.push(`It is written as version ${plan.serial}; the damaged parts are kept aside, and the cloud is not touched.`);
  return lines;
}

/**
 * `state recover`: rebuilds a damaged state from its journal and stored versions, shows it, and writes it
 * once confirmed (or with `--yes`). Reads only the stored state: the program is not evaluated.
 *
 * @example registerRecover(root, ctx); // `state recover --yes`
 */
export function registerRecover(root: Command, ctx: CliContext): void {
  stateGroup(root)
    .command("recover")
    .description("rebuild a damaged state from its journal and stored versions (shows what it recovered; writes only once confirmed)")
    .addOption(yesEditOption())
    .action(async (o: { yes?: boolean }, cmd: Command) => {
      const stack = ctx.stack(cmd);
      const r = await stack.recoverState({ confirm: (plan) => confirmEdit(ctx, cmd, o, renderRecovery(stack.name, plan), `Write the recovered state of stack "${stack.name}"?`) });
      if (!r.needed) return ctx.io.out(`The state of stack "${stack.name}" reads fine: there is nothing to recover.`);
      if (r.applied) ctx.io.out(`Recovered stack "${stack.name}" as version ${r.plan!.serial}. Run preview next (or refresh, if a note above says resources may be stale).`);
    });
}
