import { describe, expect, it } from "vitest";
import { Ajv } from "ajv";
import { readTarGz } from "../../../codegen/registry/tarball.js";
import { writeTarGz } from "../../../codegen/registry/pack.js";
import { jsPattern, trimSchema } from "../../../codegen/registry/trim.js";
import { namingProperty, registryData } from "../../../codegen/registry/facts.js";
import type { RegistrySchema } from "../../../codegen/registry/load.js";

const schema = (s: Partial<RegistrySchema>): RegistrySchema => ({ typeName: "AWS::Test::Widget", properties: {}, ...s });

describe("the vendored registry as the generator reads it", () => {
  it("an archive written by the refresh script reads back the same files, and the same files give the same bytes", () => {
    const files = new Map([["schemas/AWS_B_C.json", Buffer.from('{"typeName":"AWS::B::C"}')], ["schemas/AWS_A_B.json", Buffer.from("x".repeat(700))]]);
    const gz = writeTarGz(files);
    expect(readTarGz(gz)).toEqual(new Map([...files].sort()));
    expect(writeTarGz(new Map([...files].reverse())).equals(gz)).toBe(true);
  });

  it("Java patterns become JavaScript ones with the same meaning, or are dropped", () => {
    expect(jsPattern("^[a-zA-Z0-9\\-\\_]+$")).toBe("^[a-zA-Z0-9\\-_]+$");
    expect(jsPattern("^a\\-b$")).toBe("^a-b$");
    expect(jsPattern("(?s).+")).toBe("[\\s\\S]+");
    expect(new RegExp(jsPattern("(?s).+")!, "u").test("two\nlines")).toBe(true);
    expect(jsPattern("[\\p{L}\\p{Z}]+")).toBe("[\\p{L}\\p{Z}]+");
    for (const java of ["(?i)abc", "\\Aabc\\z", "a*+", "\\p{Alnum}+"]) expect(jsPattern(java), java).toBeUndefined();
  });

  it("the trimmed schema keeps what validation needs and nothing ajv's strict mode refuses", () => {
    const trimmed = trimSchema(
      schema({
        description: "d",
        properties: { Name: { type: "string", description: "n", pattern: "^\\_x$", insertionOrder: false, relationshipRef: { typeName: "x" } }, Arn: { type: "string" } },
        required: ["Name", "Arn"],
        readOnlyProperties: ["/properties/Arn"],
        additionalProperties: false,
      }),
      { droppedPatterns: [] },
    );
    expect(trimmed).toEqual({ type: "object", properties: { Name: { type: "string", pattern: "^_x$" }, Arn: { type: "string" } }, required: ["Name"], additionalProperties: false });
    expect(() => new Ajv({ strict: true }).compile(trimmed)).not.toThrow();
  });

  it("the trimmed schema keeps each property's default, at any depth, and drops an empty pattern", () => {
    const trimmed = trimSchema(
      schema({
        properties: { Mode: { type: "string", default: "JSON", pattern: "" }, Opts: { $ref: "#/definitions/Opts" } },
        definitions: { Opts: { type: "object", properties: { Retries: { type: "integer", default: 2 } } } },
      }),
      { droppedPatterns: [] },
    );
    expect(trimmed).toEqual({
      type: "object",
      properties: { Mode: { type: "string", default: "JSON" }, Opts: { $ref: "#/definitions/Opts" } },
      definitions: { Opts: { type: "object", properties: { Retries: { type: "integer", default: 2 } } } },
    });
    expect(() => new Ajv({ strict: true }).compile(trimmed)).not.toThrow();
  });

  it("registry facts: paths without /properties/, unordered arrays at depth, no create handler means not provisionable", () => {
    const s = schema({
      properties: { Rules: { type: "array", insertionOrder: false, items: { $ref: "#/definitions/Rule" } }, Name: { type: "string", maxLength: 20 } },
      definitions: { Rule: { type: "object", properties: { Ports: { type: "array", insertionOrder: false, items: { type: "integer" } } } } },
      createOnlyProperties: ["/properties/Name", "/properties/Rules/*/Ports"],
      handlers: { read: {}, delete: {} },
    });
    expect(registryData(s)).toMatchObject({ h: "", co: ["Name", "Rules/*/Ports"], uo: ["Rules", "Rules/*/Ports"] });
    expect(registryData({ ...s, handlers: { create: {}, read: {}, list: {} } }).h).toBe("crl");
    expect(registryData(undefined)).toEqual({ h: "" });
  });

  it("the naming property is an optional, create-only string: the identifier, else <Type>Name, else Name", () => {
    const base = { properties: { WidgetName: { type: "string", minLength: 1, maxLength: 40 }, Name: { type: "string" }, Id: { type: "string" } }, primaryIdentifier: ["/properties/Id"], readOnlyProperties: ["/properties/Id"] };
    expect(namingProperty(schema({ ...base, createOnlyProperties: ["/properties/WidgetName", "/properties/Name"] }))).toEqual({ path: "WidgetName", min: 1, max: 40 });
    expect(namingProperty(schema({ ...base, createOnlyProperties: ["/properties/Name"] }))).toEqual({ path: "Name" });
    expect(namingProperty(schema({ ...base, createOnlyProperties: ["/properties/WidgetName"], required: ["WidgetName"] }))).toBeUndefined();
  });
});
