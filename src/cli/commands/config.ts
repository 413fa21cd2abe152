import type { Command } from "commander";
import { SECRET_MASK } from "../../core/secret-mask.js";
import { CairnError } from "../../stack/errors.js";
import type { CliContext } from "../context.js";

/**
 * `config set/get/rm/list`: the stack's configuration (`set` also creates a new stack, so it can be configured before its first `up`).
 * @example registerConfig(root, ctx); // `config set env prod --stack dev`
 */
export function registerConfig(root: Command, ctx: CliContext): void {
  const config = root.command("config").description("manage the stack's configuration");
  config
    .command("set")
    .description("set a value (creates the stack if it is new)")
    .argument("<key>")
    .argument("<value>")
    .option("--secret", "encrypt the value (needs CAIRN_PASSPHRASE)")
    .action(async (key: string, value: string, o: { secret?: boolean }, cmd: Command) => {
      const stack = ctx.stack(cmd);
      await stack.setConfig(key, value, { secret: o.secret ?? false });
      ctx.io.out(`Set ${o.secret ? "secret " : ""}"${key}" for stack "${stack.name}".`);
    });
  config
    .command("get")
    .description("print a value (a secret prints as [secret] unless --show-secrets)")
    .argument("<key>")
    .option("--show-secrets", "print a secret value in clear")
    .action(async (key: string, o: { showSecrets?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const stack = ctx.stack(cmd);
      const v = (await stack.config())[key];
      if (!v) throw new CairnError(`Configuration "${key}" is not set for stack "${stack.name}". Set it with \`${ctx.command} config set ${key} <value> --stack ${stack.name}\`.`);
      if (!v.secret || o.showSecrets) return ctx.io.out(v.value);
      ctx.io.out(SECRET_MASK);
      ctx.io.err(`"${key}" is a secret: add --show-secrets to print it in clear.`);
    });
  config
    .command("rm")
    .description("remove a value")
    .argument("<key>")
    .action(async (key: string, _o: unknown, cmd: Command) => {
      await ctx.requireStack(cmd);
      const stack = ctx.stack(cmd);
      const removed = await stack.removeConfig(key);
      ctx.io.out(removed ? `Removed "${key}" from stack "${stack.name}".` : `"${key}" was not set for stack "${stack.name}".`);
    });
  config
    .command("list")
    .description("list the values (secrets masked)")
    .option("--json", "print as JSON")
    .action(async (o: { json?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const all = await ctx.stack(cmd).config();
      const shown = Object.fromEntries(Object.entries(all).map(([k, v]) => [k, v.secret ? SECRET_MASK : v.value]));
      if (o.json) ctx.io.out(JSON.stringify(shown, null, 2));
      else if (Object.keys(shown).length === 0) ctx.io.out("No configuration is set.");
      else for (const [k, v] of Object.entries(shown)) ctx.io.out(`${k} = ${v}`);
    });
}
