import { beforeEach, describe, expect, it } from "vitest";
import { firstValueFrom } from "rxjs";
import { mockClient } from "aws-sdk-client-mock";
import {
  ACMClient,
  AccessDeniedException,
  AddTagsToCertificateCommand,
  DeleteCertificateCommand,
  DescribeCertificateCommand,
  InvalidDomainValidationOptionsException,
  InvalidParameterException,
  LimitExceededException,
  ListCertificatesCommand,
  ListTagsForCertificateCommand,
  RemoveTagsFromCertificateCommand,
  RequestCertificateCommand,
  ResourceInUseException,
  ResourceNotFoundException,
  ThrottlingException,
  type CertificateDetail,
  type DomainValidation,
} from "@aws-sdk/client-acm";
import { IncompleteCreateError } from "../../../src/core/errors.js";
import { minutes } from "../../../src/core/duration.js";
import type { Urn } from "../../../src/core/urn.js";
import { checkDiagnostic } from "../../../src/provider/provider.js";
import { output } from "../../../src/program/output.js";
import { EvalContext, runInContext } from "../../../src/program/context.js";
import { ValueResolver } from "../../../src/runtime/values.js";
import { NODE } from "../../../src/program/resource.js";
import { certificateProvider, idempotencyToken, normalizeDomain, tagChanges, urnTagValue } from "../../../src/providers/aws/acm/certificate.provider.js";
import { distinctValidationDomains, validationRecordOf } from "../../../src/providers/aws/acm/certificate.methods.js";
import { Certificate, type CertificateInputs, type CertificateOutputs } from "../../../src/providers/aws/generated/acm/certificate.js";
import { testCtx } from "./ctx.js";

const acm = mockClient(ACMClient);
const URN = "urn:cairn:dev::site::aws:acm:Certificate::cert" as Urn;
const ARN = "arn:aws:acm:us-east-1:123456789012:certificate/11111111-2222-3333-4444-555555555555";
const ARN2 = "arn:aws:acm:us-east-1:123456789012:certificate/aaaaaaaa-2222-3333-4444-555555555555";
const ARN3 = "arn:aws:acm:us-east-1:123456789012:certificate/bbbbbbbb-2222-3333-4444-555555555555";

const err = <E>(C: new (o: { message: string; $metadata: object }) => E, message = "boom") => new C({ message, $metadata: {} });

/** A DNS validation option as ACM returns it (fully qualified names with a trailing dot). */
function dvo(domain: string, opts: { record?: boolean; status?: string; token?: string } = {}): DomainValidation {
  const apex = domain.replace(/^\*\./, "");
  const token = opts.token ?? apex.split(".")[0];
  return {
    DomainName: domain,
    ValidationMethod: "DNS",
    ValidationStatus: (opts.status ?? "PENDING_VALIDATION") as DomainValidation["ValidationStatus"],
    ...(opts.record === false ? {} : { ResourceRecord: { Name: `_${token}.${apex}.`, Type: "CNAME", Value: `_${token}v.acm-validations.aws.` } }),
  };
}

function detail(over: Partial<CertificateDetail> = {}): CertificateDetail {
  return {
    CertificateArn: ARN,
    DomainName: "example.dev",
    SubjectAlternativeNames: ["example.dev", "www.example.dev"],
    Status: "PENDING_VALIDATION",
    KeyAlgorithm: "RSA_2048",
    InUseBy: [],
    DomainValidationOptions: [dvo("www.example.dev"), dvo("example.dev")],
    ...over,
  };
}

const inputs: CertificateInputs = { domainName: "example.dev", subjectAlternativeNames: ["www.example.dev"], tags: { team: "web" } };

function mockHappyCreate(d: CertificateDetail = detail()) {
  acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
  acm.on(DescribeCertificateCommand).resolves({ Certificate: d });
  acm.on(ListTagsForCertificateCommand).resolves({ Tags: [{ Key: "team", Value: "web" }, { Key: "cairn:urn", Value: URN }] });
}

const requestInput = () => acm.commandCalls(RequestCertificateCommand)[0]!.args[0].input;

beforeEach(() => {
  acm.reset();
});

