import { describe, expect, it } from "vitest";
import { Provider, resolveProvider } from "../../../src/providers/aws/provider.js";

describe("aws.Provider records and resolution", () => {
  it("an object is reached where it was recorded: a setting the record lacks is never filled from today's instance", () => {
    new Provider("prov-test-a", { profile: "prod", region: "us-east-1" });
    // Recorded when the instance had no region (the region came from AWS_REGION at the time).
    expect(resolveProvider({ package: "aws", name: "prov-test-a", settings: {} })).toEqual({ profile: "prod" });
    expect(resolveProvider({ package: "aws", name: "prov-test-a", settings: { region: "eu-west-1" } })).toEqual({ profile: "prod", region: "eu-west-1" });
    // An instance the program no longer declares: the record alone, with the default credentials.
    expect(resolveProvider({ package: "aws", name: "prov-test-gone", settings: { endpoint: "http://127.0.0.1:4566" } })).toEqual({ endpoint: "http://127.0.0.1:4566" });
  });

  it("refuses two instances of one name with different settings, and allows the same one declared again", () => {
    new Provider("prov-test-b", { region: "eu-west-1" });
    expect(() => new Provider("prov-test-b", { region: "eu-west-1" })).not.toThrow();
    expect(() => new Provider("prov-test-b", { region: "us-east-1" })).toThrow(/Two aws.Provider instances are named "prov-test-b" with different settings/);
  });
});
