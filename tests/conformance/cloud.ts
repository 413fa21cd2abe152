import { defineResource } from "../../src/program/define.js";
import type { Provider } from "../../src/provider/provider.js";
import { IncompleteCreateError, TransientError } from "../../src/core/errors.js";

/** What a box is given. `name` is unique per kind (like most cloud names); `zone` forces a new object. */
export interface BoxIn {
  name: string;
  zone?: string;
  /** ARNs of other objects this one uses: they must exist, and cannot be deleted while it does. */
  refs?: string[];
  value?: string;
}

/** What a box reports. */
export interface BoxOut extends BoxIn {
  arn: string;
  status: string;
}

/** One object in the cloud. */
export interface CloudObject {
  id: string;
  kind: string;
  attrs: BoxOut;
}

/** A recorded call: the operation, the kind and the object's name and id. */
export interface Call {
  op: "create" | "read" | "update" | "delete";
  kind: string;
  name: string;
  id?: string;
}

type Fault = "fail" | "hang" | "transient" | "no-id" | "null-outputs" | "incomplete";

/**
 * A fake cloud as strict as a real one: names are unique per kind, an object cannot be created or updated
 * to use an object that does not exist, and an object that another object still uses cannot be deleted
 * ("in use"). Every call is recorded in order, so tests assert the cloud's contents and the call order.
 */
export class StrictCloud {
  readonly objects = new Map<string, CloudObject>();
  readonly calls: Call[] = [];
  private next = 1;
  private faults: { op: Call["op"]; name: string; fault: Fault; times: number }[] = [];
  private readonly scripts = new Map<string, string[]>();
  /** The status new objects start with. */
  createdStatus = "READY";

  /** The statuses successive reads of `name` report (the last one repeats): an object that settles over time. */
  script(name: string, statuses: string[]): void {
    this.scripts.set(name, [...statuses]);
  }

  /** Makes the next `times` calls of `op` on `name` misbehave. */
  inject(op: Call["op"], name: string, fault: Fault, times = 1): void {
    this.faults.push({ op, name, fault, times });
  }

  /** Changes an object behind Cairn's back (drift). */
  tamper(name: string, attrs: Partial<BoxOut>): void {
    const o = this.byName(name);
    if (!o) throw new Error(`no object named ${name}`);
    Object.assign(o.attrs, attrs);
  }

  /** Deletes an object behind Cairn's back. */
  vanish(name: string): void {
    const o = this.byName(name);
    if (o) this.objects.delete(o.id);
  }

  byName(name: string, kind?: string): CloudObject | undefined {
    return [...this.objects.values()].find((o) => o.attrs.name === name && (!kind || o.kind === kind));
  }

  /** `name → value` of every object, sorted, with what it uses: the cloud's contents at a glance. */
  contents(): string[] {
    const nameOfArn = (arn: string) => [...this.objects.values()].find((o) => o.attrs.arn === arn)?.attrs.name ?? `?${arn}`;
    return [...this.objects.values()]
      .map((o) => `${o.kind}:${o.attrs.name}${o.attrs.zone ? `@${o.attrs.zone}` : ""}${o.attrs.value !== undefined ? `=${o.attrs.value}` : ""}${o.attrs.refs?.length ? ` uses ${o.attrs.refs.map(nameOfArn).join(",")}` : ""}`)
      .sort();
  }

  /** The calls that change things, as `create a`, `update b`, `delete a`: the order of work. */
  changes(): string[] {
    return this.calls.filter((c) => c.op !== "read").map((c) => `${c.op} ${c.name}`);
  }

  /** The position of a change in {@link changes}, to assert one came before another. */
  indexOf(change: string): number {
    const i = this.changes().indexOf(change);
    if (i < 0) throw new Error(`"${change}" never happened; changes were: ${this.changes().join(", ")}`);
    return i;
  }

  private fault(op: Call["op"], name: string): Fault | undefined {
    const f = this.faults.find((x) => x.op === op && x.name === name && x.times > 0);
    if (!f) return undefined;
    f.times--;
    return f.fault;
  }

