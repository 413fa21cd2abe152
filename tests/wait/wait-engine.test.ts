import { afterEach, describe, expect, it } from "vitest";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { wait } from "../../src/wait/wait.js";
import { ComponentResource } from "../../src/program/resource.js";
import { milliseconds, minutes, seconds } from "../../src/core/duration.js";
import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { renderPlan } from "../../src/cli/render.js";
import { waitsReadyNow, type PlanStep } from "../../src/plan/plan.js";
import { WAIT_OUTCOME_KINDS, describeWaitOutcome, type WaitOutcome, type WaitOutcomeKind } from "../../src/wait/outcome.js";
import { realClock } from "../../src/stack/clock.js";
import { certType, recordType, waitStack } from "./fixtures.js";

const cleanups: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0)) await c();
});
async function setup(...args: Parameters<typeof waitStack>) {
  const s = await waitStack(...args);
  cleanups.push(s.cleanup);
  return s;
}
let typeNo = 0;
const fresh = (name: string) => `test:wait${++typeNo}:${name}`;
const waitStep = (steps: PlanStep[]) => steps.find((s): s is Extract<PlanStep, { kind: "wait" }> => s.kind === "wait")!;
const plain = (s: string) => s.replace(/\x1b\[[0-9;]*m/g, "");

describe("wait: apply", () => {
  it("gates the downstream resource on the predicate and hands it the satisfying snapshot", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    const { stack, ended, events } = await setup(() => {
      const c = new cert.Type("cert", { domain: "example.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      new rec.Type("publish", { value: issued.status.apply((s) => `status=${s}`) });
      new rec.Type("audit", { value: c.status.apply((s) => `status=${s}`) }); // skips the wait
      return { arn: issued.arn };
    });
    const r = await stack.up();
    expect(r.summary).toMatchObject({ ok: true, failed: 0, skipped: 0 });
    // The gated value is the read that satisfied `until`; the direct one is the create's.
    expect([...rec.objects.values()].map((o) => o.value).sort()).toEqual(["status=PENDING", "status=READY"]);
    expect(ended()).toHaveLength(1);
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 3 });
    expect(r.outputs).toEqual({ arn: "arn:cert/cert-1" });
    // The gated record started only after the wait ended.
    const order = events.filter((e) => e.type === "wait-ended" || (e.type === "step-started" && e.urn.endsWith("publish"))).map((e) => e.type);
    expect(order).toEqual(["wait-ended", "step-started"]);
    expect(events.filter((e) => e.type === "wait-polled")).toHaveLength(3);
  });

  it("is satisfied by the first read when the target is ready at once", async () => {
    const cert = certType(fresh("Cert"), { script: () => "READY" });
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const w = wait(c, { until: (x) => x.status.eq("READY") });
      return { arn: w.arn };
    });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    // "At once": after the 50 ms in which waits released together gather into one first read.
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 1, elapsedMs: 50 });
    expect(cert.counters.read).toBe(1);
  });

  it("times out with the wait, the predicate, the last observed value, the elapsed time and the read count", async () => {
    const cert = certType(fresh("Cert"), { script: () => "PENDING" });
    const rec = recordType(fresh("Record"));
    const { stack, ended, events } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued", timeout: minutes(75), interval: seconds(10) });
      new rec.Type("after", { value: issued.arn });
      new rec.Type("independent", { value: "x" });
      return {};
    });
    const t0 = Date.now();
    const r = await stack.up();
    expect(Date.now() - t0).toBeLessThan(15_000); // 75 fake minutes
    expect(r.summary).toMatchObject({ ok: false, failed: 1, skipped: 1 });
    const o = ended()[0]!;
    expect(o.outcome.kind).toBe("timed-out");
    const reads = (o.outcome as { reads: number }).reads;
    // Backoff up to the 10 s interval: a little over 75 min / 10 s reads, far fewer than polling every 500 ms.
    expect(reads).toBeGreaterThan(440);
    expect(reads).toBeLessThan(600);
    expect(o.message).toBe(
      `wait "issued" timed out after 75m0s: cert.status == "READY" never held; last observed status = "PENDING" (${reads} reads). ` +
        "Raise its timeout if the target is just slow, or check why it does not reach that state.",
    );
    // The failure names the line that declared the wait.
    expect(events.find((e) => e.type === "step-failed")).toMatchObject({ kind: "wait", error: o.message, site: "tests/wait/wait-engine.test.ts:72:22" });
    expect(events.find((e) => e.type === "step-skipped")).toMatchObject({ reason: expect.stringContaining("dependency failed: urn:cairn:dev::waits::cairn:wait::issued") });
    expect([...rec.objects.values()]).toEqual([{ value: "x" }]);
    // What did succeed is saved.
    expect((await stack.resources()).map((x) => x.urn.split("::").pop()).sort()).toEqual(["cert", "independent"]);
  });

  it("fails at once on the user's failWhen, naming the condition and observed value", async () => {
    const cert = certType(fresh("Cert"), { script: (n) => (n >= 2 ? "REVOKED" : "PENDING") });
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), failWhen: (x) => x.status.in(["FAILED", "REVOKED"]), timeout: minutes(75) });
      return {};
    });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(false);
    const o = ended()[0]!;
    expect(o.outcome).toMatchObject({ kind: "failed", reads: 2, condition: 'cert.status in ["FAILED", "REVOKED"]' });
    expect(o.message).toMatch(/^wait\(cert\) failed after \d+ms: cert\.status in \["FAILED", "REVOKED"\] \(status = "REVOKED"\)\. cert\.status == "READY" cannot hold any more/);
  });

  it("fails at once on the type's default failure states, with the provider's reason", async () => {
    const cert = certType(fresh("Cert"), {
      script: (n) => (n >= 2 ? { status: "FAILED", failureReason: "CAA_ERROR" } : "PENDING"),
      schema: { wait: { timeout: minutes(75), failWhen: { op: "in", path: ["status"], values: ["FAILED", "REVOKED"] }, reasonAttribute: "failureReason" } },
    });
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      return {};
    });
    const plan = await stack.preview();
    expect(waitStep(plan.steps)).toMatchObject({ timeoutMs: minutes(75), defaultTimeout: true, failWhenText: 'cert.status in ["FAILED", "REVOKED"]' });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "failed", reason: "CAA_ERROR" });
    expect(ended()[0]!.message).toContain('(status = "FAILED"); reason: CAA_ERROR');
  });

  it("a user's failWhen overrides the type's default failure states", async () => {
    const cert = certType(fresh("Cert"), {
      script: (n) => (n === 2 ? "FAILED" : n >= 3 ? "READY" : "PENDING"),
      schema: { wait: { failWhen: { op: "in", path: ["status"], values: ["FAILED"] } } },
    });
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), failWhen: (x) => x.status.eq("REVOKED") });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 3 });
  });

  it("ends as not found after a short grace, not after the whole timeout", async () => {
    const cert = certType(fresh("Cert"), { script: () => "gone" });
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), name: "issued", timeout: minutes(75) });
      return {};
    });
    await stack.up();
    const o = ended()[0]!.outcome as { kind: string; reads: number; elapsedMs: number };
    expect(o.kind).toBe("not-found");
    expect(o.reads).toBeGreaterThanOrEqual(2);
    expect(o.elapsedMs).toBeGreaterThanOrEqual(5_000);
    expect(o.elapsedMs).toBeLessThanOrEqual(10_000);
    expect(ended()[0]!.message).toMatch(/^wait "issued": its target cert \(id "cert-1"\) does not exist \(\d+ reads over \d+s found nothing\)/);
  });

  it("rides out a target that is briefly not found (eventual consistency)", async () => {
    const cert = certType(fresh("Cert"), { script: (n) => (n === 1 ? "gone" : "READY") });
    const { stack, ended } = await setup(() => {
      wait(new cert.Type("cert", { domain: "a.dev" }), { until: (x) => x.status.eq("READY") });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 2 });
  });

  it("retries transient read errors within the budget", async () => {
    const throttle = () => Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException", $retryable: { throttling: true } });
    const cert = certType(fresh("Cert"), { script: (n) => (n <= 2 ? throttle() : "READY") });
    const { stack, ended, events } = await setup(() => {
      wait(new cert.Type("cert", { domain: "a.dev" }), { until: (x) => x.status.eq("READY") });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 3 });
    expect(events.filter((e) => e.type === "wait-polled").map((e) => (e as { note?: string }).note)).toEqual([
      "read failed: ThrottlingException: Rate exceeded (retrying)",
      "read failed: ThrottlingException: Rate exceeded (retrying)",
      undefined,
    ]);
  });

  it("gives up with a read error when transient errors last the whole budget", async () => {
    const cert = certType(fresh("Cert"), { script: () => Object.assign(new Error("Service Unavailable"), { $metadata: { httpStatusCode: 503 } }) });
    const { stack, ended } = await setup(() => {
      wait(new cert.Type("cert", { domain: "a.dev" }), { until: (x) => x.status.eq("READY"), timeout: minutes(2) });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "read-error", transient: true, elapsedMs: minutes(2) });
    expect(ended()[0]!.message).toMatch(/^wait\(cert\) gave up after 2m0s: reading cert kept failing \(Service Unavailable; \d+ reads\)/);
  });

  it("stops at once on a permanent read error", async () => {
    const denied = Object.assign(new Error("User is not authorized to perform acm:DescribeCertificate"), { name: "AccessDeniedException", $fault: "client" });
    const cert = certType(fresh("Cert"), { script: () => denied });
    const { stack, ended } = await setup(() => {
      wait(new cert.Type("cert", { domain: "a.dev" }), { until: (x) => x.status.eq("READY"), timeout: minutes(75) });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.outcome).toMatchObject({ kind: "read-error", transient: false, reads: 1, elapsedMs: 50 });
    expect(ended()[0]!.message).toContain("reading cert failed: AccessDeniedException: User is not authorized");
  });

  it("a failed dependency skips the wait and its users only; everything else completes and is saved", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"), { fail: (i) => (i.value === "bad" ? "record rejected" : undefined) });
    const { stack, ended, events } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const validation = new rec.Type("validation", { value: "bad" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), dependsOn: [validation], name: "issued" });
      new rec.Type("user", { value: issued.arn });
      new rec.Type("other", { value: c.arn });
      return {};
    });
    const r = await stack.up();
    expect(r.summary).toMatchObject({ ok: false, failed: 1, skipped: 2 });
    expect(ended()[0]!.outcome).toEqual({ kind: "dependency-failed", dependency: "urn:cairn:dev::waits::" + rec.Type.type + "::validation" });
    expect(cert.counters.read).toBe(0);
    expect(events.filter((e) => e.type === "step-skipped").map((e) => e.urn.split("::").pop())).toEqual(["issued", "user"]);
    expect((await stack.resources()).map((x) => x.urn.split("::").pop()).sort()).toEqual(["cert", "other"]);
  });

  it("cancellation stops polling within a second; running operations finish and are saved", async () => {
    const cert = certType(fresh("Cert"), { script: () => "PENDING" });
    const rec = recordType(fresh("Record"), { createMs: 1500 });
    const controller = new AbortController();
    const { stack, ended, events } = await setup(
      () => {
        const c = new cert.Type("cert", { domain: "a.dev" });
        const issued = wait(c, { until: (x) => x.status.eq("READY"), interval: seconds(5) });
        new rec.Type("slow", { value: "s" }); // in flight when the user cancels
        new rec.Type("gated", { value: issued.arn });
        return {};
      },
      { clock: realClock, signal: controller.signal }, // real time here: the point is wall time
    );
    const running = stack.up();
    // Cancel once the wait polls and "slow" is running, however busy the machine (not after a fixed sleep:
    // under load the creates had not started by then, and more steps were skipped).
    await new Promise<void>((resolve) => {
      const started = () => events.some((e) => e.type === "wait-polled") && events.some((e) => e.type === "step-started" && e.urn.endsWith("slow"));
      const check = () => (started() ? resolve() : setTimeout(check, 10));
      check();
    });
    const abortedAt = Date.now();
    controller.abort(new Error("cancelled by the user"));
    await new Promise<void>((resolve) => {
      const check = () => (ended().length ? resolve() : setTimeout(check, 10));
      check();
    });
    expect(Date.now() - abortedAt).toBeLessThan(1000); // polling stopped within a second
    expect(ended()[0]!.outcome.kind).toBe("cancelled");
    const r = await running;
    // Cancelled, not failed: the wait and its user are counted as skipped.
    expect(r.summary).toMatchObject({ ok: false, failed: 0, skipped: 2 });
    expect(events.find((e) => e.type === "step-skipped" && e.urn.endsWith("gated"))).toMatchObject({ reason: "cancelled" });
    // The create that was running when the user cancelled finished and was saved.
    expect((await stack.resources()).map((x) => x.urn.split("::").pop()).sort()).toEqual(["cert", "slow"]);
  });
});

