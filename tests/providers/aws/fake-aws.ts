import { mockClient } from "aws-sdk-client-mock";
import {
  ACMClient, AddTagsToCertificateCommand, DeleteCertificateCommand, DescribeCertificateCommand, ListCertificatesCommand,
  ListTagsForCertificateCommand, RemoveTagsFromCertificateCommand, RequestCertificateCommand, ResourceNotFoundException,
  type CertificateDetail, type Tag,
} from "@aws-sdk/client-acm";
import {
  ChangeResourceRecordSetsCommand, GetChangeCommand, GetHostedZoneCommand, InvalidChangeBatch, ListHostedZonesByNameCommand,
  ListResourceRecordSetsCommand, NoSuchHostedZone, Route53Client, type ResourceRecordSet,
} from "@aws-sdk/client-route-53";

/** One SDK call the fake answered, in order. */
export interface FakeCall {
  service: "acm" | "route53";
  command: string;
  input: Record<string, unknown>;
}

const fqdn = (n: string) => (n.endsWith(".") ? n : `${n}.`).toLowerCase();
const hash = (s: string) => [...s].reduce((h, c) => (h * 31 + c.charCodeAt(0)) >>> 0, 7).toString(16);

/**
 * A small in-memory AWS behind aws-sdk-client-mock: one public hosted zone, Route 53 record sets, and ACM
 * certificates that become ISSUED only once every validation CNAME exists in the zone. Validation options
 * come back in reverse request order (as real ACM may), and a wildcard shares its apex's record.
 *
 * @example
 * const aws = fakeAws({ zoneName: "example.dev" }); // mocks every ACMClient and Route53Client
 * …; aws.restore();
 */
