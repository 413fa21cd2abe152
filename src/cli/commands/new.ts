import type { Command } from "commander";
import { relative } from "node:path";
import type { CliContext } from "../context.js";
import { listTemplates, scaffold } from "../templates.js";
import { typeScriptRunner } from "../type-stripping.js";

/**
 * `new <template> [dir]`: copies a project template (infra.ts, its unit tests, package.json, tsconfig.json,
 * a README), fills in the project's name, and prints the next commands. Needs no program file.
 *
 * @example registerNew(root, ctx); // npx cairn-iac new quickstart my-app
 */
export function registerNew(root: Command, ctx: CliContext): void {
  root
    .command("new")
    .argument("[template]", "the template to start from (omit it to list them)")
    .argument("[dir]", "the new project's folder (default: the template's name)")
    .description("create a project from a template: a program, its unit tests and the files to run them")
    .option("--name <name>", "the project's name (default: the folder's name)")
    .action(async (template: string | undefined, dir: string | undefined, o: { name?: string }) => {
      if (template === undefined) {
        ctx.io.out("Templates (npx cairn-iac new <template> [dir]):");
        for (const t of await listTemplates()) ctx.io.out(`  ${t.name.padEnd(16)} ${t.description}`);
        return;
      }
      const made = await scaffold({ template, dir: dir ?? template, ...(o.name ? { name: o.name } : {}) });
      const shown = relative(process.cwd(), made.dir) || ".";
      ctx.io.out(`Created ${made.name} in ${shown} from the ${made.template.name} template (${made.files.length} files).`);
      ctx.io.out("");
      ctx.io.out("Next:");
      // {{run}}: how this Node runs a TypeScript file (`node` where it strips types, else `npx tsx`).
      const next = made.template.next.map((s) => s.replaceAll("{{run}}", typeScriptRunner()));
      const steps = [...(shown === "." ? [] : [`cd ${shown}`]), "npm install", "npm test # its unit tests (infra.test.ts): no cloud, no credentials", ...next];
      for (const s of alignComments(steps)) ctx.io.out(`  ${s}`);
    });
}

/** Lines `command # comment`, with every comment starting in one column. */
function alignComments(lines: string[]): string[] {
  const split = lines.map((l) => /^(.*?)\s+(# .*)$/.exec(l) ?? [l, l, ""]);
  const width = Math.max(...split.filter((m) => m[2]).map((m) => m[1]!.length)) + 2;
  return split.map(([, command, comment]) => (comment ? `${command!.padEnd(width)}${comment}` : command!));
}