describe("create", () => {
  it("requests the certificate with DNS validation, the URN tag and an idempotency token, and returns the ARN as id", async () => {
    mockHappyCreate();
    const { id, outputs } = await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    expect(id).toBe(ARN);
    expect(acm.commandCalls(RequestCertificateCommand)).toHaveLength(1);
    expect(requestInput()).toEqual({
      DomainName: "example.dev",
      SubjectAlternativeNames: ["www.example.dev"],
      ValidationMethod: "DNS",
      IdempotencyToken: idempotencyToken(URN, inputs),
      Tags: [{ Key: "team", Value: "web" }, { Key: "cairn:urn", Value: URN }],
    });
    expect(outputs).toEqual({
      arn: ARN,
      domainName: "example.dev",
      subjectAlternativeNames: ["example.dev", "www.example.dev"],
      validationMethod: "DNS",
      keyAlgorithm: "RSA_2048",
      status: "PENDING_VALIDATION",
      domainValidationOptions: [
        { domainName: "www.example.dev", validationStatus: "PENDING_VALIDATION", resourceRecord: { name: "_www.www.example.dev", type: "CNAME", value: "_wwwv.acm-validations.aws" } },
        { domainName: "example.dev", validationStatus: "PENDING_VALIDATION", resourceRecord: { name: "_example.example.dev", type: "CNAME", value: "_examplev.acm-validations.aws" } },
      ],
      inUseBy: [],
      tags: { team: "web" },
    });
  });

  it("sends SubjectAlternativeNames and KeyAlgorithm only when given, and EMAIL when asked", async () => {
    mockHappyCreate(detail({ SubjectAlternativeNames: ["example.dev"], DomainValidationOptions: [{ DomainName: "example.dev", ValidationMethod: "EMAIL" }] }));
    const { outputs } = await certificateProvider.create({ urn: URN, inputs: { domainName: "example.dev", validationMethod: "EMAIL", keyAlgorithm: "EC_prime256v1" }, ctx: testCtx() });
    const input = requestInput();
    expect(input).not.toHaveProperty("SubjectAlternativeNames");
    expect(input.ValidationMethod).toBe("EMAIL");
    expect(input.KeyAlgorithm).toBe("EC_prime256v1");
    expect(input.Tags).toEqual([{ Key: "cairn:urn", Value: URN }]);
    // EMAIL validation publishes no records: one describe, no wait.
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(1);
    expect(outputs.validationMethod).toBe("EMAIL");
    expect(outputs.domainValidationOptions).toEqual([{ domainName: "example.dev" }]);
  });

  it("omits KeyAlgorithm when not given", async () => {
    mockHappyCreate();
    await certificateProvider.create({ urn: URN, inputs: { domainName: "example.dev", subjectAlternativeNames: ["www.example.dev"] }, ctx: testCtx() });
    expect(requestInput()).not.toHaveProperty("KeyAlgorithm");
  });

  it("derives the idempotency token from the URN and the normalised request: deterministic, at most 32 word characters", async () => {
    const t = idempotencyToken(URN, inputs);
    expect(t).toMatch(/^\w{1,32}$/);
    expect(idempotencyToken(URN, inputs)).toBe(t);
    expect(idempotencyToken(`${URN}2`, inputs)).not.toBe(t);
    expect(idempotencyToken("urn:cairn:prod::site::aws:acm:Certificate::cert", inputs)).not.toBe(t);
    // The same request written differently (case, trailing dot, SAN order and repeats, defaults made explicit).
    expect(idempotencyToken(URN, { domainName: "Example.DEV.", subjectAlternativeNames: ["WWW.example.dev.", "example.dev"], validationMethod: "DNS", keyAlgorithm: "RSA_2048" })).toBe(t);
    // A create retried after a crash sends the same token, so ACM returns the same certificate.
    mockHappyCreate();
    await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    const tokens = acm.commandCalls(RequestCertificateCommand).map((c) => c.args[0].input.IdempotencyToken);
    expect(tokens).toEqual([t, t]);
  });

  it("sends a new idempotency token for a replacement (any force-new input changed), so ACM does not return the old certificate", async () => {
    const t = idempotencyToken(URN, inputs);
    const changed: CertificateInputs[] = [
      { ...inputs, keyAlgorithm: "EC_prime256v1" },
      { ...inputs, domainName: "www.example.dev", subjectAlternativeNames: ["example.dev"] },
      { ...inputs, subjectAlternativeNames: ["api.example.dev"] },
      { ...inputs, validationMethod: "EMAIL" },
    ];
    const all = [t, ...changed.map((c) => idempotencyToken(URN, c))];
    expect(new Set(all).size).toBe(all.length);
    mockHappyCreate();
    await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    await certificateProvider.create({ urn: URN, inputs: { ...inputs, keyAlgorithm: "EC_prime256v1" }, ctx: testCtx() });
    const [first, second] = acm.commandCalls(RequestCertificateCommand).map((c) => c.args[0].input.IdempotencyToken);
    expect(first).toBe(t);
    expect(second).toMatch(/^\w{1,32}$/);
    expect(second).not.toBe(first);
  });

  it("sends the names normalised (lower case, no trailing dot), which ACM's DomainName pattern requires", async () => {
    mockHappyCreate();
    const raw: CertificateInputs = { domainName: "Example.dev.", subjectAlternativeNames: ["WWW.Example.dev.", "example.dev", "www.example.dev"] };
    expect(await certificateProvider.check!({ urn: URN, inputs: raw })).toEqual([]);
    await certificateProvider.create({ urn: URN, inputs: raw, ctx: testCtx() });
    expect(requestInput()).toMatchObject({ DomainName: "example.dev", SubjectAlternativeNames: ["www.example.dev"] });
    expect(requestInput().IdempotencyToken).toBe(idempotencyToken(URN, inputs));
  });

  it("passes the operation's abort signal to every ACM call", async () => {
    mockHappyCreate();
    acm.on(ListCertificatesCommand).resolves({ CertificateSummaryList: [] });
    acm.on(AddTagsToCertificateCommand).resolves({});
    acm.on(RemoveTagsFromCertificateCommand).resolves({});
    acm.on(DeleteCertificateCommand).resolves({});
    const ctx = testCtx();
    await certificateProvider.create({ urn: URN, inputs, ctx });
    await certificateProvider.readMany!({ targets: [{ urn: URN, id: ARN, inputs, outputs: { arn: ARN } as CertificateOutputs }], ctx });
    await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: { arn: ARN } as CertificateOutputs, ctx });
    await certificateProvider.update!({ urn: URN, id: ARN, olds: { domainName: "example.dev", tags: { a: "1" } }, news: { domainName: "example.dev", tags: { b: "2" } }, outputs: {} as CertificateOutputs, ctx });
    await certificateProvider.delete({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx });
    const calls = acm.calls();
    expect(new Set(calls.map((c) => (c.args[0] as object).constructor.name)).size).toBe(7);
    for (const c of calls) expect((c.args as unknown[])[1]).toEqual({ abortSignal: ctx.signal });
  });

  it("tags with the URN, replacing characters ACM refuses in tag values", () => {
    expect(urnTagValue(URN)).toBe(URN);
    const nested = "urn:cairn:dev::site::acme:Site$aws:acm:Certificate::cert#1";
    expect(urnTagValue(nested)).toBe("urn:cairn:dev::site::acme:Site_aws:acm:Certificate::cert_1");
    expect(urnTagValue(`urn:${"x".repeat(300)}`)).toHaveLength(256);
  });

  it("waits until ACM publishes every validation record (they appear on the 3rd describe)", async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    acm.on(DescribeCertificateCommand)
      .resolvesOnce({ Certificate: detail({ DomainValidationOptions: [] }) })
      .resolvesOnce({ Certificate: detail({ DomainValidationOptions: [dvo("www.example.dev"), dvo("example.dev", { record: false })] }) })
      .resolves({ Certificate: detail() });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [] });
    const ctx = testCtx();
    const start = ctx.clock.now();
    const { outputs } = await certificateProvider.create({ urn: URN, inputs, ctx });
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(3);
    expect(ctx.clock.now() - start).toBe(3000); // 1 s, then 2 s
    expect(outputs.domainValidationOptions.every((o) => o.resourceRecord)).toBe(true);
    expect(outputs.tags).toEqual({ team: "web" });
  });

  it("reads no tags after a create that set them: the outputs carry the tags it sent (without cairn:urn)", async () => {
    mockHappyCreate();
    const { outputs } = await certificateProvider.create({ urn: URN, inputs: { ...inputs, tags: { team: "web", env: "dev" } }, ctx: testCtx() });
    expect(acm.commandCalls(ListTagsForCertificateCommand)).toHaveLength(0);
    expect(outputs.tags).toEqual({ team: "web", env: "dev" });
    expect(requestInput().Tags).toEqual([{ Key: "team", Value: "web" }, { Key: "env", Value: "dev" }, { Key: "cairn:urn", Value: URN }]);
  });

  it("keeps waiting while a requested name has no validation option yet", async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    acm.on(DescribeCertificateCommand)
      .resolvesOnce({ Certificate: detail({ DomainValidationOptions: [dvo("example.dev")] }) })
      .resolves({ Certificate: detail() });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [] });
    await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(2);
  });

  it("retries a describe that does not see the new ARN yet", async () => {
    mockHappyCreate();
    acm.on(DescribeCertificateCommand).rejectsOnce(err(ResourceNotFoundException)).resolves({ Certificate: detail() });
    const { id } = await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    expect(id).toBe(ARN);
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(2);
  });

  it("gives up after 5 minutes without records: IncompleteCreateError keeps the certificate", async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ DomainValidationOptions: [dvo("example.dev", { record: false }), dvo("www.example.dev", { record: false })] }) });
    const ctx = testCtx();
    const start = ctx.clock.now();
    const e = await certificateProvider.create({ urn: URN, inputs, ctx }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IncompleteCreateError);
    const ice = e as IncompleteCreateError;
    expect(ice.id).toBe(ARN);
    expect(ice.outputs).toMatchObject({ arn: ARN, status: "PENDING_VALIDATION", domainName: "example.dev" });
    expect(ice.message).toMatch(/validation records .* after 5m0s; the certificate exists, the next plan replaces it/);
    expect(ctx.clock.now() - start).toBe(minutes(5));
    const describes = acm.commandCalls(DescribeCertificateCommand).length;
    expect(describes).toBeGreaterThan(50); // polled about every 5 s
    expect(describes).toBeLessThan(70);
  });

  it("bounds the wait by ctx.timeout when it is shorter", async () => {
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ DomainValidationOptions: [] }) });
    const ctx = testCtx({ timeout: minutes(1) });
    const start = ctx.clock.now();
    await expect(certificateProvider.create({ urn: URN, inputs, ctx })).rejects.toThrow(/after 1m0s/);
    expect(ctx.clock.now() - start).toBe(minutes(1));
  });

  it("honours cancellation during the wait, still handing over the ARN", async () => {
    const ac = new AbortController();
    acm.on(RequestCertificateCommand).resolves({ CertificateArn: ARN });
    let n = 0;
    acm.on(DescribeCertificateCommand).callsFake(async () => {
      if (++n === 2) ac.abort(new Error("cancelled by the user"));
      return { Certificate: detail({ DomainValidationOptions: [] }) };
    });
    const e = await certificateProvider.create({ urn: URN, inputs, ctx: testCtx({ signal: ac.signal }) }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IncompleteCreateError);
    expect((e as IncompleteCreateError).id).toBe(ARN);
    expect((e as Error).message).toMatch(/cancelled by the user/);
    expect(n).toBe(2);
  });

  it("hands over the ARN when a call after the request fails", async () => {
    mockHappyCreate();
    acm.on(DescribeCertificateCommand).rejects(err(AccessDeniedException, "not allowed"));
    const e = await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() }).catch((x: unknown) => x);
    expect(e).toBeInstanceOf(IncompleteCreateError);
    expect((e as IncompleteCreateError).id).toBe(ARN);
    expect((e as IncompleteCreateError).outputs).toMatchObject({ arn: ARN, inUseBy: [], domainValidationOptions: [] });
    expect((e as Error).message).toMatch(/DescribeCertificate failed: AccessDeniedException/);
  });

  it("explains LimitExceededException (the yearly quota), at once", async () => {
    acm.on(RequestCertificateCommand).rejects(err(LimitExceededException, "Error: you have reached your limit"));
    await expect(certificateProvider.create({ urn: URN, inputs, ctx: testCtx() })).rejects.toThrow(
      /ACM RequestCertificate failed: LimitExceededException: .*in a year.*quota/,
    );
    expect(acm.commandCalls(RequestCertificateCommand)).toHaveLength(1);
  });

  it("explains InvalidDomainValidationOptionsException and InvalidParameterException", async () => {
    acm.on(RequestCertificateCommand).rejectsOnce(err(InvalidDomainValidationOptionsException)).rejectsOnce(err(InvalidParameterException));
    await expect(certificateProvider.create({ urn: URN, inputs, ctx: testCtx() })).rejects.toThrow(/InvalidDomainValidationOptionsException: boom\. .*domain you control/);
    await expect(certificateProvider.create({ urn: URN, inputs, ctx: testCtx() })).rejects.toThrow(/InvalidParameterException: boom\. .*domainName/);
  });

  it("fails at once on access denied (exactly one call), saying which permission", async () => {
    acm.on(RequestCertificateCommand).rejects(err(AccessDeniedException, "User is not authorized"));
    await expect(certificateProvider.create({ urn: URN, inputs, ctx: testCtx() })).rejects.toThrow(/AccessDeniedException: User is not authorized\. .*acm:RequestCertificate/);
    expect(acm.commandCalls(RequestCertificateCommand)).toHaveLength(1);
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(0);
  });

  it("retries throttling, then succeeds", async () => {
    mockHappyCreate();
    acm.on(RequestCertificateCommand)
      .rejectsOnce(err(ThrottlingException, "Rate exceeded"))
      .rejectsOnce(Object.assign(new Error("Rate exceeded"), { name: "ThrottlingException" }))
      .resolves({ CertificateArn: ARN });
    const { id } = await certificateProvider.create({ urn: URN, inputs, ctx: testCtx() });
    expect(id).toBe(ARN);
    expect(acm.commandCalls(RequestCertificateCommand)).toHaveLength(3);
  });
});

