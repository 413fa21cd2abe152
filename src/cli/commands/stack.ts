import type { Command } from "commander";
import type { StackSummary } from "../../state/backend.js";
import { formatAge, holderAge } from "../../state/lock-holder.js";
import { readStackBackup } from "../../stack/stack-backup.js";
import type { Colors } from "../../core/colors.js";
import type { CliContext } from "../context.js";
import { confirmEdit, yesEditOption } from "./edit-confirm.js";
import { registerStackGraph } from "./stack-graph.js";

/**
 * The stacks as a table: name (the one `--stack` names marked), resources, last update, lock holder.
 * @example renderStacks([{ stack: "dev", exists: true, resources: 3, pending: 0 }], "dev", colors(false))
 */
export function renderStacks(stacks: readonly StackSummary[], current: string, c: Colors): string {
  if (stacks.length === 0) return "This project has no stacks yet: `up` creates one.";
  const rows = stacks.map((s) => [
    `${s.stack}${s.stack === current ? " *" : ""}`,
    `${s.resources}${s.pending ? ` (+${s.pending} interrupted)` : ""}`,
    s.lastUpdate ?? "-",
    s.lockHolder ? `${s.lockHolder.command || "a run"} by pid ${s.lockHolder.pid} on ${s.lockHolder.host}, for ${formatAge(holderAge(s.lockHolder))}` : "-",
  ]);
  const head = ["stack", "resources", "last update", "locked by"];
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((x, i) => x.padEnd(widths[i]!)).join("  ").trimEnd();
  return [c.bold(line(head)), ...rows.map(line), c.dim("* the stack --stack names")].join("\n");
}

/**
 * `stack ls`, `stack rm <name>`, `stack restore <file>`: the project's stacks in the backend.
 * @example registerStack(root, ctx); // `stack rm preview-42 --yes`
 */
export function registerStack(root: Command, ctx: CliContext): void {
  const stack = root.command("stack").description("list, remove and restore the project's stacks; show which stacks read which");
  registerStackGraph(stack, ctx);
  stack
    .command("ls")
    .description("list the project's stacks: resources, last update, lock holder")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }, cmd: Command) => {
      const current = ctx.stack(cmd);
      const all = await current.stackSummaries();
      ctx.io.out(o.json ? JSON.stringify(all.map((s) => ({ ...s, current: s.stack === current.name })), null, 2) : renderStacks(all, current.name, ctx.colors(cmd)));
    });

  stack
    .command("rm")
    .description("remove a stack's state, config and history, keeping a backup file (refused while it has resources, unless --force)")
    .argument("<name>", "the stack to remove")
    .option("--force", "remove it even though it still has resources (their cloud objects stay, managed by nothing)")
    .addOption(yesEditOption())
    .action(async (name: string, o: { force?: boolean; yes?: boolean }, cmd: Command) => {
      const target = ctx.stack(cmd, name);
      const r = await target.removeStack({
        force: o.force ?? false,
        confirm: (s) => {
          const left = s.resources ? `its ${s.resources} resource(s) stay in the cloud, managed by nothing; ` : "";
          const what = `stack rm will remove stack "${name}" from ${target.stateUrl}: ${left}its state, config and history go (a backup file is kept).`;
          return confirmEdit(ctx, cmd, o, [what], `Remove stack "${name}"?`);
        },
      });
      if (!r.removed) return;
      ctx.io.out(`Removed stack "${name}"; nothing in the cloud changed.`);
      if (r.backupFile) ctx.io.out(`A copy of everything removed is in ${r.backupFile}: \`${ctx.command} stack restore ${r.backupFile}\` brings it back.`);
    });

  stack
    .command("restore")
    .description("bring back a stack removed by stack rm, from its backup file")
    .argument("<file>", "the backup file stack rm printed")
    .addOption(yesEditOption())
    .action(async (file: string, o: { yes?: boolean }, cmd: Command) => {
      const data = await readStackBackup(file);
      const target = ctx.stack(cmd, data.stack);
      const r = await target.restoreStack(data, {
        confirm: (d) => confirmEdit(ctx, cmd, o, [`stack restore will write stack "${d.stack}" (${d.history.length} stored version(s)) into ${target.stateUrl}.`], `Restore stack "${d.stack}"?`),
      });
      if (!r.restored) return;
      ctx.io.out(`Restored stack "${r.stack}" (${r.resources ?? 0} resource(s), ${r.versions ?? 0} stored version(s)) into ${target.stateUrl}. Run preview --stack ${r.stack} to compare it with the cloud.`);
    });
}
