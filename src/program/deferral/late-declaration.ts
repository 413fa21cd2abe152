/**
 * A resource declared in an `apply` callback that first ran after the plan was made (while a step was
 * applied): that resource is in no plan, so the step that ran the callback is deferred to the next round
 * of `up`, which plans it with the value then known.
 *
 * @example if (isLateDeclaration(e)) deferStep(action);
 */
export class LateDeclarationError extends Error {
  override name = "LateDeclarationError";
}

/**
 * True when `e` (or what it wraps, through `cause`) is a {@link LateDeclarationError}.
 *
 * @example isLateDeclaration(new Error("step failed", { cause: new LateDeclarationError("…") })) // true
 */
export function isLateDeclaration(e: unknown): boolean {
  for (let x = e, i = 0; x && i < 10; x = (x as { cause?: unknown }).cause, i++) if (x instanceof LateDeclarationError) return true;
  return false;
}