describe("wait: review findings", () => {
  it("a read that never returns ends the wait as timed out when its time is up (not never, and not as a read error)", async () => {
    let n = 0;
    const provider: Provider<{ domain: string }, { domain: string; status: string }> = {
      async create({ inputs }) {
        return { id: "x", outputs: { ...inputs, status: "PENDING" } };
      },
      read: ({ outputs }) => (++n === 1 ? Promise.resolve(outputs) : new Promise(() => {})), // hangs from the 2nd read
      async delete() {},
    };
    const Hang = defineResource<{ domain: string }, { domain: string; status: string }>(fresh("Hang"), { provider, schema: { inputs: { domain: {} }, outputs: { domain: {}, status: {} } } });
    const { stack, ended } = await setup(() => {
      wait(new Hang("h", { domain: "a" }), { until: (x) => x.status.eq("READY"), timeout: milliseconds(800) });
      return {};
    }, { clock: realClock });
    const t0 = Date.now();
    await stack.up();
    expect(Date.now() - t0).toBeLessThan(3000);
    // Issue 40: a read cut short by the wait's own deadline is a timeout, reporting the last value seen.
    expect(ended()[0]!.outcome).toMatchObject({ kind: "timed-out", observed: [{ path: "status", value: "PENDING" }] });
  });

  it("a dependency whose provider diff is slow still makes the wait needed", async () => {
    const cert = certType(fresh("Cert"));
    const slowDiff = defineResource<{ value: string }, { value: string }>(fresh("SlowDiff"), {
      provider: {
        async create({ inputs }) { return { id: inputs.value, outputs: inputs }; },
        async read({ outputs }) { return outputs; },
        async update({ news }) { return news; },
        async delete() {},
        async diff({ olds, news }) {
          await new Promise((r) => setTimeout(r, 50));
          return olds.value === news.value ? { kind: "same" } : { kind: "update", changed: ["value"] };
        },
      },
      schema: { inputs: { value: {} }, outputs: { value: {} } },
    });
    let v = "1";
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const record = new slowDiff("validation", { value: v });
      wait(c, { until: (x) => x.status.eq("READY"), dependsOn: [record], name: "issued" });
      return {};
    });
    await stack.up();
    v = "2";
    const plan = await stack.preview();
    expect(waitStep(plan.steps)).toMatchObject({ needed: true, why: "runs because validation (a dependency) is updated" });
  });

  it("a replaced target's old object is deleted only after the users of its wait moved to the new one", async () => {
    const cert = certType(fresh("Cert"), { script: () => "READY" });
    const rec = recordType(fresh("Record"));
    let domain = "a.dev";
    const { stack, events } = await setup(() => {
      const c = new cert.Type("cert", { domain });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      new rec.Type("listener", { value: issued.arn });
      return {};
    });
    await stack.up();
    domain = "b.dev"; // forces a replacement (create first)
    events.length = 0;
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    const seq = events.filter((e) => e.type === "step-started" || e.type === "step-succeeded").map((e) => `${e.type === "step-started" ? "start" : "done"} ${(e as { kind: string }).kind} ${e.urn.split("::").pop()}`);
    expect(seq.indexOf("done update listener")).toBeLessThan(seq.indexOf("start delete-replaced cert"));
  });
});

