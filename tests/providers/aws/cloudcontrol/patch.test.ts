import { describe, expect, it } from "vitest";
import { patchDocument } from "../../../../src/providers/aws/cloudcontrol/patch.js";
import { decodeTypeSpec, FLAG, type TypeSpecData } from "../../../../src/providers/aws/cloudcontrol/type-spec.js";

const { required: R, replaces: X } = FLAG;

/**
 * Shaped after the shipped AWS::Lambda::Function: the registry lists each member of `Code` as write-only,
 * not `Code` itself, so a read returns no `Code` at all.
 */
const FN = decodeTypeSpec("Test::Lambda::Function", "test:lambda:Function", {
  id: ["FunctionName"],
  p: [
    ["FunctionName", "string", X],
    ["Code", ["ref", "Code"], R],
    ["MemorySize", "integer"],
  ],
  d: { Code: [["ZipFile", "string"], ["S3Bucket", "string"], ["S3Key", "string"]] },
  reg: { h: "crudl", wo: ["Code/ZipFile", "Code/S3Bucket", "Code/S3Key"], co: ["FunctionName"] },
} satisfies TypeSpecData);

describe("patches of an object whose every member is write-only", () => {
  it("add the object whole when its S3 key changes, not members of an object the read model lacks", () => {
    const olds = { FunctionName: "f", Code: { S3Bucket: "assets", S3Key: "a.zip" } };
    const news = { FunctionName: "f", Code: { S3Bucket: "assets", S3Key: "b.zip" } };

    expect(patchDocument(FN, olds, news)).toEqual([{ op: "add", path: "/Code", value: { S3Bucket: "assets", S3Key: "b.zip" } }]);
  });

  it("re-send the object whole with an unrelated change", () => {
    const olds = { FunctionName: "f", MemorySize: 128, Code: { S3Bucket: "assets", S3Key: "a.zip" } };
    const news = { FunctionName: "f", MemorySize: 256, Code: { S3Bucket: "assets", S3Key: "a.zip" } };

    expect(patchDocument(FN, olds, news)).toEqual([
      { op: "replace", path: "/MemorySize", value: 256 },
      { op: "add", path: "/Code", value: { S3Bucket: "assets", S3Key: "a.zip" } },
    ]);
  });
});
