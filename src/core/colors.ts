import pc from "picocolors";

/** The colour functions renderers take (picocolors' shape), so colour is decided once per run, not per import. */
export type Colors = ReturnType<typeof pc.createColors>;

/** Colour functions that return the text unchanged. */
export const noColors: Colors = pc.createColors(false);

/** Colour functions, on or off. @example colors(true).red("x") // "\x1b[31mx\x1b[39m" */
export function colors(on: boolean): Colors {
  return pc.createColors(on);
}
