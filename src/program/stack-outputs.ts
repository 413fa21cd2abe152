import { UNKNOWN } from "../core/unknown.js";
import { combineLatest, from, isObservable, map } from "rxjs";
import { Output, asObservable, type ValueState } from "./output.js";
import { NODE, attributeOutput, type Dependable } from "./resource.js";
import { currentContext } from "./context.js";
import { userCallSite } from "../core/declaration-site.js";
import type { ResourceNode } from "./node.js";
import { openBackend } from "../state/open-backend.js";
import type { OutputReader } from "../state/backend.js";
import type { Props } from "../state/types.js";
import { closestName } from "../core/did-you-mean.js";
import { readStackOutputs, stackText, type ReadOutputs, type StackName } from "../state/read-outputs.js";
import { StackReference } from "./stack-reference.js";
import { UserError } from "../core/diagnostic.js";

/** Where the stack to read lives. */
export interface StackOutputsOptions {
  /** The stack to read, e.g. `"prod"`. */
  stack: string;
  /** Its project (program name), when it differs from the name given to `stackOutputs`. */
  project?: string;
  /**
   * Its backend URL (`file://…`, `postgres://…`, `s3://…`), when it is not the reading stack's. A relative
   * `file://` path is relative to the working directory, as for `CAIRN_BACKEND`.
   */
  backend?: string;
  /**
   * Its passphrase, when its secret outputs are encrypted with another one than the reading stack's
   * (default: the reading stack's passphrase, i.e. `CAIRN_PASSPHRASE` or `StackOptions.passphrase`).
   */
  passphrase?: string;
}

/**
 * Another stack's outputs, typed by `T`: `outputs.vpcId` (or `get("vpcId")`) is an `Output` that the
 * program passes to resources like any other. It can be given to `dependsOn`.
 */
export interface StackOutputs<T extends object = Record<string, unknown>> extends Dependable {
  /** The project read. */
  readonly project: string;
  /** The stack read. */
  readonly stack: string;
  /** Each output of the other stack as an `Output`; secret ones are secret here too. */
  readonly outputs: { readonly [K in keyof T]-?: Output<T[K]> };
  /** One output by name: the same as `outputs[key]`. */
  get<K extends keyof T & string>(key: K): Output<T[K]>;
}

/**
 * Reads the outputs of another stack (of another program, or another stack of this one) as typed
 * `Output`s. Each plan reads the other stack's last committed state (without its lock); the reference is
 * recorded in this stack's state, so an output that changed since the last run shows in the plan as the
 * reason for the updates it causes, and `destroy` of the other stack names this stack as a reader.
 * A missing stack or output is an error at preview naming both stacks.
 *
 * @example
 * interface NetworkOutputs { vpcId: string; dbPassword: string }
 * export default program("app", () => {
 *   const net = stackOutputs<NetworkOutputs>("network", { stack: "prod" });
 *   new local.File("cfg", { path: "out/vpc.txt", content: net.outputs.vpcId });
 * });
 */
