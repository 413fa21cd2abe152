import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

const NS = 'xmlns="https://route53.amazonaws.com/doc/2013-04-01/"';

/**
 * The two Route 53 calls a hosted-zone lookup makes (ListHostedZonesByName, GetHostedZone), answered for one
 * zone over HTTP on 127.0.0.1: a program in another process reaches it with AWS_ENDPOINT_URL, so its preview
 * runs without AWS. Records every request path.
 */
export async function fakeRoute53(zone: { id: string; name: string }): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const hostedZone = `<HostedZone><Id>/hostedzone/${zone.id}</Id><Name>${zone.name}.</Name><CallerReference>ref</CallerReference><Config><PrivateZone>false</PrivateZone></Config><ResourceRecordSetCount>2</ResourceRecordSetCount></HostedZone>`;
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    requests.push(`${req.method} ${url.pathname}`);
    const xml = (body: string) => res.writeHead(200, { "content-type": "text/xml" }).end(`<?xml version="1.0" encoding="UTF-8"?>\n${body}`);
    if (url.pathname === "/2013-04-01/hostedzonesbyname") {
      const matches = (url.searchParams.get("dnsname") ?? "").replace(/\.$/, "") === zone.name;
      return xml(`<ListHostedZonesByNameResponse ${NS}><HostedZones>${matches ? hostedZone : ""}</HostedZones><IsTruncated>false</IsTruncated><MaxItems>100</MaxItems></ListHostedZonesByNameResponse>`);
    }
    if (url.pathname === `/2013-04-01/hostedzone/${zone.id}`) {
      return xml(`<GetHostedZoneResponse ${NS}>${hostedZone}<DelegationSet><NameServers><NameServer>ns-1.example.net</NameServer></NameServers></DelegationSet></GetHostedZoneResponse>`);
    }
    res.writeHead(400, { "content-type": "text/xml" }).end(`<ErrorResponse ${NS}><Error><Type>Sender</Type><Code>InvalidInput</Code><Message>the fake Route 53 does not answer ${url.pathname}</Message></Error></ErrorResponse>`);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () => new Promise((r) => server.close(() => r())),
  };
}
