import type { Command } from "commander";
import type { CliContext } from "../context.js";

/**
 * `unlock`: removes a lock left by a run that was killed.
 * @example registerUnlock(root, ctx); // `unlock --stack dev`
 */
export function registerUnlock(root: Command, ctx: CliContext): void {
  root
    .command("unlock")
    .description("remove the stack's lock left by a run that was killed (refused while its holder may still run)")
    .option("--force", "remove it even if its holder may still be running (warns, naming holder and age)")
    .action(async (o: { force?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const r = await ctx.stack(cmd).unlock({ force: o.force ?? false });
      if (r.warning) ctx.io.err(`warning: ${r.warning}`);
      ctx.io.out(r.removed ? `Removed the lock${r.holder ? ` held by pid ${r.holder.pid} on ${r.holder.host} since ${r.holder.since}` : ""}.` : "The stack was not locked.");
    });
}