describe("outputs", () => {
  it("normalises names and records, converts dates and omits absent optional outputs", async () => {
    acm.on(DescribeCertificateCommand).resolves({
      Certificate: detail({
        DomainName: "Example.DEV.",
        SubjectAlternativeNames: ["Example.DEV.", "*.Example.dev"],
        Status: "ISSUED",
        KeyAlgorithm: "RSA-2048" as CertificateDetail["KeyAlgorithm"],
        NotBefore: new Date("2026-01-01T00:00:00Z"),
        NotAfter: new Date("2027-01-31T23:59:59Z"),
        DomainValidationOptions: [
          { DomainName: "*.Example.dev", ValidationMethod: "DNS", ValidationStatus: "SUCCESS", ResourceRecord: { Name: "_ABC.Example.dev.", Type: "CNAME", Value: "_XYZ.ACM-Validations.aws." } },
          { DomainName: "Example.DEV.", ValidationMethod: "DNS", ValidationStatus: "SUCCESS", ResourceRecord: { Name: "_ABC.Example.dev.", Type: "CNAME", Value: "_XYZ.ACM-Validations.aws." } },
        ],
      }),
    });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [{ Key: "cairn:urn", Value: URN }] });
    const out = await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx: testCtx() });
    expect(out).toEqual({
      arn: ARN,
      domainName: "example.dev",
      subjectAlternativeNames: ["example.dev", "*.example.dev"],
      validationMethod: "DNS",
      keyAlgorithm: "RSA_2048",
      status: "ISSUED",
      domainValidationOptions: [
        { domainName: "*.example.dev", validationStatus: "SUCCESS", resourceRecord: { name: "_abc.example.dev", type: "CNAME", value: "_xyz.acm-validations.aws" } },
        { domainName: "example.dev", validationStatus: "SUCCESS", resourceRecord: { name: "_abc.example.dev", type: "CNAME", value: "_xyz.acm-validations.aws" } },
      ],
      notBefore: "2026-01-01T00:00:00.000Z",
      notAfter: "2027-01-31T23:59:59.000Z",
      inUseBy: [],
    });
    for (const k of ["failureReason", "tags"]) expect(out).not.toHaveProperty(k);
  });

  it("reports failureReason and inUseBy when ACM does", async () => {
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ Status: "FAILED", FailureReason: "CAA_ERROR", InUseBy: ["arn:aws:elasticloadbalancing:lb"] }) });
    acm.on(ListTagsForCertificateCommand).resolves({});
    const out = await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx: testCtx() });
    expect(out).toMatchObject({ status: "FAILED", failureReason: "CAA_ERROR", inUseBy: ["arn:aws:elasticloadbalancing:lb"] });
  });

  it("normalizeDomain lower-cases and drops the trailing dot", () => {
    expect(normalizeDomain(" WWW.Example.Dev. ")).toBe("www.example.dev");
  });
});

