import { isTransientError } from "../core/errors.js";
import type { Provider } from "./provider.js";

/**
 * Where the debug trace goes (`--debug`, `CAIRN_LOG=debug`, the `debug` stack option): one line at a time,
 * secrets already redacted. Code that traces checks for it first, so without one no line is ever built.
 *
 * @example const debug: DebugLog = (line) => process.stderr.write(`[debug] ${line}\n`);
 */
export type DebugLog = (line: string) => void;

/** The provider methods a call can be made to, in contract order. */
const METHODS = ["check", "diff", "create", "read", "lookup", "readMany", "update", "delete", "resume"] as const;
type Method = (typeof METHODS)[number];

/** What a call was about: its URN, or how many objects a batched read covers. */
function subject(method: Method, args: unknown): string {
  if (method === "readMany") return `(${(args as { targets?: unknown[] }).targets?.length ?? 0} objects)`;
  return String((args as { urn?: unknown }).urn ?? "");
}

/** `ok`, or `error (transient|permanent): message` on one line. */
function outcome(error: unknown, failed: boolean): string {
  if (!failed) return "ok";
  const message = error instanceof Error ? error.message : String(error);
  return `error (${isTransientError(error) ? "transient" : "permanent"}): ${message.replace(/\s*\n\s*/g, " ")}`;
}

/**
 * The provider with every call written to `log` when it ends: method, type, URN, duration and outcome
 * (`ok`, or the error and whether it is transient), and `(retry n)` when an earlier call of the same method
 * on the same object failed. Only the methods the provider has are wrapped, and a synchronous answer stays
 * synchronous, so the engine treats the traced provider exactly as the plain one.
 *
 * @example
 * const p = traceProvider(provider, "local:File", (l) => console.error(l));
 * await p.create({ urn, inputs, ctx }); // logs "provider create local:File urn:… 3ms ok"
 */
export function traceProvider(provider: Provider<any, any, any>, type: string, log: DebugLog): Provider<any, any, any> {
  const failures = new Map<string, number>();
  // Everything else (flags such as `checksUnknown`, helpers a provider calls on `this`) is the provider's own.
  const traced = Object.create(provider) as Record<string, unknown>;
  for (const method of METHODS) {
    const call = provider[method] as ((args: unknown) => unknown) | undefined;
    if (typeof call !== "function") continue;
    traced[method] = (args: unknown) => {
      const what = subject(method, args);
      const key = `${method} ${what}`;
      const started = performance.now();
      const end = (error: unknown, failed: boolean) => {
        const before = failures.get(key) ?? 0;
        failures.set(key, failed ? before + 1 : 0);
        log(`provider ${method} ${type} ${what} ${Math.round(performance.now() - started)}ms ${outcome(error, failed)}${before ? ` (retry ${before})` : ""}`);
      };
      let result: unknown;
      try {
        result = call.call(provider, args);
      } catch (e) {
        end(e, true);
        throw e;
      }
      if (!(result instanceof Promise)) {
        end(undefined, false);
        return result;
      }
      return result.then(
        (v) => {
          end(undefined, false);
          return v;
        },
        (e: unknown) => {
          end(e, true);
          throw e;
        },
      );
    };
  }
  return traced as unknown as Provider<any, any, any>;
}
