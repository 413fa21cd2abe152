import { describe, expect, it } from "vitest";
import { makeUrn, parseUrn } from "../../src/core/urn.js";

describe("URN", () => {
  it("has the documented shape", () => {
    expect(makeUrn({ stack: "dev", project: "hello", parentTypes: [], type: "local:File", name: "config" })).toBe("urn:cairn:dev::hello::local:File::config");
  });

  it("joins parent component types with $", () => {
    const urn = makeUrn({ stack: "prod", project: "site", parentTypes: ["acme:Site", "acme:Assets"], type: "local:File", name: "index" });
    expect(urn).toBe("urn:cairn:prod::site::acme:Site$acme:Assets$local:File::index");
    expect(parseUrn(urn)).toEqual({ stack: "prod", project: "site", parentTypes: ["acme:Site", "acme:Assets"], type: "local:File", name: "index" });
  });

  it("rejects text that is not a URN, naming it", () => {
    expect(() => parseUrn("arn:aws:acm:x")).toThrow('"arn:aws:acm:x" is not a Cairn URN');
  });
});
