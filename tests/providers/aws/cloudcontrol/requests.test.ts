import { describe, expect, it } from "vitest";
import type { ProgressEvent } from "@aws-sdk/client-cloudcontrol";
import { RequestPoller } from "../../../../src/providers/aws/cloudcontrol/requests.js";
import type { CloudControl } from "../../../../src/providers/aws/cloudcontrol/client.js";
import { FakeClock } from "../../../../src/testing/fake-clock.js";
import { seconds } from "../../../../src/core/duration.js";

/** A Cloud Control whose requests finish at set times on `clock`, answering only the list and status calls. */
function scripted(clock: FakeClock) {
  const finishAt = new Map<string, number>();
  const listedAt: number[] = [];
  const eventOf = (token: string): ProgressEvent => ({ RequestToken: token, Operation: "CREATE", OperationStatus: clock.now() >= finishAt.get(token)! ? "SUCCESS" : "IN_PROGRESS", Identifier: token });
  const cc = {
    async listRequests() {
      listedAt.push(clock.now());
      return { ResourceRequestStatusSummaries: [...finishAt.keys()].reverse().map(eventOf) };
    },
    async status(_ctx: unknown, token: string) {
      return { ProgressEvent: eventOf(token) };
    },
  } as unknown as CloudControl;
  const start = (token: string, ms: number, extra: Partial<ProgressEvent> = {}): ProgressEvent => {
    finishAt.set(token, clock.now() + ms);
    return { RequestToken: token, Operation: "CREATE", OperationStatus: "IN_PROGRESS", ...extra };
  };
  return { cc, start, listedAt };
}

const ctxOf = (clock: FakeClock) => ({ clock, signal: new AbortController().signal });

describe("the request poller's schedule", () => {
  it("a request started while an old one is in flight is checked soon, not after the old one's long pause", async () => {
    const clock = new FakeClock({ auto: true });
    const { cc, start } = scripted(clock);
    const poller = new RequestPoller(cc);
    const old = poller.wait(ctxOf(clock), start("old", 600_000));
    await clock.sleep(seconds(300)); // the old request's pauses have grown to seconds by now
    const t0 = clock.now();
    const fresh = await poller.wait(ctxOf(clock), start("new", 100));
    expect(fresh.OperationStatus).toBe("SUCCESS");
    expect(clock.now() - t0).toBeLessThanOrEqual(500);
    expect((await old).OperationStatus).toBe("SUCCESS");
  });

  it("a long request's end is noticed within a tenth of its duration, with few calls", async () => {
    const clock = new FakeClock({ auto: true });
    const { cc, start, listedAt } = scripted(clock);
    const poller = new RequestPoller(cc);
    const t0 = clock.now();
    await poller.wait(ctxOf(clock), start("db", 600_000));
    expect(clock.now() - t0 - 600_000).toBeLessThanOrEqual(60_000);
    expect(listedAt.length).toBeLessThanOrEqual(100);
    // The pauses grow: the last ones are seconds apart.
    expect(listedAt.at(-1)! - listedAt.at(-2)!).toBeGreaterThanOrEqual(5_000);
  });

  it("requests started together are reported on by one list call per round, however many", async () => {
    const clock = new FakeClock({ auto: true });
    const { cc, start, listedAt } = scripted(clock);
    const poller = new RequestPoller(cc);
    await Promise.all(Array.from({ length: 50 }, (_, i) => poller.wait(ctxOf(clock), start(`r${i}`, 1_000))));
    // Checked at 0.25, 0.5, 0.75 and 1 s (the pause is a quarter second at these ages): four rounds, one call each.
    expect(listedAt.length).toBe(4);
  });

  it("a request that asks to be asked again later (RetryAfter) is not polled before then", async () => {
    const clock = new FakeClock({ auto: true });
    const { cc, start, listedAt } = scripted(clock);
    const poller = new RequestPoller(cc);
    const t0 = clock.now();
    await poller.wait(ctxOf(clock), start("slow", 1_000, { RetryAfter: new Date(Date.now() + 5_000) }));
    expect(listedAt[0]! - t0).toBeGreaterThanOrEqual(4_900);
    expect(listedAt).toHaveLength(1);
  });
});
