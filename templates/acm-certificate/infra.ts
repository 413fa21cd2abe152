// {{name}}: a DNS-validated ACM certificate. Look up the Route 53 zone, request the certificate, publish one
// validation record per distinct record, wait until ACM has issued it, and only then hand its ARN on (here:
// to a TXT record that publishes it).
//   node infra.ts config set zone <your zone>       then: preview, up (AWS credentials from AWS_PROFILE, …)
//   npm test                                         the unit tests in infra.test.ts (no AWS needed)
// Node 22.18+ and 24 run TypeScript themselves; on Node 20 use `npx tsx infra.ts …` (or `npm run preview`).
import { minutes, program, wait } from "cairn-iac";
import { acm, route53 } from "cairn-iac/aws";

export default program("{{name}}", ({ config }) => {
  const zoneName = config.get("zone") ?? "example.dev";
  const domain = config.get("domain") ?? `app.${zoneName}`;

  const zone = route53.HostedZone.get("zone", { name: zoneName });
  const cert = new acm.Certificate("cert", { domainName: domain, subjectAlternativeNames: [`www.${domain}`], validationMethod: "DNS" });

  // ACM lists validation options in its own order, and a wildcard shares its apex's record: match by domain,
  // and create one record per distinct record.
  const records = cert.validationDomains().map((d) => {
    const dvo = cert.validationRecordFor(d);
    return new route53.RecordSet(`validation-${d}`, { zoneId: zone.zoneId, name: dvo.name, type: dvo.type, ttl: 60, records: [dvo.value], allowOverwrite: true });
  });

  const issued = wait(cert, { name: "issued", until: (c) => c.status.eq(acm.Certificate.Status.Issued), dependsOn: records, timeout: minutes(75) });

  // Reads issued.arn, so it is created only once the certificate is ISSUED.
  new route53.RecordSet("arn-txt", { zoneId: zone.zoneId, name: `_certificate.${domain}`, type: "TXT", ttl: 300, records: [issued.arn] });

  return { certificateArn: issued.arn };
});
