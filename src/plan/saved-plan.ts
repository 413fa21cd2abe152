import { createHash } from "node:crypto";
import { readFile, writeFile } from "node:fs/promises";
import { containsUnknown, UNKNOWN } from "../core/unknown.js";
import { createCrypter, newSalt, DecryptError, DEFAULT_SCRYPT, type Crypter } from "../state/secrets.js";
import { decodeMutation, encodeMutation, isSecretEnvelope } from "../state/secret-encoding.js";
import type { Props } from "../state/types.js";
import { PLAN_FORMAT_VERSION, type Plan, type PlanStep } from "./plan.js";
import { planFileProblems } from "./plan-schema.js";
import { UserError } from "../core/diagnostic.js";

/** A saved plan file: what it is, its version, the salt its secrets are encrypted with, and the plan. */
interface PlanFile {
  cairnPlan: typeof PLAN_FORMAT_VERSION;
  salt?: string;
  plan: Plan;
}

/** The digest of a plan file's content: a hash of its indented JSON. */
function digestOf(file: PlanFile): string {
  return `sha256-${createHash("sha256").update(JSON.stringify(file, null, 1)).digest("base64")}`;
}

/** The file's text: indented JSON, with `digest` last (the digest of everything before it). */
function planText(file: PlanFile): string {
  return `${JSON.stringify({ ...file, digest: digestOf(file) }, null, 1)}\n`;
}

type Codec = (v: unknown) => unknown;

function mapKeys(p: Props, keys: readonly string[], f: Codec): Props {
  if (!keys.length) return p;
  const out = { ...p };
  for (const k of keys) if (Object.hasOwn(out, k)) out[k] = f(out[k]);
  return out;
}

/** The step with its secret attribute values passed through `f` (encrypt or decrypt). */
function mapStep(step: PlanStep, f: Codec): PlanStep {
  if (!("secretKeys" in step) || step.secretKeys.length === 0) return step;
  const s = { ...step } as PlanStep & { news?: Props; olds?: Props; outputs?: Props };
  if (s.news) s.news = mapKeys(s.news, step.secretKeys, f);
  if (s.olds) s.olds = mapKeys(s.olds, step.secretKeys, f);
  if (s.outputs) s.outputs = mapKeys(s.outputs, step.secretKeys, f);
  return s;
}

function hasSecrets(plan: Plan): boolean {
  return plan.secretOutputs.length > 0 || plan.steps.some((s) => "secretKeys" in s && s.secretKeys.length > 0) || plan.refresh.some((m) => m.kind === "upsert" && (m.resource.secretKeys?.length ?? 0) > 0);
}

/** `{ "$unknown": true }` back to the unknown placeholder, everywhere in the plan. */
function reviveUnknowns(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reviveUnknowns);
  if (v === null || typeof v !== "object") return v;
  const o = v as Record<string, unknown>;
  if (o.$unknown === true && Object.keys(o).length === 1) return UNKNOWN;
  if (isSecretEnvelope(o)) return o;
  return Object.fromEntries(Object.entries(o).map(([k, x]) => [k, reviveUnknowns(x)]));
}

function crypt(plan: Plan, c: Crypter, dir: "encrypt" | "decrypt"): Plan {
  // A secret not known yet is saved as the unknown it is (apply resolves it again): never encrypted as a
  // value, which would bring the marker back as data; known parts of it are left out with it.
  const f: Codec = dir === "encrypt" ? (v) => (containsUnknown(v) ? UNKNOWN : { $secret: c.encrypt(v) }) : (v) => (isSecretEnvelope(v) ? reviveUnknowns(c.decrypt(v.$secret)) : v);
  return {
    ...plan,
    steps: plan.steps.map((s) => mapStep(s, f)),
    outputs: mapKeys(plan.outputs, plan.secretOutputs, f),
    refresh: plan.refresh.map((m) => (dir === "encrypt" ? encodeMutation(m, c) : decodeMutation(m, c))),
  };
}

/**
 * Writes a plan to a file `up --plan` can apply: self-contained (steps, inputs, the state serial and the
 * program's fingerprint), with secret values encrypted by the passphrase (never in plain text).
 *
 * @example await writePlanFile("plan.json", plan, process.env.CAIRN_PASSPHRASE);
 */
export async function writePlanFile(path: string, plan: Plan, passphrase: string | undefined): Promise<void> {
  let file: PlanFile = { cairnPlan: PLAN_FORMAT_VERSION, plan };
  if (hasSecrets(plan)) {
    if (!passphrase) throw new UserError(`The plan holds secret values, which a plan file keeps encrypted: set CAIRN_PASSPHRASE to write ${path}.`);
    const salt = newSalt();
    file = { cairnPlan: PLAN_FORMAT_VERSION, salt: salt.toString("base64"), plan: crypt(plan, createCrypter(passphrase, salt, DEFAULT_SCRYPT), "encrypt") };
  }
  await writeFile(path, planText(file));
}

/**
 * Reads a plan written by {@link writePlanFile}, refusing anything else with a message naming the file: a
 * file that is not a plan's shape (checked field by field), and one changed since it was written (its digest).
 *
 * @example const plan = await readPlanFile("plan.json", process.env.CAIRN_PASSPHRASE);
 */
export async function readPlanFile(path: string, passphrase: string | undefined): Promise<Plan> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (e) {
    throw new UserError(`Cannot read the plan file ${path}: ${(e as Error).message}. Write one with \`preview --out ${path}\`.`);
  }
  let file: PlanFile & { digest?: unknown };
  try {
    file = JSON.parse(text) as PlanFile;
  } catch (e) {
    throw new UserError(`${path} is not valid JSON (${(e as Error).message}): it is not a plan written by \`preview --out\`. Nothing was applied: write the plan again with \`preview --out ${path}\`.`);
  }
  if (file?.cairnPlan === undefined || typeof file.plan !== "object") throw new UserError(`${path} is not a Cairn plan file (written by \`preview --out\`).`);
  if (file.cairnPlan !== PLAN_FORMAT_VERSION) throw new UserError(`${path} is a plan of format ${file.cairnPlan}; this Cairn applies format ${PLAN_FORMAT_VERSION}. Make the plan again with this version.`);
  const again = `Nothing was applied: make the plan again with \`preview --out ${path}\``;
  const problems = planFileProblems(file);
  if (problems) throw new UserError(`${path} is not a valid Cairn plan file: ${problems}. ${again}.`);
  const { digest, ...rest } = file;
  // The content read back hashes to the digest it carries, or something in it was changed.
  if (!digest || digest !== digestOf(rest)) throw new UserError(`${path} was changed after \`preview --out\` wrote it (its digest does not match). ${again}, and apply it unchanged.`);
  const plan = reviveUnknowns(file.plan) as Plan;
  if (!file.salt) return plan;
  if (!passphrase) throw new UserError(`The plan ${path} holds encrypted secrets: set CAIRN_PASSPHRASE to the passphrase \`preview --out\` ran with, to read it.`);
  try {
    return crypt(plan, createCrypter(passphrase, Buffer.from(file.salt, "base64"), DEFAULT_SCRYPT), "decrypt");
  } catch (e) {
    if (!(e instanceof DecryptError)) throw e;
    throw new DecryptError(`The secrets in the plan ${path} do not decrypt with this CAIRN_PASSPHRASE: the plan was saved under another one (or the file was damaged). Nothing was applied: set CAIRN_PASSPHRASE to the passphrase \`preview --out\` ran with, or make the plan again with \`preview --out ${path}\`.`);
  }
}
