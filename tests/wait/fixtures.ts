import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineResource } from "../../src/program/define.js";
import { program, type ProgramFn } from "../../src/entry/program.js";
import type { Provider } from "../../src/provider/provider.js";
import type { ResourceSchema } from "../../src/provider/schema.js";
import type { EngineEvent } from "../../src/apply/events.js";
import type { StackOptions } from "../../src/stack/stack.js";
import { FakeClock } from "../../src/testing/fake-clock.js";

export type CertStatus = "PENDING" | "READY" | "FAILED" | "REVOKED";
export interface CertIn {
  domain: string;
}
export interface CertOut {
  domain: string;
  arn: string;
  status: CertStatus;
  failureReason?: string;
  token?: string;
  options: { domain: string; state: "WAITING" | "OK" }[];
}

/** What the n-th read (1-based, per object) of a cert returns: a status, "gone", or an error to throw. */
export type ReadScript = (n: number, id: string) => CertStatus | "gone" | Error | { status: CertStatus; failureReason?: string };

/**
 * A certificate-like test type: created PENDING; its reads follow `script` (default: READY from the 3rd read).
 * Counts reads and readMany calls.
 */
export function certType(type: string, opts: { script?: ReadScript; readMany?: boolean; schema?: Partial<ResourceSchema>; created?: CertStatus } = {}) {
  const script = opts.script ?? ((n) => (n >= 3 ? "READY" : "PENDING"));
  const objects = new Map<string, CertOut>();
  const reads = new Map<string, number>();
  const log: string[] = [];
  const counters = { read: 0, readMany: 0, readManyTargets: 0 };
  let next = 1;
  const readOne = (id: string): CertOut | undefined => {
    const o = objects.get(id);
    if (!o) return undefined;
    const n = (reads.get(id) ?? 0) + 1;
    reads.set(id, n);
    const r = script(n, id);
    if (r instanceof Error) throw r;
    if (r === "gone") return undefined;
    const { status, failureReason } = typeof r === "string" ? { status: r, failureReason: undefined } : r;
    o.status = status;
    if (failureReason) o.failureReason = failureReason;
    o.options = o.options.map((x) => ({ ...x, state: status === "READY" ? "OK" : "WAITING" }));
    return structuredClone(o);
  };
  const provider: Provider<CertIn, CertOut> = {
    async create({ inputs }) {
      const id = `cert-${next++}`;
      log.push(`create ${inputs.domain}`);
      const out: CertOut = { domain: inputs.domain, arn: `arn:cert/${id}`, status: opts.created ?? "PENDING", token: "s3cr3t-token", options: [{ domain: inputs.domain, state: "WAITING" }] };
      objects.set(id, out);
      return { id, outputs: structuredClone(out) };
    },
    async read({ id }) {
      counters.read++;
      log.push(`read ${id}`);
      return readOne(id);
    },
    async delete({ id }) {
      log.push(`delete ${id}`);
      objects.delete(id);
    },
  };
  if (opts.readMany) {
    provider.readMany = async ({ targets }) => {
      counters.readMany++;
      counters.readManyTargets += targets.length;
      log.push(`readMany ${targets.length}`);
      const out = new Map<string, CertOut | undefined>();
      for (const t of targets) out.set(t.id, readOne(t.id));
      return out;
    };
  }
  const schema: ResourceSchema = {
    inputs: { domain: { type: "string", forceNew: true } },
    outputs: { domain: {}, arn: { stable: true }, status: {}, failureReason: {}, token: { secret: true }, options: {} },
    ...opts.schema,
  };
  const Type = defineResource<CertIn, CertOut>(type, { provider, schema });
  return { Type, objects, reads, log, counters };
}

/** A record-like type that just stores its inputs (and can be told to fail). */
export function recordType(type: string, opts: { fail?: (inputs: Record<string, unknown>) => string | undefined; createMs?: number } = {}) {
  const objects = new Map<string, Record<string, unknown>>();
  const log: string[] = [];
  let next = 1;
  const provider: Provider<{ value: string }, { value: string }> = {
    async create({ inputs }) {
      // Real time on purpose: a slow cloud call that cancellation must let finish.
      if (opts.createMs) await new Promise((r) => setTimeout(r, opts.createMs));
      const f = opts.fail?.(inputs);
      if (f) throw new Error(f);
      const id = `rec-${next++}`;
      objects.set(id, { ...inputs });
      log.push(`create ${inputs.value}`);
      return { id, outputs: { ...inputs } };
    },
    async read({ id }) {
      const o = objects.get(id);
      return o ? ({ ...o } as { value: string }) : undefined;
    },
    async update({ id, news }) {
      objects.set(id, { ...news });
      log.push(`update ${news.value}`);
      return { ...news };
    },
    async delete({ id }) {
      objects.delete(id);
      log.push(`delete ${id}`);
    },
  };
  const Type = defineResource<{ value: string }, { value: string }>(type, { provider, schema: { inputs: { value: {} }, outputs: { value: {} } } });
  return { Type, objects, log };
}

/** A stack with a fake clock (auto-advancing by default), its events collected. */
export async function waitStack(fn: ProgramFn, opts: Partial<StackOptions> = {}) {
  const dir = await mkdtemp(join(tmpdir(), "cairn-wait-"));
  const clock = opts.clock ?? new FakeClock({ auto: true });
  const stack = program("waits", fn).stack({ stateDir: dir, passphrase: "test-pass", clock, ...opts });
  const events: EngineEvent[] = [];
  stack.events.subscribe((e) => events.push(e));
  const ended = () => events.filter((e): e is Extract<EngineEvent, { type: "wait-ended" }> => e.type === "wait-ended");
  return { stack, events, clock, dir, ended, cleanup: () => rm(dir, { recursive: true, force: true }) };
}
