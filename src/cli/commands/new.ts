import type { Command } from "commander";
import { relative } from "node:path";
import type { CliContext } from "../context.js";
import { listTemplates, scaffold } from "../templates.js";

/**
 * `new <template> [dir]`: copies a project template (infra.ts, its unit tests, package.json, tsconfig.json,
 * a README), fills in the project's name, and prints the next commands. Needs no program file.
 *
 * @example registerNew(root, ctx); // npx cairn new quickstart my-app
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
        ctx.io.out("Templates (npx cairn new <template> [dir]):");
        for (const t of await listTemplates()) ctx.io.out(`  ${t.name.padEnd(16)} ${t.description}`);
        return;
      }
      const made = await scaffold({ template, dir: dir ?? template, ...(o.name ? { name: o.name } : {}) });
      const shown = relative(process.cwd(), made.dir) || ".";
      ctx.io.out(`Created ${made.name} in ${shown} from the ${made.template.name} template (${made.files.length} files).`);
      ctx.io.out("");
      ctx.io.out("Next:");
      const steps = [...(shown === "." ? [] : [`cd ${shown}`]), "npm install", "npm test                    # its unit tests: the real engine against mocks", ...made.template.next];
      for (const s of steps) ctx.io.out(`  ${s}`);
    });
}
