import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { certificateProvider } from "../../../src/providers/aws/acm/certificate.provider.js";
import { Provider } from "../../../src/providers/aws/provider.js";
import { testCtx } from "./ctx.js";

// A stand-in for an AWS-compatible endpoint (a local emulator): it answers ACM's JSON protocol on 127.0.0.1.
let server: Server;
let url: string;
const seen: { target: string; auth: string }[] = [];
const ARN = "arn:aws:acm:eu-west-1:111122223333:certificate/local-1";

beforeAll(async () => {
  server = createServer((req: IncomingMessage, res) => {
    let body = "";
    req.on("data", (d) => (body += d));
    req.on("end", () => {
      const target = String(req.headers["x-amz-target"] ?? "");
      seen.push({ target, auth: String(req.headers.authorization ?? "") });
      res.setHeader("content-type", "application/x-amz-json-1.1");
      if (target.endsWith("DescribeCertificate")) {
        res.end(JSON.stringify({ Certificate: { CertificateArn: JSON.parse(body).CertificateArn, DomainName: "local.example.dev", Status: "ISSUED", SubjectAlternativeNames: ["local.example.dev"], DomainValidationOptions: [], InUseBy: [] } }));
      } else if (target.endsWith("ListTagsForCertificate")) {
        res.end(JSON.stringify({ Tags: [{ Key: "cairn:urn", Value: "u" }, { Key: "team", Value: "infra" }] }));
      } else {
        res.statusCode = 400;
        res.end(JSON.stringify({ __type: "UnknownOperationException", message: target }));
      }
    });
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((r) => server.close(r));
});

const saved = { ...process.env };
afterEach(() => {
  for (const k of ["AWS_ENDPOINT_URL", "AWS_REGION", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]) {
    if (saved[k] === undefined) delete process.env[k];
    else process.env[k] = saved[k];
  }
  seen.length = 0;
});

describe("AWS-compatible endpoints", () => {
  it("the default provider honours AWS_ENDPOINT_URL (with AWS_REGION and keys from the environment)", async () => {
    Object.assign(process.env, { AWS_ENDPOINT_URL: url, AWS_REGION: "eu-west-1", AWS_ACCESS_KEY_ID: "AKIDLOCAL", AWS_SECRET_ACCESS_KEY: "local-secret" });
    const out = await certificateProvider.read({ urn: "urn:cairn:dev::p::aws:acm:Certificate::c" as never, id: ARN, inputs: { domainName: "local.example.dev" }, outputs: {} as never, ctx: testCtx() });
    expect(out).toMatchObject({ arn: ARN, status: "ISSUED", tags: { team: "infra" } });
    expect(seen.map((s) => s.target)).toEqual(["CertificateManager.DescribeCertificate", "CertificateManager.ListTagsForCertificate"]);
    expect(seen[0]!.auth).toContain("Credential=AKIDLOCAL/");
    expect(seen[0]!.auth).toContain("/eu-west-1/acm/aws4_request");
  });

  it("an aws.Provider's endpoint, region and credentials reach the SDK client", async () => {
    const local = new Provider("endpoint-test", { endpoint: url, region: "ap-south-1", credentials: { accessKeyId: "AKIDPROVIDER", secretAccessKey: "p" } });
    const out = await certificateProvider.read({ urn: "urn:cairn:dev::p::aws:acm:Certificate::c" as never, id: ARN, inputs: { domainName: "local.example.dev" }, outputs: {} as never, ctx: testCtx({ provider: local }) });
    expect(out).toMatchObject({ arn: ARN, status: "ISSUED" });
    expect(seen[0]!.auth).toContain("Credential=AKIDPROVIDER/");
    expect(seen[0]!.auth).toContain("/ap-south-1/acm/aws4_request");
  });
});