  private usersOf(o: CloudObject): CloudObject[] {
    return [...this.objects.values()].filter((x) => x !== o && x.attrs.refs?.includes(o.attrs.arn));
  }

  private checkRefs(kind: string, a: BoxIn): void {
    for (const r of a.refs ?? []) {
      if (![...this.objects.values()].some((o) => o.attrs.arn === r)) throw new Error(`InvalidReference: ${kind} "${a.name}" uses ${r}, which does not exist`);
    }
  }

  private async misbehave<T>(op: Call["op"], name: string, ok: () => T): Promise<T> {
    const f = this.fault(op, name);
    if (f === "hang") return new Promise<T>(() => {});
    if (f === "fail") throw new Error(`InternalFailure: ${op} of ${name} failed`);
    if (f === "transient") throw new TransientError(`Throttling: rate exceeded for ${op} of ${name}`);
    const r = ok();
    if (f === "incomplete") {
      const made = r as { id: string; outputs: Record<string, unknown> };
      throw new IncompleteCreateError(made.id, made.outputs, new Error("TagResource failed: AccessDenied"));
    }
    if (f === "no-id") return { ...(r as object), id: undefined } as T;
    if (f === "null-outputs") return (op === "create" ? { ...(r as object), outputs: null } : null) as T;
    return r;
  }

  /** The provider of one kind of box. */
  provider(kind: string): Provider<BoxIn, BoxOut> {
    return {
      create: ({ inputs }) => this.misbehave("create", inputs.name, () => {
        this.calls.push({ op: "create", kind, name: inputs.name });
        if (this.byName(inputs.name, kind)) throw new Error(`AlreadyExists: a ${kind} named "${inputs.name}" exists`);
        this.checkRefs(kind, inputs);
        const id = `${kind}-${this.next++}`;
        const attrs: BoxOut = { ...structuredClone(inputs), arn: `arn:${kind}:${id}`, status: this.createdStatus };
        this.objects.set(id, { id, kind, attrs });
        this.calls[this.calls.length - 1]!.id = id;
        return { id, outputs: structuredClone(attrs) };
      }),
      read: async ({ id }) => {
        const o = this.objects.get(id);
        this.calls.push({ op: "read", kind, name: o?.attrs.name ?? "?", id }); // a refused read is a call too
        return this.misbehave("read", o?.attrs.name ?? "?", () => {
          const script = o && this.scripts.get(o.attrs.name);
          if (o && script?.length) o.attrs.status = script.length > 1 ? script.shift()! : script[0]!;
          return o ? structuredClone(o.attrs) : undefined;
        });
      },
      update: ({ id, news }) => this.misbehave("update", news.name, () => {
        this.calls.push({ op: "update", kind, name: news.name, id });
        const o = this.objects.get(id);
        if (!o) throw new Error(`NotFound: ${kind} ${id}`);
        this.checkRefs(kind, news);
        o.attrs = { ...structuredClone(news), arn: o.attrs.arn, status: o.attrs.status };
        return structuredClone(o.attrs);
      }),
      delete: ({ id, inputs }) => this.misbehave("delete", inputs.name, () => {
        this.calls.push({ op: "delete", kind, name: inputs.name, id });
        const o = this.objects.get(id);
        if (!o) return; // deleting something gone succeeds
        const users = this.usersOf(o);
        if (users.length) throw new Error(`DependencyViolation: ${kind} "${o.attrs.name}" is in use by ${users.map((u) => `"${u.attrs.name}"`).join(", ")}`);
        this.objects.delete(id);
      }),
    };
  }

  /** A resource type backed by this cloud: `zone` forces replacement, `value` and `refs` update in place. */
  type(kind: string, token = `strict:cloud:${kind}`) {
    return defineResource<BoxIn, BoxOut>(token, {
      provider: this.provider(kind),
      schema: {
        inputs: { name: { type: "string", forceNew: true }, zone: { type: "string", forceNew: true }, refs: { type: "array" }, value: { type: "string" } },
        outputs: { name: { type: "string" }, zone: { type: "string" }, refs: { type: "array" }, value: { type: "string" }, arn: { type: "string", stable: true }, status: { type: "string" } },
      },
    });
  }
}
