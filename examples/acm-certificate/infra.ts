// The headline: a DNS-validated ACM certificate. Look up the zone, request the certificate for a domain
// and a SAN, publish one validation record per distinct record, wait until ACM has issued it, and only
// then hand its ARN on (here: to a TXT record that publishes it).
//
// Run it against AWS:  npx tsx examples/acm-certificate/infra.ts config set zone example.dev
//                      npx tsx examples/acm-certificate/infra.ts up
// Against an AWS-compatible local endpoint: AWS_ENDPOINT_URL=http://127.0.0.1:4566 npx tsx … up
import { minutes, program, wait } from "cairn-iac";
import { acm, route53 } from "cairn-iac/aws";

export default program("acm-certificate", ({ config }) => {
  const zoneName = config.get("zone") ?? "example.dev";
  const domain = config.get("domain") ?? `registry.${zoneName}`;

  const zone = route53.HostedZone.get("zone", { name: zoneName });
  const cert = new acm.Certificate("cert", {
    domainName: domain,
    subjectAlternativeNames: [`www.${domain}`],
    validationMethod: "DNS",
    tags: { project: "acm-certificate" },
  });

  // ACM lists validation options in its own order, and a wildcard shares its apex's record: match by
  // domain, and create one record per distinct record.
  const records = cert.validationDomains().map((d) => {
    const dvo = cert.validationRecordFor(d);
    return new route53.RecordSet(`validation-${d}`, {
      zoneId: zone.zoneId, name: dvo.name, type: dvo.type, ttl: 60, records: [dvo.value], allowOverwrite: true,
    });
  });

  const issued = wait(cert, {
    name: "issued",
    until: (c) => c.status.eq(acm.Certificate.Status.Issued),
    dependsOn: records,
    timeout: minutes(75),
  });

  // Reads issued.arn, so it is created only once the certificate is ISSUED.
  const published = new route53.RecordSet("arn-txt", {
    zoneId: zone.zoneId, name: `_certificate.${domain}`, type: "TXT", ttl: 300, records: [issued.arn],
  });

  return { certificateArn: issued.arn, notAfter: issued.notAfter, publishedAt: published.fqdn, nameServers: zone.nameServers };
});