describe("wait: targets", () => {
  it("waits on a wait: the outer wait polls the same resource after the inner one held", async () => {
    const cert = certType(fresh("Cert"), { script: (n) => (n >= 2 ? "READY" : "PENDING") });
    const rec = recordType(fresh("Record"));
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      const ok = wait(issued, { until: (x) => x.options[0]!.state.eq("OK"), name: "options-ok" });
      new rec.Type("user", { value: ok.arn });
      return {};
    });
    const plan = await stack.preview();
    expect(plan.steps.filter((s) => s.kind === "wait").map((s) => (s as { untilText: string }).untilText)).toEqual([
      'cert.status == "READY"',
      'issued.options[0].state == "OK"',
    ]);
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(ended().map((e) => [e.name, e.outcome.kind])).toEqual([
      ["issued", "satisfied"],
      ["options-ok", "satisfied"],
    ]);
    expect([...rec.objects.values()]).toEqual([{ value: "arn:cert/cert-1" }]);
  });

  it("waits on a read-only lookup", async () => {
    const cert = certType(fresh("Cert"), { script: (n) => (n >= 3 ? "READY" : "PENDING") });
    const rec = recordType(fresh("Record"));
    // The object exists outside this stack: create it through the provider directly.
    const { stack: setupStack } = await setup(() => {
      new cert.Type("external", { domain: "ext.dev" });
      return {};
    });
    await setupStack.up();
    const { stack, ended } = await setup(() => {
      const found = cert.Type.get("found", "cert-1");
      const ready = wait(found, { until: (x) => x.status.eq("READY") });
      new rec.Type("user", { value: ready.arn });
      return {};
    });
    const plan = await stack.preview(); // reads the lookup once (read #1)
    expect(waitStep(plan.steps)).toMatchObject({ needed: true, why: "runs because user uses it and is created" });
    await stack.up(); // lookup read #2, then the wait reads #3 → READY
    expect(ended()[0]!.outcome).toMatchObject({ kind: "satisfied", reads: 1 });
    expect([...rec.objects.values()]).toEqual([{ value: "arn:cert/cert-1" }]);
  });

  it("works inside a component: the wait's URN and its users follow the component", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    class Site extends ComponentResource {
      readonly published: InstanceType<typeof rec.Type>;
      constructor(name: string) {
        super("acme:Site", name);
        const c = new cert.Type(`${name}-cert`, { domain: `${name}.dev` }, { parent: this });
        const issued = wait(c, { until: (x) => x.status.eq("READY") });
        this.published = new rec.Type(`${name}-rec`, { value: issued.arn }, { parent: this });
      }
    }
    const { stack, ended } = await setup(() => {
      const site = new Site("blog");
      return { value: site.published.value };
    });
    const r = await stack.up();
    expect(r.summary?.ok).toBe(true);
    expect(ended()[0]!.urn).toMatch(/^urn:cairn:dev::waits::acme:Site\$cairn:wait::wait\(blog-cert\)@[0-9a-f]{8}$/);
    expect(r.outputs).toEqual({ value: "arn:cert/cert-1" });
  });

  it("can be a stack output, whole or by attribute", async () => {
    const cert = certType(fresh("Cert"));
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      return { arn: issued.arn, issued };
    });
    const plan = await stack.preview();
    expect(plan.outputs.arn).toBeDefined();
    const r = await stack.up();
    expect(r.outputs!.arn).toBe("arn:cert/cert-1");
    expect(r.outputs!.issued).toMatchObject({ id: "cert-1", arn: "arn:cert/cert-1", status: "READY" });
    // The whole object holds a secret attribute, so the output is secret.
    expect((await stack.outputs()).secretKeys).toEqual(["issued"]);
  });
});