describe("read", () => {
  it("describes and lists tags (without cairn:urn)", async () => {
    mockHappyCreate(detail({ Status: "ISSUED" }));
    const out = await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx: testCtx() });
    expect(out).toMatchObject({ arn: ARN, status: "ISSUED", tags: { team: "web" } });
    expect(acm.commandCalls(DescribeCertificateCommand)[0]!.args[0].input).toEqual({ CertificateArn: ARN });
  });

  it("returns undefined when the certificate is gone", async () => {
    acm.on(DescribeCertificateCommand).rejects(err(ResourceNotFoundException, "Could not find certificate"));
    expect(await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx: testCtx() })).toBeUndefined();
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(1);
  });

  it("fails with a clear message on other errors", async () => {
    acm.on(DescribeCertificateCommand).rejects(err(AccessDeniedException, "denied"));
    await expect(certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx: testCtx() })).rejects.toThrow(
      /ACM DescribeCertificate failed: AccessDeniedException: denied\. .*acm:DescribeCertificate/,
    );
  });
});

describe("readMany", () => {
  const prior = (arn: string, status: CertificateOutputs["status"] = "PENDING_VALIDATION"): CertificateOutputs => ({
    arn,
    domainName: "example.dev",
    subjectAlternativeNames: ["example.dev", "www.example.dev"],
    validationMethod: "DNS",
    keyAlgorithm: "RSA_2048",
    status,
    domainValidationOptions: [
      { domainName: "www.example.dev", validationStatus: "PENDING_VALIDATION", resourceRecord: { name: "_www.www.example.dev", type: "CNAME", value: "_wwwv.acm-validations.aws" } },
      { domainName: "example.dev", validationStatus: "PENDING_VALIDATION", resourceRecord: { name: "_example.example.dev", type: "CNAME", value: "_examplev.acm-validations.aws" } },
    ],
    inUseBy: [],
    tags: { team: "web" },
  });
  const target = (arn: string) => ({ urn: URN, id: arn, inputs, outputs: prior(arn) });

  it("answers many targets with one ListCertificates, describing only certificates whose status moved elsewhere than ISSUED, and reports gone ones", async () => {
    acm.on(ListCertificatesCommand).resolves({
      CertificateSummaryList: [
        { CertificateArn: ARN, DomainName: "example.dev", Status: "ISSUED", InUse: false, KeyAlgorithm: "RSA_2048", NotBefore: new Date("2026-01-01T00:00:00Z"), NotAfter: new Date("2027-01-01T00:00:00Z") },
        { CertificateArn: ARN2, DomainName: "example.dev", Status: "FAILED" },
        { CertificateArn: "arn:aws:acm:us-east-1:123456789012:certificate/other", Status: "ISSUED" },
      ],
    });
    acm.on(DescribeCertificateCommand, { CertificateArn: ARN2 }).resolves({ Certificate: detail({ CertificateArn: ARN2, Status: "FAILED", FailureReason: "CAA_ERROR" }) });
    acm.on(DescribeCertificateCommand, { CertificateArn: ARN3 }).rejects(err(ResourceNotFoundException));
    const got = await certificateProvider.readMany!({ targets: [target(ARN), target(ARN2), target(ARN3)], ctx: testCtx() });

    expect(acm.commandCalls(ListCertificatesCommand)).toHaveLength(1);
    expect(acm.commandCalls(ListCertificatesCommand)[0]!.args[0].input.Includes?.keyTypes).toContain("EC_prime256v1");
    expect(acm.commandCalls(DescribeCertificateCommand).map((c) => c.args[0].input.CertificateArn).sort()).toEqual([ARN2, ARN3].sort());
    expect(acm.commandCalls(ListTagsForCertificateCommand)).toHaveLength(0);
    expect([...got.keys()].sort()).toEqual([ARN, ARN2, ARN3].sort());

    const issued = got.get(ARN)!;
    expect(issued.status).toBe("ISSUED");
    expect(issued.domainValidationOptions.map((o) => o.validationStatus)).toEqual(["SUCCESS", "SUCCESS"]);
    expect(issued).toMatchObject({ notBefore: "2026-01-01T00:00:00.000Z", notAfter: "2027-01-01T00:00:00.000Z", tags: { team: "web" }, inUseBy: [] });
    expect(issued).not.toHaveProperty("failureReason");

    expect(got.get(ARN2)).toMatchObject({ arn: ARN2, status: "FAILED", failureReason: "CAA_ERROR", tags: { team: "web" } });
    expect(got.has(ARN3)).toBe(true);
    expect(got.get(ARN3)).toBeUndefined();
  });

  it("matches read for the attributes waits use, for an issued certificate", async () => {
    const issuedDetail = detail({ Status: "ISSUED", DomainValidationOptions: [dvo("www.example.dev", { status: "SUCCESS" }), dvo("example.dev", { status: "SUCCESS" })] });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: issuedDetail });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [{ Key: "team", Value: "web" }] });
    acm.on(ListCertificatesCommand).resolves({ CertificateSummaryList: [{ CertificateArn: ARN, Status: "ISSUED", InUse: false }, { CertificateArn: ARN2, Status: "ISSUED", InUse: false }] });
    const viaRead = (await certificateProvider.read({ urn: URN, id: ARN, inputs, outputs: prior(ARN), ctx: testCtx() }))!;
    const viaMany = (await certificateProvider.readMany!({ targets: [target(ARN), target(ARN2)], ctx: testCtx() })).get(ARN)!;
    for (const k of ["status", "failureReason", "domainValidationOptions"] as const) expect(viaMany[k]).toEqual(viaRead[k]);
  });

  it("follows NextToken and describes a listed certificate whose in-use flag disagrees with what was known", async () => {
    acm.on(ListCertificatesCommand)
      .resolvesOnce({ CertificateSummaryList: [{ CertificateArn: ARN, Status: "ISSUED", InUse: false }], NextToken: "page2" })
      .resolves({ CertificateSummaryList: [{ CertificateArn: ARN2, Status: "ISSUED", InUse: true }] });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ CertificateArn: ARN2, Status: "ISSUED", InUseBy: ["arn:aws:cloudfront::1:distribution/E1"] }) });
    const got = await certificateProvider.readMany!({ targets: [target(ARN), target(ARN2)], ctx: testCtx() });
    const calls = acm.commandCalls(ListCertificatesCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input.NextToken).toBe("page2");
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(1);
    expect(got.get(ARN)?.status).toBe("ISSUED");
    expect(got.get(ARN2)?.inUseBy).toEqual(["arn:aws:cloudfront::1:distribution/E1"]);
  });

  it("filters the list by the targets' statuses and ISSUED, and makes no call for a target whose status did not change", async () => {
    acm.on(ListCertificatesCommand).resolves({ CertificateSummaryList: [{ CertificateArn: ARN, Status: "PENDING_VALIDATION" }, { CertificateArn: ARN2, Status: "PENDING_VALIDATION" }] });
    const targets = [target(ARN), target(ARN2)];
    const got = await certificateProvider.readMany!({ targets, ctx: testCtx() });
    expect(acm.commandCalls(ListCertificatesCommand)[0]!.args[0].input.CertificateStatuses).toEqual(["ISSUED", "PENDING_VALIDATION"]);
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(0);
    expect(got.get(ARN)).toEqual(targets[0]!.outputs);
    expect(got.get(ARN2)).toEqual(targets[1]!.outputs);
  });

  it("describes a target missing from the list (not listed yet) instead of calling it gone", async () => {
    acm.on(ListCertificatesCommand).resolves({ CertificateSummaryList: [] });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ Status: "PENDING_VALIDATION" }) });
    const got = await certificateProvider.readMany!({ targets: [target(ARN), target(ARN2)], ctx: testCtx() });
    expect(got.get(ARN)?.status).toBe("PENDING_VALIDATION");
    expect(acm.commandCalls(DescribeCertificateCommand)).toHaveLength(2);
  });
});

