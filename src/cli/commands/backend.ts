import { STORED_BACKEND_SCHEMES } from "../../state/backend-url.js";
import { InvalidArgumentError, type Command } from "commander";
import pc from "picocolors";
import type { Stack } from "../../stack/stack.js";
import type { HistoryEntry } from "../../state/backend.js";
import type { Io } from "../io.js";
import { confirmEdit, yesEditOption } from "./edit-confirm.js";
import { refuseForgetfulBackend } from "../context.js";

/** What the state-backend commands need from the CLI. */
export interface BackendCommandsContext {
  /** The stack the command's global options name. */
  stackFor: (cmd: Command) => { stack: Stack };
  io: Io;
}

function versionArg(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError(`a version is a whole number from \`state history\` (got "${v}")`);
  return n;
}

function size(bytes: number): string {
  return bytes < 1024 ? `${bytes} B` : bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/**
 * The state's versions as a table, oldest first, the current one marked.
 * @example renderHistory(await stack.history())
 */
export function renderHistory(entries: HistoryEntry[]): string {
  if (entries.length === 0) return "The stack has no stored versions yet.";
  const rows = entries.map((h) => [
    `${h.version}${h.current ? " (current)" : ""}`,
    h.writtenAt ?? "",
    h.resources === undefined ? "" : String(h.resources),
    size(h.bytes),
    h.writtenBy ?? "",
  ]);
  const head = ["version", "written", "resources", "size", "by"];
  const widths = head.map((t, i) => Math.max(t.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i]!)).join("  ").trimEnd();
  return [pc.bold(line(head)), ...rows.map(line)].join("\n");
}

/**
 * Registers `state history`, `state rollback <version>` and `state migrate --to <url>` under the CLI's
 * `state` command.
 *
 * @example registerBackendCommands(cli, { stackFor, io });
 */
export function registerBackendCommands(cli: Command, ctx: BackendCommandsContext): void {
  const { stackFor, io } = ctx;
  const state = cli.commands.find((c) => c.name() === "state") ?? cli.command("state").description("inspect the state");

  state
    .command("history")
    .description("list the stored versions of the stack's state")
    .option("--json", "print as JSON")
    .action(async (o, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const entries = await stack.history();
      io.out(o.json ? JSON.stringify(entries, null, 2) : renderHistory(entries));
    });

  state
    .command("rollback")
    .description("make a stored version current again (as a new version); changes nothing in the cloud")
    .argument("<version>", "a version from `state history`", versionArg)
    .addOption(yesEditOption())
    .action(async (version: number, o: { yes?: boolean }, cmd: Command) => {
      const { stack } = stackFor(cmd);
      const what = `state rollback will make version ${version} of stack "${stack.name}" current again, as a new version (the current one stays in history).`;
      if (!(await confirmEdit(ctx, cmd, o, [what], `Roll back to version ${version}?`))) return;
      const r = await stack.rollback(version);
      io.out(
        `Rolled back stack "${stack.name}" to version ${r.from} (${r.resources} resources): it is now version ${r.version}. ` +
          `The cloud was not changed: run preview to see what up would change to match this state.`,
      );
    });

  state
    .command("migrate")
    .description("copy the stack (state, journal, config, history) to another backend, under both locks, and verify the copy")
    .requiredOption("--to <url>", `the target backend: ${STORED_BACKEND_SCHEMES}`)
    .action(async (o: { to: string }, cmd: Command) => {
      refuseForgetfulBackend(o.to, "--to", cmd);
      const { stack } = stackFor(cmd);
      const r = await stack.migrate(o.to);
      io.out(
        `Copied stack "${stack.name}" from ${r.from} to ${r.to}: version ${r.version} (${r.resources} resources), ${r.versions} stored version(s), ` +
          `${r.journalRecords} journal record(s), ${r.configKeys} config key(s); the copy was read back and matches.`,
      );
      io.out(pc.dim(`The source was left as it was. Use --backend ${r.to} (or CAIRN_BACKEND) from now on, and remove the old state once you no longer need it.`));
    });
}
