import { memoryType } from "../helpers.js";
import type { ProgramFn } from "../../src/entry/program.js";

/** The fake cloud of the bad-input cases: boxes that keep whatever they were made with. */
export const box = memoryType<{ v?: unknown }>("bad:in:Box", { inputs: { v: {} }, outputs: { v: {} } });

/** A program that is fine: one box. */
export const ok: ProgramFn = () => void new box.Type("a", { v: 1 });