describe("diff", () => {
  const outputs = { tags: { team: "web" } } as unknown as CertificateOutputs;
  const diff = (olds: CertificateInputs, news: CertificateInputs, outs: CertificateOutputs = { ...outputs, tags: olds.tags } as CertificateOutputs) =>
    certificateProvider.diff!({ urn: URN, id: ARN, olds, news, outputs: outs });

  it("sees no change in case, trailing dots, SAN order, a SAN repeating domainName, or defaults made explicit", () => {
    const olds: CertificateInputs = { domainName: "example.dev", subjectAlternativeNames: ["www.example.dev", "api.example.dev"], tags: { team: "web" } };
    expect(diff(olds, {
      domainName: "Example.DEV.",
      subjectAlternativeNames: ["API.example.dev.", "example.dev", "www.example.dev", "www.example.dev"],
      validationMethod: "DNS",
      keyAlgorithm: "RSA_2048",
      tags: { team: "web" },
    })).toEqual({ kind: "same" });
    expect(diff({ domainName: "example.dev" }, { domainName: "example.dev", subjectAlternativeNames: [] }, { inUseBy: [] } as unknown as CertificateOutputs)).toEqual({ kind: "same" });
  });

  it("replaces when a name, the validation method or the key algorithm changes", () => {
    const olds: CertificateInputs = { domainName: "example.dev", subjectAlternativeNames: ["www.example.dev"] };
    expect(diff(olds, { ...olds, domainName: "example.com" })).toEqual({ kind: "replace", changed: ["domainName"], replaceKeys: ["domainName"] });
    expect(diff(olds, { ...olds, subjectAlternativeNames: ["www.example.dev", "api.example.dev"] })).toEqual({ kind: "replace", changed: ["subjectAlternativeNames"], replaceKeys: ["subjectAlternativeNames"] });
    expect(diff(olds, { ...olds, validationMethod: "EMAIL" })).toEqual({ kind: "replace", changed: ["validationMethod"], replaceKeys: ["validationMethod"] });
    expect(diff(olds, { ...olds, keyAlgorithm: "EC_prime256v1" })).toEqual({ kind: "replace", changed: ["keyAlgorithm"], replaceKeys: ["keyAlgorithm"] });
    expect(diff(olds, { ...olds, domainName: "example.com", tags: { a: "b" } })).toEqual({ kind: "replace", changed: ["domainName", "tags"], replaceKeys: ["domainName"] });
  });

  it("updates in place when only tags change, or when tags drifted outside Cairn", () => {
    const olds: CertificateInputs = { domainName: "example.dev", tags: { team: "web" } };
    const update = { kind: "update", changed: ["tags"], stables: ["arn", "domainName"] };
    expect(diff(olds, { ...olds, tags: { team: "api" } })).toEqual(update);
    expect(diff(olds, { ...olds, tags: undefined })).toEqual(update);
    expect(diff(olds, olds, { tags: { team: "edited" } } as unknown as CertificateOutputs)).toEqual(update);
  });
});

