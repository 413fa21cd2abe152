import type { Command } from "commander";
import type { CliContext } from "../context.js";

/**
 * `unlock`: removes a lock left by a run that was killed.
 * @example registerUnlock(root, ctx); // `unlock --stack dev`
 */
export function registerUnlock(root: Command, ctx: CliContext): void {
  root
    .command("unlock")
    .description("remove the stack's lock left by a run that was killed")
    .action(async (_o: unknown, cmd: Command) => {
      await ctx.requireStack(cmd);
      const r = await ctx.stack(cmd).unlock();
      ctx.io.out(r.removed ? `Removed the lock${r.holder ? ` held by pid ${r.holder.pid} on ${r.holder.host} since ${r.holder.since}` : ""}.` : "The stack was not locked.");
    });
}
