import type { Command } from "commander";
import type { RefreshChange } from "../../stack/stack.js";
import type { CliContext } from "../context.js";
import { UsageError } from "../errors.js";
import { renderRefresh } from "../render/events.js";
import { typeOf } from "../../core/urn.js";
import { jsonOption, yesOption } from "./options.js";

const changesToJson = (changes: readonly RefreshChange[]) =>
  changes.map((ch) => ({ kind: ch.kind, urn: ch.urn, resource_type: typeOf(ch.urn), ...(ch.kind === "drift" ? { changed: ch.changed } : {}) }));

/**
 * `refresh`: reads every resource and records what it finds in state; changes nothing in the cloud.
 * @example registerRefresh(root, ctx); // `refresh --yes --json`
 */
export function registerRefresh(root: Command, ctx: CliContext): void {
  root
    .command("refresh")
    .description("read every resource and record drift in state (changes nothing in the cloud)")
    .addOption(yesOption("record"))
    .addOption(jsonOption())
    .action(async (o: { yes?: boolean; json?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const run = ctx.run(cmd, { json: o.json ?? false });
      try {
        const r = await run.stack.refresh({
          confirm: async (changes) => {
            if (!run.json) run.reporter.print(renderRefresh(changes, run.c));
            if (o.yes) return true;
            if (o.json || !ctx.io.stdinIsTTY || !ctx.io.stdoutIsTTY) throw new UsageError("refresh needs confirmation to record what it found: pass --yes.", cmd);
            return ctx.io.confirm("Record these findings in state?");
          },
        });
        if (run.json) run.json.emit({ type: "refresh", changes: changesToJson(r.changes), applied: r.applied });
        else if (r.changes.length === 0) run.reporter.print(renderRefresh([], run.c));
        else if (!r.applied) run.reporter.print(run.c.yellow("Nothing was recorded."));
      } finally {
        run.close();
      }
    });
}