describe("wait: plan", () => {
  it("prints `>` lines with the predicate, a non-default timeout, dependencies and why it runs", async () => {
    const cert = certType(fresh("Cert"), { schema: { wait: { timeout: minutes(75) } } });
    const rec = recordType(fresh("Record"));
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const validation = new rec.Type("validation", { value: c.arn });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), dependsOn: [validation], timeout: minutes(80), name: "issued" });
      wait(c, { until: (x) => x.status.eq("READY") }); // default timeout: not printed
      new rec.Type("publish", { value: issued.arn });
      return {};
    });
    const text = plain(renderPlan(await stack.preview())).replace(/test:wait\d+/g, "T");
    expect(text).toBe(
      [
        "+ create urn:cairn:dev::waits::T:Cert::cert",
        "      domain: \"a.dev\"",
        "+ create urn:cairn:dev::waits::T:Record::validation",
        "      value: (known after apply)",
        '> issued (until cert.status == "READY")',
        "      timeout 80m",
        "      after validation",
        "      runs because cert is created, validation (a dependency) is created",
        '> wait(cert) (until cert.status == "READY")',
        "      runs because cert is created",
        "+ create urn:cairn:dev::waits::T:Record::publish",
        "      value: (known after apply)",
        "",
        "Plan: 3 to create, 2 waits.",
      ].join("\n"),
    );
  });

  it("a settled stack plans no changes, runs no wait and makes zero reads", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    const { stack, events } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      new rec.Type("publish", { value: issued.arn });
      return { arn: issued.arn };
    });
    await stack.up();
    const readsAfterFirst = cert.counters.read;
    events.length = 0;
    const plan = await stack.preview();
    const w = waitStep(plan.steps);
    expect(w).toMatchObject({ needed: false, why: "not needed: nothing it guards changes" });
    // The wait's attributes are the target's known values: the downstream diff is exact.
    expect(plan.steps.find((s) => s.urn.endsWith("publish"))?.kind).toBe("same");
    expect(plain(renderPlan(plan))).toContain('> issued (until cert.status == "READY")  not needed');
    const r = await stack.up();
    expect(r.summary).toMatchObject({ ok: true, succeeded: 0 });
    expect(cert.counters.read).toBe(readsAfterFirst);
    expect(events.filter((e) => e.type.startsWith("wait-"))).toEqual([]);
  });

  it("records the satisfying read on the target, so the next plan matches what downstream was given", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      new rec.Type("publish", { value: issued.status });
      return {};
    });
    await stack.up();
    expect([...rec.objects.values()]).toEqual([{ value: "READY" }]);
    expect((await stack.resources()).find((r) => r.urn.endsWith("::cert"))?.outputs.status).toBe("READY");
    const plan = await stack.preview();
    expect(plan.steps.filter((s) => s.kind !== "same").map((s) => [s.kind, (s as { needed?: boolean }).needed])).toEqual([["wait", false]]);
  });

  it("runs when something that uses it changes, and its values are unknown while its target is created", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    let suffix = "1";
    const { stack, ended } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), name: "issued" });
      new rec.Type("publish", { value: issued.arn.apply((a) => `${a}#${suffix}`) });
      return {};
    });
    const first = await stack.preview();
    expect(first.steps.find((s) => s.urn.endsWith("publish"))).toMatchObject({ kind: "create", news: { value: expect.anything() } });
    expect(plain(renderPlan(first))).toContain("value: (known after apply)");
    await stack.up();
    suffix = "2";
    const plan = await stack.preview();
    expect(plan.steps.find((s) => s.urn.endsWith("publish"))).toMatchObject({ kind: "update", news: { value: "arn:cert/cert-1#2" } });
    expect(waitStep(plan.steps)).toMatchObject({ needed: true, why: "runs because publish uses it and is updated" });
    await stack.up();
    expect(ended().map((e) => e.outcome.kind)).toEqual(["satisfied", "satisfied"]);
  });

  it("reports which waits are ready on the last known state (no reads)", async () => {
    const cert = certType(fresh("Cert"), { created: "READY", script: () => "READY" });
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), name: "ready" });
      wait(c, { until: (x) => x.status.eq("REVOKED"), name: "revoked" });
      return {};
    });
    expect(waitsReadyNow(await stack.preview()).map((w) => [w.name, w.ready])).toEqual([
      ["ready", null],
      ["revoked", null],
    ]);
    await stack.up();
    const reads = cert.counters.read;
    // "revoked" timed out in that up: it never held, so it runs again (issue 40); "ready" held and is trusted.
    expect(waitsReadyNow(await stack.preview()).map((w) => [w.name, w.ready, w.needed])).toEqual([
      ["ready", true, false],
      ["revoked", false, true],
    ]);
    expect(cert.counters.read).toBe(reads);
  });

  it("never writes waits to state; users record the wait's target as their dependency", async () => {
    const cert = certType(fresh("Cert"));
    const rec = recordType(fresh("Record"));
    const { stack, dir } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      const v = new rec.Type("validation", { value: "v" });
      const issued = wait(c, { until: (x) => x.status.eq("READY"), dependsOn: [v], name: "issued" });
      new rec.Type("publish", { value: issued.arn });
      return {};
    });
    await stack.up();
    const text = await readFile(join(dir, "stacks", "dev", "state.json"), "utf8");
    expect(text).not.toContain("cairn:wait");
    const publish = (await stack.resources()).find((r) => r.urn.endsWith("publish"))!;
    expect(publish.deps.map((d) => d.split("::").pop()).sort()).toEqual(["cert", "validation"]);
    // Destroy deletes the user before the certificate it waited on.
    const { log } = cert;
    await stack.destroy();
    expect(log.at(-1)).toBe("delete cert-1");
  });
});

