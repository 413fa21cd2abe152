import { describe, expect, it } from "vitest";
import { FakeClock } from "../../../src/testing/fake-clock.js";
import { seconds } from "../../../src/core/duration.js";
import { fakeCloud, fnModel, FN } from "./types.js";

interface Answer {
  ProgressEvent: { RequestToken: string; OperationStatus: string };
}

describe("how long requests take on the fake Cloud Control", () => {
  it("with a latency, a request stays IN_PROGRESS until that much time has passed on the fake's clock", async () => {
    const clock = new FakeClock();
    const cloud = fakeCloud({ pollsToFinish: 1, clock, latency: (op) => (op === "CREATE" ? 5000 : 0) });
    const { ProgressEvent: e } = (await cloud.handle("CreateResource", { TypeName: FN, DesiredState: JSON.stringify(fnModel()) })) as Answer;
    const status = async () => ((await cloud.handle("GetResourceRequestStatus", { RequestToken: e.RequestToken })) as Answer).ProgressEvent.OperationStatus;
    expect(await status()).toBe("IN_PROGRESS");
    await clock.advance(seconds(4));
    expect(await status()).toBe("IN_PROGRESS");
    await clock.advance(seconds(1));
    expect(await status()).toBe("SUCCESS");
    expect(cloud.objects(FN)).toHaveLength(1);
  });

  it("with pollsToFinish 0, a request has finished when CreateResource answers", async () => {
    const cloud = fakeCloud({ pollsToFinish: 0 });
    const { ProgressEvent: e } = (await cloud.handle("CreateResource", { TypeName: FN, DesiredState: JSON.stringify(fnModel()) })) as Answer;
    expect(e.OperationStatus).toBe("SUCCESS");
    expect(cloud.objects(FN)).toHaveLength(1);
  });
});
