import pc from "picocolors";

/** The colour functions renderers take (picocolors' shape), so colour is decided once per run, not per import. */
export type Colors = ReturnType<typeof pc.createColors>;

/** Colour functions that return the text unchanged. */
export const noColors: Colors = pc.createColors(false);

/** Colour functions, on or off. @example colors(true).red("x") // "\x1b[31mx\x1b[39m" */
export function colors(on: boolean): Colors {
  return pc.createColors(on);
}

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