describe("wait: batching", () => {
  it("reads all waits on one provider with one readMany per round", async () => {
    const cert = certType(fresh("Cert"), { readMany: true, script: (n) => (n >= 4 ? "READY" : "PENDING") });
    const { stack, ended } = await setup(() => {
      for (let i = 0; i < 20; i++) {
        const c = new cert.Type(`c${i}`, { domain: `d${i}.dev` });
        wait(c, { until: (x) => x.status.eq("READY") });
      }
      return {};
    }, { parallel: 20 });
    await stack.up();
    expect(ended()).toHaveLength(20);
    expect(ended().every((e) => e.outcome.kind === "satisfied")).toBe(true);
    expect(cert.counters.read).toBe(0);
    expect(cert.counters.readManyTargets).toBe(80);
    // Four rounds of 20: one call each.
    expect(cert.counters.readMany).toBe(4);
  });

  it("masks secret attributes in observed values", async () => {
    const cert = certType(fresh("Cert"), { script: (n) => (n >= 2 ? "READY" : "PENDING") });
    const { stack, events } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY"), failWhen: (x) => x.token.eq("nope") });
      return {};
    });
    await stack.up();
    const polled = events.filter((e) => e.type === "wait-polled");
    expect(polled.length).toBeGreaterThan(0);
    expect(JSON.stringify(events)).not.toContain("s3cr3t-token");
    expect(polled[0]).toMatchObject({ observed: [{ path: "status", value: "PENDING" }, { path: "token", value: "[secret]" }] });
  });
});

