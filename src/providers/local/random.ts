import { randomBytes, randomInt } from "node:crypto";
import { defineResource } from "../../program/define.js";
import type { Diagnostic } from "../../provider/provider.js";

/** Inputs of {@link RandomId}. Every input is force-new: changing one makes a new id. */
export interface RandomIdInputs {
  /** Random bytes (default 8, so 16 hex characters). */
  byteLength?: number;
  /** Arbitrary values: when they change, a new id is generated. */
  keepers?: Record<string, unknown>;
}

/** Outputs of {@link RandomId}. */
export interface RandomIdOutputs {
  /** The bytes as lowercase hex. */
  hex: string;
  /** The bytes as URL-safe base64 without padding. */
  base64url: string;
}

const keepersSchema = { type: "object" as const, forceNew: true, description: "Values whose change generates a new value." };

/**
 * Random bytes generated once and then kept in state: a stable unique suffix for names. Offline.
 *
 * @example
 * const suffix = new local.RandomId("suffix", { byteLength: 4 });
 * new local.File("f", { path: suffix.hex.apply((h) => `out/${h}.txt`), content: "x" });
 */
export const RandomId = defineResource<RandomIdInputs, RandomIdOutputs>("local:RandomId", {
  provider: {
    idempotentCreate: true, // nothing exists outside the state
    // Made on this machine: no cloud permission.
    permissions: () => [],
    check({ inputs }) {
      const n = inputs.byteLength;
      return n === undefined || (Number.isInteger(n) && n >= 1 && n <= 1024) ? [] : [{ severity: "error", attribute: "byteLength", summary: `must be a whole number from 1 to 1024 (got ${String(n)})` }];
    },
    async create({ inputs }) {
      const bytes = randomBytes(inputs.byteLength ?? 8);
      const hex = bytes.toString("hex");
      return { id: hex, outputs: { hex, base64url: bytes.toString("base64url") } };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  },
  schema: {
    inputs: { byteLength: { type: "number", forceNew: true, description: "Random bytes (default 8)." }, keepers: keepersSchema },
    outputs: { hex: { type: "string" }, base64url: { type: "string" } },
  },
});
/** A {@link RandomId} instance. */
export type RandomId = InstanceType<typeof RandomId>;

/** Inputs of {@link RandomPassword}. Every input is force-new: changing one makes a new password. */
export interface RandomPasswordInputs {
  /** Characters (default 20). */
  length?: number;
  /** Include each class (default true); every included class appears at least once. */
  upper?: boolean;
  lower?: boolean;
  numeric?: boolean;
  special?: boolean;
  /** The special characters to use (default `!#$%&*()-_=+[]{}<>:?`). */
  overrideSpecial?: string;
  /** Arbitrary values: when they change, a new password is generated. */
  keepers?: Record<string, unknown>;
}

/** Outputs of {@link RandomPassword}. */
export interface RandomPasswordOutputs {
  /** The password: secret, so it prints as `[secret]` and is encrypted in state (needs `CAIRN_PASSPHRASE`). */
  result: string;
}

const SPECIAL = "!#$%&*()-_=+[]{}<>:?";

/** The character classes a password draws from. */
function classesOf(i: RandomPasswordInputs): string[] {
  return [
    i.upper !== false ? "ABCDEFGHIJKLMNOPQRSTUVWXYZ" : "",
    i.lower !== false ? "abcdefghijklmnopqrstuvwxyz" : "",
    i.numeric !== false ? "0123456789" : "",
    i.special !== false ? (i.overrideSpecial ?? SPECIAL) : "",
  ].filter((c) => c.length > 0);
}

/** A password with one character of every class, the rest drawn from all of them, shuffled (crypto randomness). */
export function generatePassword(i: RandomPasswordInputs): string {
  const classes = classesOf(i);
  const all = classes.join("");
  const pick = (s: string) => s[randomInt(s.length)]!;
  const chars = classes.map(pick);
  while (chars.length < (i.length ?? 20)) chars.push(pick(all));
  for (let k = chars.length - 1; k > 0; k--) {
    const j = randomInt(k + 1);
    [chars[k], chars[j]] = [chars[j]!, chars[k]!];
  }
  return chars.join("");
}

function checkPassword(i: RandomPasswordInputs): Diagnostic[] {
  const classes = classesOf(i);
  const length = i.length ?? 20;
  if (classes.length === 0) return [{ severity: "error", summary: "every character class is turned off: leave at least one of upper, lower, numeric, special on" }];
  if (!Number.isInteger(length) || length < classes.length || length > 4096) {
    return [{ severity: "error", attribute: "length", summary: `must be a whole number from ${classes.length} (one per character class) to 4096 (got ${String(i.length)})` }];
  }
  return [];
}

/**
 * A random password generated once and kept (encrypted) in state. Its `result` is secret: plans, logs
 * and outputs show `[secret]`. Offline.
 *
 * @example
 * const dbPassword = new local.RandomPassword("db", { length: 24, special: false });
 * new local.Command("db", { create: "./init-db.sh", environment: { PASSWORD: dbPassword.result } });
 */
export const RandomPassword = defineResource<RandomPasswordInputs, RandomPasswordOutputs>("local:RandomPassword", {
  provider: {
    idempotentCreate: true, // nothing exists outside the state
    // Made on this machine: no cloud permission.
    permissions: () => [],
    check: ({ inputs }) => checkPassword(inputs),
    async create({ inputs }) {
      const result = generatePassword(inputs);
      return { id: `pw-${randomBytes(6).toString("hex")}`, outputs: { result } };
    },
    async read({ outputs }) {
      return outputs;
    },
    async delete() {},
  },
  schema: {
    inputs: {
      length: { type: "number", forceNew: true },
      upper: { type: "boolean", forceNew: true },
      lower: { type: "boolean", forceNew: true },
      numeric: { type: "boolean", forceNew: true },
      special: { type: "boolean", forceNew: true },
      overrideSpecial: { type: "string", forceNew: true },
      keepers: keepersSchema,
    },
    outputs: { result: { type: "string", secret: true, description: "The password." } },
  },
});
/** A {@link RandomPassword} instance. */
export type RandomPassword = InstanceType<typeof RandomPassword>;
