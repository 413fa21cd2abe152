import { STORED_BACKEND_SCHEMES } from "../state/backend-url.js";
import { Command, Option } from "commander";
import type { CliContext } from "./context.js";
import { notEmptyArg, parallelArg, retryDeadlineArg } from "./commands/options.js";
import { registerPreview } from "./commands/preview.js";
import { registerUp } from "./commands/up.js";
import { registerDestroy } from "./commands/destroy.js";
import { registerRefresh } from "./commands/refresh.js";
import { registerOutputs } from "./commands/outputs.js";
import { registerState } from "./commands/state.js";
import { registerStateEdit } from "./commands/state-edit.js";
import { registerStack } from "./commands/stack.js";
import { registerBackendCommands } from "./commands/backend.js";
import { registerUnlock } from "./commands/unlock.js";
import { registerConfig } from "./commands/config.js";
import { registerNew } from "./commands/new.js";
import { registerFakeAws } from "./commands/fake-aws.js";
import { registerRecover } from "./commands/recover.js";
import { registerGraph } from "./commands/graph.js";
import { cairnVersion } from "./version.js";

/**
 * The command tree: the options every command takes, then one registration per command (each in
 * `commands/<name>.ts`). A new command is a file and a line here.
 *
 * @example await buildCli(ctx, "npx tsx infra.ts", 'Cairn program "hello"').parseAsync(["preview"], { from: "user" });
 */
export function buildCli(ctx: CliContext, name: string, description: string): Command {
  const root = new Command(name)
    .description(description)
    .version(cairnVersion(), "-V, --version", "print Cairn's version")
    .addOption(new Option("--stack <name>", "stack to operate on").env("CAIRN_STACK").default("dev"))
    .addOption(new Option("--state-dir <dir>", "state folder (default: CAIRN_STATE_DIR, else .cairn beside the program)").argParser(notEmptyArg))
    .addOption(new Option("--backend <url>", `where state lives: ${STORED_BACKEND_SCHEMES} (default: CAIRN_BACKEND)`).argParser(notEmptyArg))
    .addOption(new Option("--parallel <n>", "provider calls at once (default: 10)").argParser(parallelArg))
    .addOption(new Option("--retry-deadline <duration>", "how long a provider call retries transient failures, from its first failure (default: 5m)").argParser(retryDeadlineArg))
    .option("--from-backup", "if the state snapshot is damaged, use its previous version (changes recorded after it may be forgotten; see `state recover`)")
    .option("--forget-interrupted <urn>", "forget an interrupted operation of this resource instead of settling it (repeatable; when its provider says it cannot tell what became of it)", (v: string, all: string[] = []) => [...all, v])
    .option("--no-color", "plain text without colours (also: NO_COLOR=1)")
    .option("--debug", "print every provider call (duration, outcome) and plan decision (reason) to stderr, secrets redacted (also: CAIRN_LOG=debug), and the stack trace of an unexpected error")
    .exitOverride()
    .configureOutput({ writeOut: (s) => ctx.io.out(s.trimEnd()), writeErr: (s) => ctx.io.err(s.trimEnd()) })
    .showHelpAfterError()
    .showSuggestionAfterError();
  registerPreview(root, ctx);
  registerUp(root, ctx);
  registerDestroy(root, ctx);
  registerRefresh(root, ctx);
  registerOutputs(root, ctx);
  registerState(root, ctx);
  registerStateEdit(root, ctx);
  registerRecover(root, ctx);
  registerBackendCommands(root, { stackFor: (cmd) => ({ stack: ctx.stack(cmd) }), io: ctx.io });
  registerUnlock(root, ctx);
  registerConfig(root, ctx);
  registerStack(root, ctx);
  registerGraph(root, ctx);
  registerNew(root, ctx);
  registerFakeAws(root, ctx);
  return root;
}
