import { SECRET_MASK } from "../core/secret-mask.js";

/**
 * Replaces every occurrence of the given secret values (strings, or the JSON text of other values) in a
 * message, so provider errors cannot leak a secret into output, logs or events.
 *
 * @example redactSecrets("bad password hunter2", ["hunter2"]) // "bad password [secret]"
 */
export function redactSecrets(message: string, secrets: readonly unknown[]): string {
  let out = message;
  for (const s of secrets) {
    if (s === undefined || s === null) continue;
    const text = typeof s === "string" ? s : JSON.stringify(s);
    if (text.length >= 3) out = out.split(text).join(SECRET_MASK);
  }
  return out;
}
