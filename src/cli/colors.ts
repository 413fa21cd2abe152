/**
 * Whether to colour output: never with `NO_COLOR` (https://no-color.org) or `--no-color`; always with
 * `FORCE_COLOR` (other than `0`/`false`); otherwise on a terminal, or in CI, whose log viewers show colour.
 *
 * @example wantsColor({ env: process.env, noColorFlag: false, isTTY: true }) // true unless NO_COLOR is set
 */
export function wantsColor(o: { env: NodeJS.ProcessEnv; noColorFlag: boolean; isTTY: boolean }): boolean {
  if (o.noColorFlag || (o.env.NO_COLOR !== undefined && o.env.NO_COLOR !== "")) return false;
  const force = o.env.FORCE_COLOR;
  if (force !== undefined && force !== "") return force !== "0" && force !== "false";
  if (o.env.TERM === "dumb") return false;
  return o.isTTY || isCI(o.env);
}

/**
 * True in a CI job (`CI` set to anything but `false`/`0`).
 * @example isCI({ CI: "true" }) // true
 */
export function isCI(env: NodeJS.ProcessEnv): boolean {
  return env.CI !== undefined && env.CI !== "" && env.CI !== "0" && env.CI !== "false";
}
