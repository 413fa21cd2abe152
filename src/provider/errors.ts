/**
 * Thrown by a provider's `create` when the object was created but could not be finished (e.g. tagging failed).
 * The engine records the object as *tainted*, so it is not lost and the next plan replaces it.
 *
 * @example throw new IncompleteCreateError(arn, { arn }, new Error("AddTags failed: AccessDenied"));
 */
export class IncompleteCreateError extends Error {
  constructor(
    readonly id: string,
    readonly outputs: Record<string, unknown>,
    readonly causeError: Error,
  ) {
    super(`created ${id} but could not finish: ${causeError.message}`);
    this.name = "IncompleteCreateError";
  }
}
