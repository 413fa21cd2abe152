import type { Command } from "commander";
import type { StackGraph } from "../../stack/readers.js";
import { stackText } from "../../state/read-outputs.js";
import type { Colors } from "../../core/colors.js";
import type { CliContext } from "../context.js";

/**
 * The reads between stacks, one line per reader and stack read (`app/prod → network/prod`), then the
 * stacks that read nothing and are read by none, then those whose state could not be searched.
 *
 * @example renderStackGraph(graph, colors(false)) // "app/prod  reads  network/prod\n…"
 */
export function renderStackGraph(g: StackGraph, c: Colors): string {
  const lines: string[] = [c.bold(`Stacks in ${g.backend}:`)];
  if (g.stacks.length === 0 && g.unreadable.length === 0) return `${lines[0]}\n  none yet: \`up\` creates one.`;
  const linked = new Set<string>();
  for (const r of g.reads) {
    const elsewhere = r.backend && r.backend !== g.backend ? ` (in ${r.backend})` : "";
    lines.push(`  ${stackText(r.reader)}  reads  ${stackText(r.target)}${elsewhere}`);
    linked.add(stackText(r.reader)).add(stackText(r.target));
  }
  if (g.reads.length === 0) lines.push("  no stack reads another (stackOutputs).");
  const alone = g.stacks.map(stackText).filter((s) => !linked.has(s));
  if (alone.length) lines.push(c.dim(`  reads nothing and read by none: ${alone.join(", ")}`));
  for (const u of g.unreadable) lines.push(c.yellow(`  ${stackText(u.stack)}: its state could not be read (${u.error}); what it reads is unknown.`));
  return lines.join("\n");
}

/**
 * `stack graph`: which stacks of the selected backend read which (through `stackOutputs`), from the
 * references recorded in their states by their last `up`. Reads no secret: needs no passphrase.
 *
 * @example registerStackGraph(stackCommand, ctx); // `stack graph --json`
 */
export function registerStackGraph(parent: Command, ctx: CliContext): void {
  parent
    .command("graph")
    .description("show which stacks of the backend read which (stackOutputs), as their last up recorded")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }, cmd: Command) => {
      const graph = await ctx.stack(cmd).stackGraph();
      ctx.io.out(o.json ? JSON.stringify(graph, null, 2) : renderStackGraph(graph, ctx.colors(cmd)));
    });
}
