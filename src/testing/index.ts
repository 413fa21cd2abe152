/**
 * Testing Cairn programs on the real engine: {@link testProgram} plans and applies a program against mocked
 * providers ({@link mocks}), with state in memory and a fake clock, and returns plain data to assert on.
 * No global state: every run is independent.
 *
 * @example
 * import { expect, it } from "vitest";
 * import { testProgram, mocks, expectWaitTimedOut } from "cairn-iac/testing";
 * import app from "./infra.js";
 *
 * it("gives up on a certificate that is never issued", async () => {
 *   const run = await testProgram(app, {
 *     mocks: {
 *       "aws:acm:Certificate": mocks.resource({ reads: [{ status: "PENDING_VALIDATION" }] }),
 *       "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev." }),
 *       "aws:route53:RecordSet": mocks.resource(),
 *     },
 *   });
 *   expectWaitTimedOut(await run.up(), "issued"); // 75 minutes of polling, in milliseconds
 * });
 *
 * @module cairn-iac/testing
 */
// Mocks fail with the AWS SDK's error names (ThrottlingException): the retry classification knows them.
import "../providers/aws/error-kinds.js";
export { FakeClock } from "./fake-clock.js";
export { testProgram, TestRun, type TestProgramOptions, type TestOpOptions, type TestConfigValue } from "./test-program.js";
export { mocks, Mock, type ResourceMockOptions, type MockOutputs, type MockFailure, type MockTarget, type MockEnv } from "./mocks.js";
export { MissingMockError, type MockTable, type MockSelector, type MockCall, type Needed } from "./mock-table.js";
export { toTestPlan, type TestPlan, type TestStep, type TestUpResult, type TestWait, type TestFailure, type TestResource } from "./results.js";
export { expectFailure, expectWaitTimedOut, expectWaitFailed, TestExpectationError, type FailureExpectation } from "./expect.js";
export { cairnMatchers, type CairnMatchers, type MatcherResult } from "./matchers.js";
export { FakeCloudControl, type FakeCloudControlOptions, type FakeObject, type FakeCall, type FakeAction, type LostWriteOnly } from "./cloudcontrol/fake-cloud.js";
export { serveFakeCloudControl, type ServedFakeCloudControl } from "./cloudcontrol/fake-server.js";
export type { FakeS3, FakeS3Object } from "./cloudcontrol/fake-s3.js";
export type { FakeFailure } from "./cloudcontrol/fake-errors.js";
export type { StatusTrack } from "./cloudcontrol/fake-model.js";
