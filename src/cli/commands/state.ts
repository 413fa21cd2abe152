import type { Command } from "commander";
import type { CliContext } from "../context.js";

/**
 * `state`: the group other state commands join (`state list` lives here).
 * @example registerState(root, ctx).command("show <urn>")…
 */
export function registerState(root: Command, ctx: CliContext): Command {
  const state = root.command("state").description("inspect and edit the stack's state");
  state
    .command("list")
    .description("list the resources in state")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const c = ctx.colors(cmd);
      const rs = await ctx.stack(cmd).resources();
      if (o.json) {
        return ctx.io.out(JSON.stringify(rs.map((r) => ({ urn: r.urn, type: r.type, id: r.id, ...(r.tainted ? { tainted: true } : {}), ...(r.protect ? { protect: true } : {}) })), null, 2));
      }
      if (rs.length === 0) return ctx.io.out("The stack has no resources.");
      for (const r of rs) ctx.io.out(`${r.urn}  ${c.dim(r.id)}${r.tainted ? c.red(" (tainted)") : ""}${r.protect ? c.cyan(" (protected)") : ""}`);
    });
  return state;
}