export function fakeAws(opts: { zoneName: string; zoneId?: string; issueAfterReads?: number }) {
  const acm = mockClient(ACMClient);
  const r53 = mockClient(Route53Client);
  const calls: FakeCall[] = [];
  const zoneId = opts.zoneId ?? "Z0FAKE123";
  const records = new Map<string, ResourceRecordSet>(); // key: name|type
  const certs = new Map<string, { detail: CertificateDetail; tags: Tag[]; token?: string; deleted?: boolean }>();
  let nextCert = 1;
  let changes = 0;
  const log = (service: FakeCall["service"], command: string, input: object) => calls.push({ service, command, input: input as Record<string, unknown> });

  const recordFor = (domain: string) => {
    const apex = domain.replace(/^\*\./, "");
    return { Name: `_${hash(apex)}.${apex}.`, Type: "CNAME" as const, Value: `_${hash(`v${apex}`)}.acm-validations.aws.` };
  };
  const validated = (c: CertificateDetail) =>
    (c.DomainValidationOptions ?? []).every((o) => records.has(`${fqdn(o.ResourceRecord!.Name!)}|CNAME`));
  const describe = (arn: string): CertificateDetail => {
    const c = certs.get(arn);
    if (!c || c.deleted) throw new ResourceNotFoundException({ message: `Could not find certificate ${arn}.`, $metadata: {} });
    if (c.detail.Status === "PENDING_VALIDATION" && validated(c.detail)) {
      c.detail = { ...c.detail, Status: "ISSUED", NotBefore: new Date("2026-11-22T00:00:00Z"), NotAfter: new Date("2027-12-22T00:00:00Z"),
        DomainValidationOptions: c.detail.DomainValidationOptions!.map((o) => ({ ...o, ValidationStatus: "SUCCESS" })) };
    }
    return c.detail;
  };

  acm.on(RequestCertificateCommand).callsFake((input) => {
    log("acm", "RequestCertificate", input);
    for (const [arn, c] of certs) if (input.IdempotencyToken && c.token === input.IdempotencyToken && !c.deleted) return { CertificateArn: arn };
    const arn = `arn:aws:acm:us-east-1:111122223333:certificate/fake-${nextCert++}`;
    const domains = [input.DomainName!, ...(input.SubjectAlternativeNames ?? []).filter((d: string) => d !== input.DomainName)];
    certs.set(arn, {
      token: input.IdempotencyToken,
      tags: input.Tags ?? [],
      detail: {
        CertificateArn: arn, DomainName: input.DomainName, SubjectAlternativeNames: domains, Status: "PENDING_VALIDATION", Type: "AMAZON_ISSUED",
        KeyAlgorithm: input.KeyAlgorithm ?? "RSA_2048", InUseBy: [],
        DomainValidationOptions: [...domains].reverse().map((d) => ({ DomainName: d, ValidationMethod: "DNS", ValidationStatus: "PENDING_VALIDATION", ResourceRecord: recordFor(d) })),
      },
    });
    return { CertificateArn: arn };
  });
  acm.on(DescribeCertificateCommand).callsFake((input) => {
    log("acm", "DescribeCertificate", input);
    return { Certificate: describe(input.CertificateArn!) };
  });
  acm.on(ListCertificatesCommand).callsFake((input) => {
    log("acm", "ListCertificates", input);
    const list = [...certs.entries()].filter(([, c]) => !c.deleted).map(([arn]) => describe(arn))
      .filter((d) => !input.CertificateStatuses || input.CertificateStatuses.includes(d.Status!));
    return {
      CertificateSummaryList: list.map((d) => ({
        CertificateArn: d.CertificateArn, DomainName: d.DomainName, Status: d.Status, KeyAlgorithm: d.KeyAlgorithm, InUse: false,
        NotBefore: d.NotBefore, NotAfter: d.NotAfter, SubjectAlternativeNameSummaries: d.SubjectAlternativeNames,
      })),
    };
  });
  acm.on(ListTagsForCertificateCommand).callsFake((input) => {
    log("acm", "ListTagsForCertificate", input);
    const c = certs.get(input.CertificateArn!);
    if (!c || c.deleted) throw new ResourceNotFoundException({ message: "not found", $metadata: {} });
    return { Tags: c.tags };
  });
  acm.on(AddTagsToCertificateCommand).callsFake((input) => {
    log("acm", "AddTagsToCertificate", input);
    const c = certs.get(input.CertificateArn!)!;
    c.tags = [...c.tags.filter((t) => !input.Tags!.some((n: Tag) => n.Key === t.Key)), ...input.Tags!];
    return {};
  });
  acm.on(RemoveTagsFromCertificateCommand).callsFake((input) => {
    log("acm", "RemoveTagsFromCertificate", input);
    const c = certs.get(input.CertificateArn!)!;
    c.tags = c.tags.filter((t) => !input.Tags!.some((n: Tag) => n.Key === t.Key));
    return {};
  });
  acm.on(DeleteCertificateCommand).callsFake((input) => {
    log("acm", "DeleteCertificate", input);
    const c = certs.get(input.CertificateArn!);
    if (!c || c.deleted) throw new ResourceNotFoundException({ message: "not found", $metadata: {} });
    c.deleted = true;
    return {};
  });

  const zone = () => ({ Id: `/hostedzone/${zoneId}`, Name: fqdn(opts.zoneName), CallerReference: "seed", Config: { PrivateZone: false }, ResourceRecordSetCount: 2 + records.size });
  r53.on(ListHostedZonesByNameCommand).callsFake((input) => {
    log("route53", "ListHostedZonesByName", input);
    return { HostedZones: [zone()], IsTruncated: false, MaxItems: input.MaxItems ?? 100 };
  });
  r53.on(GetHostedZoneCommand).callsFake((input) => {
    log("route53", "GetHostedZone", input);
    if (!String(input.Id).endsWith(zoneId)) throw new NoSuchHostedZone({ message: `No hosted zone found with ID: ${input.Id}`, $metadata: {} });
    return { HostedZone: zone(), DelegationSet: { NameServers: ["ns-1.awsdns-00.org", "ns-2.awsdns-00.net"] } };
  });
  r53.on(ChangeResourceRecordSetsCommand).callsFake((input) => {
    log("route53", "ChangeResourceRecordSets", input);
    if (!String(input.HostedZoneId).endsWith(zoneId)) throw new NoSuchHostedZone({ message: `No hosted zone found with ID: ${input.HostedZoneId}`, $metadata: {} });
    // All or nothing, as Route 53: every refused change is named, and then none is applied.
    const next = new Map(records);
    const refused: string[] = [];
    for (const ch of input.ChangeBatch!.Changes!) {
      const rr = ch.ResourceRecordSet!;
      const key = `${fqdn(rr.Name!)}|${rr.Type}`;
      if (ch.Action === "CREATE" && next.has(key)) refused.push(`Tried to create resource record set [name='${fqdn(rr.Name!)}', type='${rr.Type}'] but it already exists`);
      else if (ch.Action === "DELETE") {
        if (!next.has(key)) refused.push(`Tried to delete resource record set [name='${fqdn(rr.Name!)}', type='${rr.Type}'] but it was not found`);
        next.delete(key);
      } else next.set(key, { ...rr, Name: fqdn(rr.Name!) });
    }
    if (refused.length) throw new InvalidChangeBatch({ message: `[${refused.join(", ")}]`, $metadata: {} });
    records.clear();
    for (const [k, v] of next) records.set(k, v);
    return { ChangeInfo: { Id: `/change/C${++changes}`, Status: "PENDING", SubmittedAt: new Date() } };
  });
  r53.on(GetChangeCommand).callsFake((input) => {
    log("route53", "GetChange", input);
    return { ChangeInfo: { Id: input.Id, Status: "INSYNC", SubmittedAt: new Date() } };
  });
  r53.on(ListResourceRecordSetsCommand).callsFake((input) => {
    log("route53", "ListResourceRecordSets", input);
    const sorted = [...records.values()].sort((a, b) => `${a.Name}|${a.Type}`.localeCompare(`${b.Name}|${b.Type}`));
    const start = input.StartRecordName ? sorted.findIndex((r) => `${r.Name}|${r.Type}` >= `${fqdn(input.StartRecordName!)}|${input.StartRecordType ?? ""}`) : 0;
    const page = start < 0 ? [] : sorted.slice(start, start + (input.MaxItems ?? 100));
    return { ResourceRecordSets: page, IsTruncated: false, MaxItems: input.MaxItems ?? 100 };
  });

  return {
    calls,
    records,
    certs,
    /** Calls as `service Command`, e.g. `acm RequestCertificate`. */
    names: () => calls.map((c) => `${c.service} ${c.command}`),
    restore() {
      acm.restore();
      r53.restore();
    },
  };
}