describe("update", () => {
  it("removes and adds tags (never cairn:urn), then describes, without reading the tags it just set back", async () => {
    acm.on(RemoveTagsFromCertificateCommand).resolves({});
    acm.on(AddTagsToCertificateCommand).resolves({});
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail() });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [{ Key: "team", Value: "api" }, { Key: "env", Value: "dev" }, { Key: "cairn:urn", Value: URN }] });
    const olds: CertificateInputs = { domainName: "example.dev", tags: { team: "web", old: "x" } };
    const news: CertificateInputs = { domainName: "example.dev", tags: { team: "api", env: "dev" } };
    const out = await certificateProvider.update!({
      urn: URN, id: ARN, olds, news, outputs: { tags: { team: "web", old: "x", drift: "y" } } as unknown as CertificateOutputs, ctx: testCtx(),
    });
    const removed = acm.commandCalls(RemoveTagsFromCertificateCommand);
    expect(removed).toHaveLength(1);
    expect(removed[0]!.args[0].input).toEqual({ CertificateArn: ARN, Tags: [{ Key: "old" }, { Key: "drift" }] });
    const added = acm.commandCalls(AddTagsToCertificateCommand);
    expect(added).toHaveLength(1);
    expect(added[0]!.args[0].input).toEqual({ CertificateArn: ARN, Tags: [{ Key: "team", Value: "api" }, { Key: "env", Value: "dev" }] });
    expect(out.tags).toEqual({ team: "api", env: "dev" });
    // The tags are the ones just set: they are not read back.
    expect(acm.commandCalls(ListTagsForCertificateCommand)).toHaveLength(0);
  });

  it("makes no tag call when nothing differs, and never removes cairn:urn", async () => {
    expect(tagChanges({ a: "1", "cairn:urn": URN }, { a: "1" })).toEqual({ remove: [], add: {} });
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail() });
    acm.on(ListTagsForCertificateCommand).resolves({ Tags: [] });
    await certificateProvider.update!({ urn: URN, id: ARN, olds: { domainName: "example.dev" }, news: { domainName: "example.dev" }, outputs: {} as CertificateOutputs, ctx: testCtx() });
    expect(acm.commandCalls(RemoveTagsFromCertificateCommand)).toHaveLength(0);
    expect(acm.commandCalls(AddTagsToCertificateCommand)).toHaveLength(0);
  });

  it("fails clearly when the certificate vanished", async () => {
    acm.on(AddTagsToCertificateCommand).resolves({});
    acm.on(DescribeCertificateCommand).rejects(err(ResourceNotFoundException));
    await expect(
      certificateProvider.update!({ urn: URN, id: ARN, olds: { domainName: "example.dev" }, news: { domainName: "example.dev", tags: { a: "b" } }, outputs: {} as CertificateOutputs, ctx: testCtx() }),
    ).rejects.toThrow(/no longer exists/);
  });
});