describe("wait: secrets in errors", () => {
  it("masks a secret attribute quoted in a provider's read error", async () => {
    const cert = certType(fresh("Cert"), { script: () => Object.assign(new Error("token s3cr3t-token rejected"), { name: "AccessDeniedException" }) });
    const { stack, events, ended } = await setup(() => {
      wait(new cert.Type("cert", { domain: "a.dev" }), { until: (x) => x.status.eq("READY") });
      return {};
    });
    await stack.up();
    expect(ended()[0]!.message).toContain("token [secret] rejected");
    expect(JSON.stringify(events)).not.toContain("s3cr3t-token");
  });
});

describe("wait: declaration errors", () => {
  it("refuses unknown attributes, components, missing until and non-predicates with clear messages", async () => {
    const cert = certType(fresh("Cert"));
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => (x as unknown as { stauts: { eq(v: string): never } }).stauts.eq("READY") });
      return {};
    });
    await expect(stack.preview()).rejects.toThrow(/until of wait\(cert\) reads "stauts", which is not an attribute of test:wait\d+:Cert\.\nDid you mean "status"\?/);
    class Group extends ComponentResource {
      constructor() {
        super("acme:Group", "g");
      }
    }
    const { stack: s2 } = await setup(() => {
      wait(new Group() as never, { until: ((x: unknown) => x) as never });
      return {};
    });
    await expect(s2.preview()).rejects.toThrow(/cannot wait on the component "g" \(acme:Group\)/);
  });

  it("names both waits when two share an identity", async () => {
    const cert = certType(fresh("Cert"));
    const { stack } = await setup(() => {
      const c = new cert.Type("cert", { domain: "a.dev" });
      wait(c, { until: (x) => x.status.eq("READY") });
      wait(c, { until: (x) => x.status.eq("READY") });
      return {};
    });
    await expect(stack.preview()).rejects.toThrow(/Two waits have the identity .*\nThe first is declared at tests\/wait\/wait-engine\.test\.ts:\d+:\d+\. .*give one of them a different `name`/);
  });

  it("every outcome kind has a message of its own that names the wait", () => {
    const w = { label: 'wait "issued"', subject: "cert", until: 'cert.status == "ISSUED"', timeoutMs: 60_000 };
    const seen = [{ path: "status", value: "PENDING_VALIDATION" }];
    const outcomes: Record<WaitOutcomeKind, WaitOutcome> = {
      satisfied: { kind: "satisfied", reads: 2, elapsedMs: 5_000, observed: seen },
      "timed-out": { kind: "timed-out", reads: 12, elapsedMs: 60_000, observed: seen },
      failed: { kind: "failed", reads: 3, elapsedMs: 9_000, observed: [{ path: "status", value: "FAILED" }], condition: 'cert.status == "FAILED"' },
      "not-found": { kind: "not-found", reads: 1, elapsedMs: 0, id: "arn:cert/1" },
      "read-error": { kind: "read-error", reads: 1, elapsedMs: 0, error: "AccessDenied", transient: false },
      "dependency-failed": { kind: "dependency-failed", dependency: "validation: create failed" },
      cancelled: { kind: "cancelled", reads: 4, elapsedMs: 20_000, observed: undefined },
    };
    const messages = WAIT_OUTCOME_KINDS.map((k) => describeWaitOutcome(w, outcomes[k]));
    for (const m of messages) expect(m).toContain('wait "issued"');
    expect(new Set(messages).size).toBe(WAIT_OUTCOME_KINDS.length);
    expect(messages[WAIT_OUTCOME_KINDS.indexOf("timed-out")]).toMatch(/timed out after 1m0s: cert.status == "ISSUED" never held; last observed status = "PENDING_VALIDATION" \(12 reads\)/);
    expect(messages[WAIT_OUTCOME_KINDS.indexOf("not-found")]).toContain('id "arn:cert/1"');
    expect(messages[WAIT_OUTCOME_KINDS.indexOf("dependency-failed")]).toContain("validation: create failed");
  });
});
