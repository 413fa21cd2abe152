import type { ProgramFn } from "../../src/entry/program.js";

/** One bad input and the answer it must get. */
export interface Case {
  what: string;
  /** The command line, given the project folder (for paths). */
  argv: (dir: string) => string[];
  /** The program (default: one box). */
  program?: ProgramFn;
  code: 1 | 2;
  /** What the message must say: the problem and where. */
  message: RegExp;
  /** Run `up --yes` first, with a good program (true) or this one. */
  setup?: true | ProgramFn;
  /** Prepares the project folder before the run (after the setup). */
  before?: (dir: string) => Promise<void>;
  /** Undoes what `before` did that would stop the folder being removed. */
  after?: (dir: string) => Promise<void>;
  env?: Record<string, string>;
  /** The kind of input (see table.ts); cases written before areas were named get theirs from what they are about. */
  area?: import("./table.js").Area;
}

/** A case whose command line needs no path. */
export const argv = (...args: string[]) => () => args;

/** Escapes text for a RegExp. */
export const lit = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
