import { describe, expect, it } from "vitest";
import { destroyVerdict, stackGraph } from "../../src/stack/readers.js";
import { STACK_REFERENCE_TYPE } from "../../src/program/stack-reference.js";
import { emptyState, type StackState } from "../../src/state/types.js";
import type { StateBackend } from "../../src/state/backend.js";
import type { StackAccess } from "../../src/state/stack-access.js";
import type { Urn } from "../../src/core/urn.js";

const URL = "file:///infra/.cairn";

/** A stack's state whose references read `reads` (stack names in project "p"). */
function stateOf(stack: string, reads: string[]): StackState {
  const resources = Object.fromEntries(
    reads.map((target) => {
      const urn = `urn:cairn:${stack}::p::${STACK_REFERENCE_TYPE}::${target}` as Urn;
      return [urn, { urn, type: STACK_REFERENCE_TYPE, id: target, inputs: { project: "p", stack: target, backend: URL }, outputs: {}, deps: [] }];
    }),
  );
  return { ...emptyState("p", stack), resources };
}

/** The backend of stack `own`, in a backend holding `states`; `read` counts each stack's state reads. */
function backendOf(own: string, states: Record<string, StackState>, read: Map<string, number>): { backend: StateBackend; access: StackAccess } {
  const open = (stack: string) =>
    ({
      project: "p",
      stack,
      url: URL,
      listStacks: async () => Object.keys(states),
      readStored: async () => {
        read.set(stack, (read.get(stack) ?? 0) + 1);
        return states[stack]!;
      },
      close: async () => {},
    }) as unknown as StateBackend;
  return { backend: open(own), access: { url: URL, passphrase: undefined, open: (_p: string, s: string) => open(s) } as unknown as StackAccess };
}

describe("stackGraph", () => {
  const states = { network: stateOf("network", []), app: stateOf("app", ["network"]), web: stateOf("web", ["app", "network"]) };

  it("reads every stack's state and lists who reads whom", async () => {
    const read = new Map<string, number>();
    const { backend, access } = backendOf("network", states, read);
    const g = await stackGraph(backend, access);
    expect(g.reads.map((r) => `${r.reader.stack}→${r.target.stack}`).sort()).toEqual(["app→network", "web→app", "web→network"]);
    expect([...read.keys()].sort()).toEqual(["app", "network", "web"]);
  });

  it("leaves the own stack unread when asked (what it reads does not decide a destroy), and still finds its readers", async () => {
    const read = new Map<string, number>();
    const { backend, access } = backendOf("app", states, read);
    const g = await stackGraph(backend, access, { readOwn: false });
    expect(read.has("app")).toBe(false);
    expect(g.stacks.map((s) => s.stack).sort()).toEqual(["app", "network", "web"]);
    expect(destroyVerdict(g, { project: "p", stack: "app" }, URL, false).error).toMatch(/stack p\/app is read by p\/web/);
  });
});
