import { UserError } from "../core/diagnostic.js";

/**
 * Checks a stack name before it becomes a directory name: letters, digits, `-`, `_` and `.`, not
 * starting with `.` (so never `.` or `..`), at most 100 characters. Throws an error saying what is
 * allowed otherwise.
 *
 * @example
 * validateStackName("prod-eu.1"); // ok
 * validateStackName("../etc");   // throws
 */
export function validateStackName(name: string): void {
  if (!/^[A-Za-z0-9_-][A-Za-z0-9._-]{0,99}$/.test(name)) {
    throw new UserError(
      `invalid stack name ${JSON.stringify(name)}: use 1-100 letters, digits, "-", "_" or "." (not starting with "."), e.g. "dev" or "prod-eu.1"`,
    );
  }
}
