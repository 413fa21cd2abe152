import { describe, expect, it } from "vitest";
import { allSignals, endingCalls } from "../../src/apply/run-signals.js";

describe("the run's signals", () => {
  const [stopStarting, abandonCalls, idle] = [new AbortController().signal, new AbortController().signal, new AbortController().signal];

  it("end calls in flight on abandonCalls and idle, never on stopStarting (running calls finish)", () => {
    expect(endingCalls({ stopStarting, abandonCalls, idle })).toEqual([abandonCalls, idle]);
    expect(endingCalls({ stopStarting })).toEqual([]);
  });

  it("are all listened to by what stops at any of them (a wait's read), those given only", () => {
    expect(allSignals({ stopStarting, abandonCalls, idle })).toEqual([stopStarting, abandonCalls, idle]);
    expect(allSignals({ idle })).toEqual([idle]);
    expect(allSignals({})).toEqual([]);
  });
});
