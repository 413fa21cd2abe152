import type { Command } from "commander";
import type { CliContext } from "../context.js";
import { stackStatus } from "../stack-status.js";
import { renderResource, resourceToJson } from "../render/resource.js";
import { confirmEdit, undoLine, yesEditOption } from "./edit-confirm.js";

const RESOURCE = "a URN, or a resource's name when only one resource has it";

/** The `state` group (made by `registerState`). @example stateGroup(root).command("recover") */
export const stateGroup = (root: Command) => root.commands.find((c) => c.name() === "state") ?? root.command("state").description("inspect and edit the stack's state");

/**
 * `state show`, `state rm`, `state mv`, `state import`, `state unprotect`: reading and editing records of
 * the stack's state. Every change takes the lock, asks (or needs `--yes`), and says how to undo it.
 *
 * @example registerStateEdit(root, ctx); // `state rm cache --yes`
 */
export function registerStateEdit(root: Command, ctx: CliContext): void {
  const state = stateGroup(root);
  registerShow(state, ctx);
  registerRm(state, ctx);
  registerMv(state, ctx);
  registerImport(state, ctx);
  registerUnprotect(state, ctx);
}

function registerShow(state: Command, ctx: CliContext): void {
  state
    .command("show")
    .description("show one resource: id, type, provider, dependencies both ways, inputs and outputs (secrets masked)")
    .argument("<resource>", RESOURCE)
    .option("--json", "print as JSON")
    .option("--show-secrets", "print secret values in clear")
    .action(async (ref: string, o: { json?: boolean; showSecrets?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const shown = { ...(await ctx.stack(cmd).showResource(ref)), showSecrets: o.showSecrets ?? false };
      ctx.io.out(o.json ? JSON.stringify(resourceToJson(shown), null, 2) : renderResource(shown, ctx.colors(cmd)));
    });
}

function registerRm(state: Command, ctx: CliContext): void {
  state
    .command("rm")
    .description("forget resources without deleting them (refused if others depend on them, or if protected, unless --force)")
    .argument("<resources...>", `${RESOURCE}; several may be given`)
    .option("--force", "forget them even if other resources depend on them or they are protected")
    .addOption(yesEditOption())
    .action(async (refs: string[], o: { force?: boolean; yes?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const stack = ctx.stack(cmd);
      const r = await stack.forget(refs, {
        force: o.force ?? false,
        confirm: (p) => {
          const n = p.forgotten.length;
          const lines = [`state rm will forget ${n} resource${n === 1 ? "" : "s"} of stack "${stack.name}" (their cloud objects stay, managed by nothing):`];
          for (const f of p.forgotten) lines.push(`  - ${f.urn} (id ${f.id})`);
          if (p.rewired.length) lines.push(`and drop the dependencies on ${n === 1 ? "it" : "them"} recorded for: ${p.rewired.join(", ")}`);
          return confirmEdit(ctx, cmd, o, lines, `Forget ${n === 1 ? "this resource" : `these ${n} resources`}?`);
        },
      });
      if (!r.applied) return;
      ctx.io.out(`Forgot ${r.forgotten.length} resource${r.forgotten.length === 1 ? "" : "s"}; nothing in the cloud changed. If the program still declares ${r.forgotten.length === 1 ? "it" : "them"}, the next up creates ${r.forgotten.length === 1 ? "it" : "them"} again.`);
      ctx.io.out(undoLine(ctx, stack.name, r.previousVersion));
    });
}

function registerMv(state: Command, ctx: CliContext): void {
  state
    .command("mv")
    .description("rename a resource in state without replacing it (a new name, or a whole URN to move it under other parents)")
    .argument("<resource>", RESOURCE)
    .argument("<to>", "the new name, or the new URN (e.g. copied from preview) to move it under other parents")
    .addOption(yesEditOption())
    .action(async (ref: string, to: string, o: { yes?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const stack = ctx.stack(cmd);
      const r = await stack.rename(ref, to, {
        confirm: (p) => {
          const lines = [`state mv will rename in stack "${stack.name}" (nothing in the cloud changes):`];
          for (const m of p.moves) lines.push(`  ${m.from}`, `  → ${m.to}`);
          return confirmEdit(ctx, cmd, o, lines, p.moves.length === 1 ? "Rename it?" : `Rename these ${p.moves.length} resources?`);
        },
      });
      if (!r.applied) return;
      ctx.io.out(`Renamed ${r.moves.length === 1 ? "it" : `${r.moves.length} resources`}; nothing in the cloud changed. Declare it in the program under its new name: preview then shows no change for it.`);
      ctx.io.out(undoLine(ctx, stack.name, r.previousVersion));
    });
}

function registerImport(state: Command, ctx: CliContext): void {
  state
    .command("import")
    .description("adopt an existing object: read it through its provider and record it as the program's resource of that name")
    .argument("<type>", "the resource type, e.g. local:File or aws:acm:Certificate")
    .argument("<name>", "the name the program declares it with (or its URN)")
    .argument("<id>", "the object's id in the cloud (what its provider calls id)")
    .addOption(yesEditOption())
    .action(async (type: string, name: string, id: string, o: { yes?: boolean }, cmd: Command) => {
      const stack = ctx.stack(cmd);
      const c = ctx.colors(cmd);
      const status = await stackStatus(stack);
      // A mistyped --stack must not quietly become a new stack: say so before asking.
      const others = status.stacks.filter((s) => s !== stack.name);
      const isNew = status.exists ? [] : [`Stack "${stack.name}" is new${others.length ? ` (existing: ${others.join(", ")})` : ""}: state import creates it.`];
      const r = await stack.importResource(type, name, id, {
        confirm: (p) => {
          const shown = renderResource({ resource: p.record, dependents: [] }, c);
          return confirmEdit(ctx, cmd, o, [...isNew, `state import read this object and will record it in stack "${stack.name}":`, shown], "Import it?");
        },
      });
      if (!r.applied) return;
      ctx.io.out(`Imported ${type} "${id}" as ${r.record.urn}. Run preview: it shows no change for it when the program declares the object's values (any difference shows as an update).`);
      ctx.io.out(undoLine(ctx, stack.name, r.previousVersion));
    });
}

function registerUnprotect(state: Command, ctx: CliContext): void {
  state
    .command("unprotect")
    .description("clear a resource's protect flag in state, so it can be deleted or replaced")
    .argument("<resource>", RESOURCE)
    .addOption(yesEditOption())
    .action(async (ref: string, o: { yes?: boolean }, cmd: Command) => {
      await ctx.requireStack(cmd);
      const stack = ctx.stack(cmd);
      const r = await stack.unprotect(ref, {
        confirm: (p) => confirmEdit(ctx, cmd, o, [`state unprotect will clear the protect flag of ${p.resource.urn} (id ${p.resource.id}): it can then be deleted or replaced.`], "Unprotect it?"),
      });
      if (!r.resource.protect) return ctx.io.out(`${r.resource.urn} is not protected; nothing was changed.`);
      if (!r.applied) return;
      ctx.io.out(`${r.resource.urn} is no longer protected. If the program still sets protect: true on it, the next up protects it again: remove it there too.`);
      ctx.io.out(undoLine(ctx, stack.name, r.previousVersion));
    });
}