export function stackOutputs<T extends object = Record<string, unknown>>(name: string, opts: StackOutputsOptions): StackOutputs<T> {
  const what = `stackOutputs(${JSON.stringify(name)}, …)`;
  if (opts === null || typeof opts !== "object" || typeof opts.stack !== "string" || opts.stack === "") {
    throw new UserError(`${what} needs the stack to read: stackOutputs(${JSON.stringify(name)}, { stack: "prod" }).`);
  }
  const { ctx } = currentContext(what, userCallSite(stackOutputs));
  const target: StackName = { project: opts.project ?? name, stack: opts.stack };
  const reader: StackName = { project: ctx.project, stack: ctx.stack };
  if (target.project === reader.project && target.stack === reader.stack && opts.backend === undefined) {
    throw new UserError(`${what}: stack ${stackText(reader)} cannot read its own outputs. Name another stack (stack: "…"), or use the values directly.`);
  }
  const open = (): OutputReader => {
    const o = { ...(opts.backend !== undefined ? { backend: opts.backend } : {}), ...(opts.passphrase !== undefined ? { passphrase: opts.passphrase } : {}) };
    if (ctx.stacks) return ctx.stacks.open(target.project, target.stack, o);
    if (opts.backend === undefined) throw new UserError(`${what} in stack ${stackText(reader)}: the program is evaluated outside a stack, so there is no backend to read ${stackText(target)} from. Pass backend: "…".`);
    return openBackend({ backend: opts.backend, stack: target.stack, project: target.project, passphrase: opts.passphrase ?? process.env.CAIRN_PASSPHRASE });
  };
  // Recorded with the reference (without credentials), so `stack graph` can tell which backend it read.
  const backendUrl = opts.backend !== undefined ? open().url : (ctx.stacks?.url ?? "");
  // One read per planning scope: both attributes below resolve this output with the same resolver.
  const planned = ctx.stacks?.planned?.get(`${target.project}/${target.stack}`);
  const read = new Output<ReadOutputs>([], () =>
    planned
      ? { known: true, value: splitOutputs(planned.values, planned.secretKeys), secret: false, deps: [] }
      : from(readStackOutputs(open(), reader, target)).pipe(map((value): ValueState<ReadOutputs> => ({ known: true, value, secret: false, deps: [] }))),
  );
  const part = (key: keyof ReadOutputs) =>
    new Output<Props>([], (r) =>
      asObservable(read.resolveNow(r)).pipe(
        map((s): ValueState<Props> => (s.known ? { known: true, value: s.value[key], secret: key === "secretValues" && Object.keys(s.value[key]).length > 0, deps: [] } : { ...s, deps: [] })),
      ),
    );
  const ref = new StackReference(name, { ...target, backend: backendUrl, values: part("values"), secretValues: part("secretValues") });
  const node = ref[NODE];
  const cache = new Map<string, Output<unknown>>();
  const get = (key: string): Output<unknown> => {
    let o = cache.get(key);
    if (!o) cache.set(key, (o = keyOutput(node, key, reader, target)));
    return o;
  };
  const outputs = new Proxy({} as Record<string, Output<unknown>>, {
    // Not a thenable, not JSON: only string keys name outputs.
    get: (_t, prop) => (typeof prop === "string" && prop !== "then" && prop !== "toJSON" ? get(prop) : undefined),
  });
  return { [NODE]: node, project: target.project, stack: target.stack, outputs, get } as unknown as StackOutputs<T>;
}

/** The output `key` of a reference: secret when the other stack keeps it secret; a missing key is an error naming both stacks. */
function keyOutput(node: ResourceNode, key: string, reader: StackName, target: StackName): Output<unknown> {
  const values = attributeOutput(node, "values");
  const secrets = attributeOutput(node, "secretValues");
  const pick = (v: ValueState<unknown>, s: ValueState<unknown>): ValueState<unknown> => {
    const deps = [node];
    if (!v.known || !s.known) return { known: false, secret: v.secret || s.secret, deps };
    const plain = (v.value ?? {}) as Props;
    const secret = (s.value ?? {}) as Props;
    // A value the other stack's plan (read in a preview of both) makes known only when it is applied.
    if (secret[key] === UNKNOWN || plain[key] === UNKNOWN) return { known: false, secret: key in secret, deps };
    if (key in secret) return { known: true, value: secret[key], secret: true, deps };
    if (key in plain) return { known: true, value: plain[key], secret: v.secret, deps };
    throw new UserError(missingOutput(key, [...Object.keys(plain), ...Object.keys(secret)], reader, target));
  };
  return new Output([node], (r) => {
    const v = values.resolveNow(r);
    const s = secrets.resolveNow(r);
    if (!isObservable(v) && !isObservable(s)) return pick(v, s);
    return combineLatest([asObservable(v), asObservable(s)]).pipe(map(([a, b]) => pick(a, b)));
  });
}

/** Plain and secret outputs apart, as {@link readStackOutputs} gives them. */
function splitOutputs(values: Props, secretKeys: readonly string[]): ReadOutputs {
  const out: ReadOutputs = { values: {}, secretValues: {} };
  for (const [k, v] of Object.entries(values)) (secretKeys.includes(k) ? out.secretValues : out.values)[k] = v;
  return out;
}

/**
 * The message for an output the other stack does not have: both stacks, the key, a likely intent.
 *
 * @example missingOutput("vpcID", ["vpcId"], app, network) // 'stack app/prod reads output "vpcID" of stack network/prod, which has no such output (did you mean "vpcId"?) …'
 */
export function missingOutput(key: string, keys: readonly string[], reader: StackName, target: StackName): string {
  const guess = closestName(key, keys);
  const has = keys.length ? `Its outputs: ${[...keys].sort().join(", ")}.` : "It has no outputs.";
  return (
    `stack ${stackText(reader)} reads output "${key}" of stack ${stackText(target)}, which has no such output${guess ? ` (did you mean "${guess}"?)` : ""}. ${has} ` +
    `Fix the key, or return "${key}" from ${target.project}'s program and run up on ${stackText(target)}.`
  );
}
