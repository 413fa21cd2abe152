import { describe, expect, it } from "vitest";
import { closestName, unknownKey } from "../../src/core/did-you-mean.js";

describe("closestName", () => {
  it("finds a name one typo away, and none when every name is far", () => {
    expect(closestName("vpcID", ["vpcId", "subnetIds"])).toBe("vpcId");
    expect(closestName("zzzzzz", ["vpcId", "subnetIds"])).toBeUndefined();
  });
});

describe("unknownKey", () => {
  const known = new Set(["dependsOn", "parent"]);

  it("names the first key not known, with the one meant", () => {
    expect(unknownKey({ parent: 1, dependOn: [] }, known)).toEqual({ key: "dependOn", hint: 'Did you mean "dependsOn"?' });
  });

  it("lists the known names when none is close, and is undefined when every key is known", () => {
    expect(unknownKey({ colour: 1 }, known)).toEqual({ key: "colour", hint: "The options are dependsOn, parent." });
    expect(unknownKey({ parent: 1 }, known)).toBeUndefined();
  });
});
