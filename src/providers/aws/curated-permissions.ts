/**
 * The IAM actions the hand-written ACM and Route 53 providers call, per operation (read from their code:
 * each SDK command they send, its action named as in the Service Authorization Reference). Kept beside
 * them: a new call there is a line here.
 */
import type { ProviderOperation } from "../../provider/provider.js";

type Table = Readonly<Record<ProviderOperation, readonly string[]>>;

/** `acm.Certificate`: tags go with the request (`acm:AddTagsToCertificate`); reads describe and list its tags; waits on several list them. */
export const CERTIFICATE_PERMISSIONS: Table = {
  create: ["acm:AddTagsToCertificate", "acm:DescribeCertificate", "acm:ListTagsForCertificate", "acm:RequestCertificate"],
  read: ["acm:DescribeCertificate", "acm:ListTagsForCertificate"],
  update: ["acm:AddTagsToCertificate", "acm:DescribeCertificate", "acm:ListTagsForCertificate", "acm:RemoveTagsFromCertificate"],
  delete: ["acm:DeleteCertificate"],
  list: ["acm:DescribeCertificate", "acm:ListCertificates", "acm:ListTagsForCertificate"],
};

/** `route53.HostedZone`: a create finds a zone it made before by name (and adopts it); a delete lists what blocks it. */
export const HOSTED_ZONE_PERMISSIONS: Table = {
  create: ["route53:CreateHostedZone", "route53:GetHostedZone", "route53:ListHostedZonesByName", "route53:UpdateHostedZoneComment"],
  read: ["route53:GetHostedZone", "route53:ListHostedZonesByName"],
  update: ["route53:GetHostedZone", "route53:UpdateHostedZoneComment"],
  delete: ["route53:DeleteHostedZone", "route53:ListResourceRecordSets"],
  list: ["route53:GetHostedZone"],
};

/** `route53.RecordSet`: changes wait for INSYNC (`route53:GetChange`); a create adopts an identical record it finds. */
export const RECORD_SET_PERMISSIONS: Table = {
  create: ["route53:ChangeResourceRecordSets", "route53:GetChange", "route53:ListResourceRecordSets"],
  read: ["route53:ListResourceRecordSets"],
  update: ["route53:ChangeResourceRecordSets", "route53:GetChange"],
  delete: ["route53:ChangeResourceRecordSets", "route53:GetChange", "route53:ListResourceRecordSets"],
  list: ["route53:ListResourceRecordSets"],
};
