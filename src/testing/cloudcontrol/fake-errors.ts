/** The errors the fake Cloud Control answers with: the API's own exception names, so the real SDK parses them. */

/**
 * An API call the fake refuses, as Cloud Control would: `name` is the exception's name (the `__type` of
 * the JSON error body).
 *
 * @example throw new FakeApiError("ResourceNotFoundException", "AWS::S3::Bucket b not found");
 */
export class FakeApiError extends Error {
  constructor(
    override readonly name: string,
    message: string,
    /** The HTTP status it is sent with. */
    readonly status = 400,
  ) {
    super(message);
  }
}

/** A request the fake accepted but that FAILED: its handler error code and status message. */
export interface FakeFailure {
  code: string;
  message: string;
}