describe("delete", () => {
  const del = (ctx = testCtx()) => certificateProvider.delete({ urn: URN, id: ARN, inputs, outputs: {} as CertificateOutputs, ctx });

  it("deletes the certificate", async () => {
    acm.on(DeleteCertificateCommand).resolves({});
    await del();
    expect(acm.commandCalls(DeleteCertificateCommand)[0]!.args[0].input).toEqual({ CertificateArn: ARN });
  });

  it("succeeds when it is already gone", async () => {
    acm.on(DeleteCertificateCommand).rejects(err(ResourceNotFoundException));
    await expect(del()).resolves.toBeUndefined();
    expect(acm.commandCalls(DeleteCertificateCommand)).toHaveLength(1);
  });

  it("retries while in use, then succeeds once released", async () => {
    acm.on(DeleteCertificateCommand).rejectsOnce(err(ResourceInUseException)).rejectsOnce(err(ResourceInUseException)).resolves({});
    await del();
    expect(acm.commandCalls(DeleteCertificateCommand)).toHaveLength(3);
  });

  it("retries ResourceInUse for a few minutes, then lists what uses it and what to do", async () => {
    const users = ["arn:aws:elasticloadbalancing:us-east-1:1:loadbalancer/app/web/1", "arn:aws:cloudfront::1:distribution/E1"];
    acm.on(DeleteCertificateCommand).rejects(err(ResourceInUseException, "Certificate is in use"));
    acm.on(DescribeCertificateCommand).resolves({ Certificate: detail({ InUseBy: users }) });
    const ctx = testCtx();
    const start = ctx.clock.now();
    const e = (await del(ctx).catch((x: unknown) => x)) as Error;
    expect(e.message).toContain(users[0]);
    expect(e.message).toContain(users[1]);
    expect(e.message).toMatch(/load balancer.*CloudFront distribution/);
    expect(e.message).toContain("ResourceInUseException");
    expect(acm.commandCalls(DeleteCertificateCommand)).toHaveLength(20);
    const waited = ctx.clock.now() - start;
    expect(waited).toBeGreaterThan(minutes(1));
    expect(waited).toBeLessThan(minutes(6));
  });

  it("fails at once on access denied (exactly one call)", async () => {
    acm.on(DeleteCertificateCommand).rejects(err(AccessDeniedException, "denied"));
    await expect(del()).rejects.toThrow(/ACM DeleteCertificate failed: AccessDeniedException: denied\. .*acm:DeleteCertificate/);
    expect(acm.commandCalls(DeleteCertificateCommand)).toHaveLength(1);
  });

  it("retries throttling, then succeeds", async () => {
    acm.on(DeleteCertificateCommand).rejectsOnce(err(ThrottlingException)).resolves({});
    await del();
    expect(acm.commandCalls(DeleteCertificateCommand)).toHaveLength(2);
  });
});

describe("check", () => {
  const check = (i: Partial<CertificateInputs>) => certificateProvider.check!({ urn: URN, inputs: { domainName: "example.dev", ...i } as CertificateInputs });
  const messages = async (i: Partial<CertificateInputs>) => (await check(i)).map(checkDiagnostic).map((d) => `${d.severity} ${d.attribute}: ${d.summary}`);

  it("accepts valid names, wildcards as the first label and a trailing dot", async () => {
    expect(await check({ domainName: "*.Example.dev.", subjectAlternativeNames: ["example.dev", "a-b.c1.example.dev"], validationMethod: "DNS", keyAlgorithm: "EC_secp384r1", tags: { a: "b" } })).toEqual([]);
  });

  it("rejects bad domain names with the attribute", async () => {
    expect(await messages({ domainName: "" })).toEqual([expect.stringMatching(/^error domainName: must be a non-empty/)]);
    expect(await messages({ domainName: "localhost" })).toEqual([expect.stringMatching(/^error domainName: .*fully qualified/)]);
    expect(await messages({ domainName: "a.*.example.dev" })).toEqual([expect.stringMatching(/^error domainName: .*wildcard/)]);
    expect(await messages({ domainName: "*foo.example.dev" })).toEqual([expect.stringMatching(/^error domainName: .*wildcard/)]);
    expect(await messages({ domainName: "-bad.example.dev" })).toEqual([expect.stringMatching(/^error domainName: .*label "-bad"/)]);
    expect(await messages({ domainName: "ex ample.dev" })).toEqual([expect.stringMatching(/^error domainName: .*label/)]);
    expect(await messages({ domainName: `${"a".repeat(63)}.`.repeat(4) + "dev" })).toEqual([expect.stringMatching(/^error domainName: .*longer than 253/)]);
    expect(await messages({ domainName: `${"a".repeat(60)}.example.dev` })).toEqual([expect.stringMatching(/^error domainName: .*64 characters/)]);
    expect(await messages({ domainName: "bücher.example.dev" })).toEqual([expect.stringMatching(/punycode/)]);
  });

  it("checks every subject alternative name and the number of names", async () => {
    expect(await messages({ subjectAlternativeNames: ["ok.example.dev", "bad..example.dev"] })).toEqual([expect.stringMatching(/^error subjectAlternativeNames: \[1\] .*label/)]);
    const names = (n: number) => Array.from({ length: n }, (_, i) => `n${i}.example.dev`);
    expect(await messages({ subjectAlternativeNames: names(100) })).toEqual([expect.stringMatching(/^error subjectAlternativeNames: .*101 names; ACM allows at most 100/)]);
    expect(await messages({ subjectAlternativeNames: names(99) })).toEqual([expect.stringMatching(/^warning subjectAlternativeNames: .*default quota is 10/)]);
    expect(await check({ subjectAlternativeNames: [...names(9), "example.dev", "EXAMPLE.dev."] })).toEqual([]);
  });

  it("checks validationMethod, keyAlgorithm and the reserved tag", async () => {
    expect(await messages({ validationMethod: "HTTP" as "DNS" })).toEqual([expect.stringMatching(/^error validationMethod: must be "DNS" or "EMAIL"/)]);
    expect(await messages({ keyAlgorithm: "RSA_512" as "RSA_2048" })).toEqual([expect.stringMatching(/^error keyAlgorithm: must be one of/)]);
    expect(await messages({ tags: { "cairn:urn": "x" } })).toEqual([expect.stringMatching(/^error tags: "cairn:urn" is reserved/)]);
  });
});

