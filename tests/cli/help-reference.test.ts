import { describe, expect, it } from "vitest";
import { readFileSync } from "node:fs";
import type { Command } from "commander";
import { buildCli } from "../../src/cli/cli.js";
import { CliContext } from "../../src/cli/context.js";
import { run } from "./harness.js";

// The command-line reference, docs/reference/cli.md (the README links it): its tables must be the CLI's own.
const reference = readFileSync(new URL("../../docs/reference/cli.md", import.meta.url), "utf8");
/** The text from `start` to the next `end`; throws when `start` is missing, so a renamed heading fails loudly. */
function section(start: string, end: string): string {
  const at = reference.indexOf(start);
  if (at < 0) throw new Error(`docs/reference/cli.md has no "${start}"`);
  return reference.slice(at, reference.indexOf(end, at));
}
const ticks = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** Every runnable command of the tree: its path with its arguments (`config set <key> <value>`), options and description. */
function leaves(cmd: Command, prefix: string[] = []): { usage: string; options: string[]; description: string }[] {
  return cmd.commands.flatMap((c) => {
    const path = [...prefix, c.name()];
    if (c.commands.length) return leaves(c, path);
    const args = c.registeredArguments.map((a) => (a.required ? `<${a.name()}>` : `[${a.name()}]`));
    return [{ usage: [...path, ...args].join(" "), options: c.options.map((o) => o.flags), description: c.description() }];
  });
}

const tree = () => buildCli(new CliContext({} as never, undefined, new AbortController().signal, "npx cairn"), "npx cairn", "Cairn");

describe("the CLI reference's command table is the CLI", () => {
  const table = new Map(
    section("## Commands", "Options of every command")
      .split("\n")
      .map((l) => l.split("|").map((c) => c.trim()))
      .filter((cells) => /^`.+`$/.test(cells[1] ?? ""))
      .map((cells) => [ticks(cells[1]!)[0]!, { options: ticks(cells[2]!), description: cells[3]! }]),
  );

  it("lists every command with exactly its options and its description", () => {
    const commands = leaves(tree());
    expect([...table.keys()].sort()).toEqual(commands.map((c) => c.usage).sort());
    for (const c of commands) {
      expect(table.get(c.usage)?.options.sort(), c.usage).toEqual(c.options.sort());
      expect(table.get(c.usage)?.description, c.usage).toBe(c.description);
    }
  });

  it("lists every option every command takes", () => {
    const documented = ticks(section("Options of every command", "\n\n")).filter((t) => t.startsWith("-"));
    expect(documented.sort()).toEqual([...tree().options.map((o) => o.flags), "-h, --help"].sort());
  });

  it("cairn --help shows each command with the reference's description", async () => {
    const help = (await run(undefined, ["--help"])).stdout.replace(/\s+/g, " ");
    for (const name of tree().commands.map((c) => c.name())) {
      const description = tree().commands.find((c) => c.name() === name)!.description();
      expect(help, name).toContain(description);
    }
    expect(help).toContain("Usage: npx cairn [program file] [options] [command]");
  });
});
