/**
 * The message of anything thrown, in words a user can act on: an Error's message; a thrown string as it is;
 * for `null`, `undefined`, a number or a plain object, what was thrown and that it carried no Error (a
 * plain object is shown as JSON, cut short, so its fields are not lost). `who` names the thrower.
 *
 * @example thrownMessage({ code: 42 }, "the provider of aws:s3:Bucket") // 'the provider of aws:s3:Bucket threw a plain object instead of an Error: {"code":42}'
 */
export function thrownMessage(e: unknown, who = "the code"): string {
  if (e instanceof Error) return e.message || `${who} threw ${e.name || "an Error"} without a message`;
  if (typeof e === "string") return e.trim() ? e : `${who} threw an empty string instead of an Error`;
  if (e === null || e === undefined) return `${who} threw ${String(e)} instead of an Error, so there is no message to show`;
  if (typeof e === "object") {
    const message = (e as { message?: unknown }).message;
    if (typeof message === "string" && message) return message;
    return `${who} threw ${Array.isArray(e) ? "an array" : "a plain object"} instead of an Error: ${shortJson(e)}`;
  }
  return `${who} threw the ${typeof e} ${String(e)} instead of an Error`;
}


function shortJson(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = "(an object that cannot be shown as JSON)";
  }
  return text.length > 200 ? `${text.slice(0, 197)}...` : text;
}
