import { describe, expect, it } from "vitest";
import { everyMember } from "../../src/core/every-member.js";
import { STEP_KINDS } from "../../src/plan/plan.js";
import { ACTION_KINDS } from "../../src/plan/actions.js";
import { WAIT_OUTCOME_KINDS } from "../../src/wait/outcome.js";

type Kind = "create" | "update" | "delete";

describe("everyMember: a union's list, checked by the compiler", () => {
  it("hands the list back as written", () => {
    expect(everyMember<Kind>()(["create", "update", "delete"])).toEqual(["create", "update", "delete"]);
  });

  it("refuses a list that leaves a member out or adds one (checked by `npm run typecheck`)", () => {
    // @ts-expect-error "delete" is left out
    const short = everyMember<Kind>()(["create", "update"]);
    // @ts-expect-error "move" is no Kind
    const extra = everyMember<Kind>()(["create", "update", "delete", "move"]);
    expect([short.length, extra.length]).toEqual([2, 4]);
  });

  it("the engine's kind lists have no repeats", () => {
    for (const list of [STEP_KINDS, ACTION_KINDS, WAIT_OUTCOME_KINDS]) expect(new Set(list).size).toBe(list.length);
  });
});