describe("validation records", () => {
  const rec = (n: string) => ({ name: `_${n}.example.dev`, type: "CNAME" as const, value: `_${n}.acm-validations.aws` });

  it("matches options by domain, not by position, ignoring case and a trailing dot", () => {
    // Requested: example.dev, www.example.dev, api.example.dev; ACM answers in another order.
    const options = [
      { domainName: "api.example.dev", resourceRecord: rec("api") },
      { domainName: "example.dev", resourceRecord: rec("apex") },
      { domainName: "www.example.dev", resourceRecord: rec("www") },
    ];
    expect(validationRecordOf(options, "example.dev")).toEqual(rec("apex"));
    expect(validationRecordOf(options, "WWW.example.dev.")).toEqual(rec("www"));
    expect(validationRecordOf(options, "api.example.dev")).toEqual(rec("api"));
  });

  it("shares one record between a wildcard and its apex", () => {
    expect(validationRecordOf([{ domainName: "example.dev", resourceRecord: rec("apex") }], "*.example.dev")).toEqual(rec("apex"));
    expect(validationRecordOf([{ domainName: "*.example.dev", resourceRecord: rec("apex") }], "example.dev")).toEqual(rec("apex"));
    expect(validationRecordOf([{ domainName: "example.dev" }, { domainName: "*.example.dev", resourceRecord: rec("apex") }], "example.dev")).toEqual(rec("apex"));
  });

  it("throws naming the domain and the certificate's domains", () => {
    const options = [{ domainName: "example.dev", resourceRecord: rec("apex") }, { domainName: "www.example.dev", resourceRecord: rec("www") }];
    expect(() => validationRecordOf(options, "api.example.dev")).toThrow(/does not cover "api.example.dev".*example.dev, www.example.dev/);
    expect(() => validationRecordOf([{ domainName: "example.dev" }], "example.dev")).toThrow(/no DNS validation record for "example.dev"/);
  });

  it("validationDomains keeps one name per distinct record, in declaration order", () => {
    expect(distinctValidationDomains(["example.dev", "*.example.dev", "api.example.dev", "API.example.dev."])).toEqual(["example.dev", "api.example.dev"]);
    expect(distinctValidationDomains(["*.example.dev", "www.example.dev", "example.dev"])).toEqual(["*.example.dev", "www.example.dev"]);
  });
});

describe("Certificate methods", () => {
  const evalCtx = () => new EvalContext("site", "dev", "npx tsx infra.ts");
  const value = async <T>(o: { resolve(r: ValueResolver): import("rxjs").Observable<{ known: boolean; value?: T }> }, r: ValueResolver) => {
    const s = await firstValueFrom(o.resolve(r));
    expect(s.known).toBe(true);
    return s.value as T;
  };

  it("validationRecordFor resolves the record of a domain from the outputs, whatever ACM's order", async () => {
    const cert = runInContext(evalCtx(), () => new Certificate("cert", { domainName: "example.dev", subjectAlternativeNames: ["www.example.dev", "*.example.dev"] }));
    const r = new ValueResolver();
    const outs: CertificateOutputs = {
      arn: ARN, domainName: "example.dev", subjectAlternativeNames: ["example.dev", "www.example.dev", "*.example.dev"], status: "PENDING_VALIDATION", inUseBy: [],
      domainValidationOptions: [
        { domainName: "*.example.dev", resourceRecord: rec("apex") },
        { domainName: "www.example.dev", resourceRecord: rec("www") },
        { domainName: "example.dev", resourceRecord: rec("apex") },
      ],
    };
    r.publish(cert[NODE], { id: ARN, outputs: { ...outs }, unknown: new Set(), restUnknown: false, secretKeys: new Set() });
    const www = cert.validationRecordFor("www.example.dev");
    expect(await value(www.name, r)).toBe("_www.example.dev");
    expect(await value(www.type, r)).toBe("CNAME");
    expect(await value(www.value, r)).toBe("_www.acm-validations.aws");
    expect(await value(cert.validationRecordFor("example.dev").name, r)).toBe("_apex.example.dev");
    await expect(firstValueFrom(cert.validationRecordFor("nope.example.dev").name.resolve(r))).rejects.toThrow(/does not cover "nope.example.dev"/);
    expect(cert.validationDomains()).toEqual(["example.dev", "www.example.dev"]);
  });

  function rec(n: string) {
    return { name: `_${n}.example.dev`, type: "CNAME" as const, value: `_${n}.acm-validations.aws` };
  }

  it("validationDomains needs plain strings", () => {
    const cert = runInContext(evalCtx(), () => new Certificate("cert", { domainName: "example.dev", subjectAlternativeNames: [output("www.example.dev")] }));
    expect(() => cert.validationDomains()).toThrow(/pass the domain names as plain strings/);
    const cert2 = runInContext(evalCtx(), () => new Certificate("cert2", { domainName: output("example.dev") }));
    expect(() => cert2.validationDomains()).toThrow(/plain strings/);
  });

  it("validationDomains explains that a looked-up certificate has no declared names", () => {
    const found = runInContext(evalCtx(), () => Certificate.get("found", ARN));
    expect(() => found.validationDomains()).toThrow(/declared with/);
  });
});
