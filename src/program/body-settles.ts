/**
 * The program's body, awaited so that it cannot end the process in silence: a body that awaits a promise
 * nothing will ever settle leaves the event loop empty, and Node would exit 0 with the run half done (its
 * lock left behind). When the process is about to go idle while the body is still pending, the body is
 * failed instead, naming where the program was declared.
 *
 * @module
 */

/**
 * `returned` itself when it is not a promise; else a promise of its value that rejects, naming `site`, if
 * the process goes idle (`beforeExit`) before it settles.
 *
 * @example const value = await settledBeforeIdle(spec.fn(ctx), "infra.ts:3:16");
 */
export function settledBeforeIdle<T>(returned: T, site: string): T | Promise<Awaited<T>> {
  if (!isThenable(returned)) return returned;
  return new Promise<Awaited<T>>((resolve, reject) => {
    const onIdle = () => {
      process.off("beforeExit", onIdle);
      reject(new Error(neverSettled(site)));
    };
    process.on("beforeExit", onIdle);
    returned.then(
      (v) => {
        process.off("beforeExit", onIdle);
        resolve(v as Awaited<T>);
      },
      (e: unknown) => {
        process.off("beforeExit", onIdle);
        reject(e);
      },
    );
  });
}

/**
 * The message for a body that never settled.
 * @example neverSettled("infra.ts:3:16") // "the program's body never finished (the program(...) at infra.ts:3:16): …"
 */
export function neverSettled(site: string): string {
  const where = site ? ` (the program(...) at ${site})` : "";
  return `the program's body never finished${where}: it awaits something that never settles (a promise nothing resolves or rejects, such as \`await new Promise(() => {})\`), and nothing else was left running. Make every promise the body awaits settle, or stop awaiting it.`;
}

function isThenable(v: unknown): v is PromiseLike<unknown> {
  return (typeof v === "object" || typeof v === "function") && v !== null && typeof (v as { then?: unknown }).then === "function";
}
