import type { Command } from "commander";
import { SECRET_MASK } from "../../core/secret-mask.js";
import type { CliContext } from "../context.js";
import { maskOutputs } from "../context.js";
import { formatBlock } from "../../core/value-text.js";
import { UserError } from "../../core/diagnostic.js";

interface OutputsOptions {
  json?: boolean;
  showSecrets?: boolean;
}

/**
 * `outputs [name]`: the stack outputs from the last apply, whole (one value raw, for scripts).
 * @example registerOutputs(root, ctx); // `outputs url` prints the URL raw
 */
export function registerOutputs(root: Command, ctx: CliContext): void {
  root
    .command("outputs")
    .argument("[name]", "print only this output, raw (strings without quotes), for scripts")
    .description("print the stack outputs from the last apply (never cut)")
    .option("--json", "print the exact values as JSON")
    .option("--show-secrets", "print secret values in clear")
    .action(async (name: string | undefined, o: OutputsOptions, cmd: Command) => {
      await ctx.requireStack(cmd);
      const { values, secretKeys } = await ctx.stack(cmd).outputs();
      const shown = o.showSecrets ? values : maskOutputs(values, secretKeys);
      if (name !== undefined) {
        if (!(name in shown)) {
          const names = Object.keys(shown);
          throw new UserError(`The stack has no output "${name}"${names.length ? ` (outputs: ${names.join(", ")})` : " (it has no outputs)"}.`);
        }
        const v = shown[name];
        if (v === SECRET_MASK && !o.showSecrets) ctx.io.err(`"${name}" is secret: pass --show-secrets to print it.`);
        ctx.io.out(o.json ? JSON.stringify(v) : typeof v === "string" ? v : JSON.stringify(v, null, 2));
        return;
      }
      if (o.json) return ctx.io.out(JSON.stringify(shown, null, 2));
      if (Object.keys(shown).length === 0) return ctx.io.out("The stack has no outputs.");
      for (const [k, v] of Object.entries(shown)) ctx.io.out(`${k}: ${v === SECRET_MASK ? v : formatBlock(v, "  ")}`);
    });
}
