import type { ResourceInstance } from "../../../program/define.js";
import type { Output } from "../../../program/output.js";
import { NODE } from "../../../program/resource.js";
import type { CertificateDomainValidationOption, CertificateOutputs, CertificateRecordType, CertificateValidationRecord } from "../generated/acm/certificate.types.js";
import { normalizeDomain } from "./certificate.provider.js";
import { UserError } from "../../../core/diagnostic.js";

/**
 * The DNS record that validates one domain of a certificate, as Outputs (known once the certificate exists).
 *
 * @example
 * const rec: ValidationRecordOutputs = cert.validationRecordFor("example.dev");
 * new route53.RecordSet("validation", { zoneId, name: rec.name, type: rec.type, records: [rec.value], ttl: 300 });
 */
export interface ValidationRecordOutputs {
  /** Record name, without the trailing dot. */
  name: Output<string>;
  /** Record type (CNAME): assignable to a `route53.RecordSet`'s `type`. */
  type: Output<CertificateRecordType>;
  /** Record value, without the trailing dot. */
  value: Output<string>;
}

/** `*.x` and `x` are validated by one record: both map to `x`. */
const recordKey = (domain: string) => normalizeDomain(domain).replace(/^\*\./, "");

/**
 * Finds the validation record of `domain` among a certificate's validation options, by name (ACM does not
 * return them in request order), ignoring case and a trailing dot. A wildcard `*.x` and its apex `x` share
 * one record, so either one's record answers for the other. Throws naming the domain and listing the
 * certificate's domains when it has no record for it.
 *
 * @example
 * validationRecordOf([{ domainName: "example.dev", resourceRecord: rec }], "*.Example.dev.") // rec
 */
export function validationRecordOf(options: readonly CertificateDomainValidationOption[], domain: string): CertificateValidationRecord {
  const want = normalizeDomain(domain);
  const exact = options.find((o) => normalizeDomain(o.domainName) === want);
  if (exact?.resourceRecord) return exact.resourceRecord;
  const shared = options.find((o) => o.resourceRecord && recordKey(o.domainName) === recordKey(want));
  if (shared?.resourceRecord) return shared.resourceRecord;
  const domains = options.map((o) => o.domainName).join(", ") || "none";
  if (exact || shared || options.some((o) => recordKey(o.domainName) === recordKey(want))) {
    throw new UserError(`The certificate has no DNS validation record for "${domain}" (is its validationMethod EMAIL?). Its domains: ${domains}.`);
  }
  throw new UserError(`The certificate does not cover "${domain}": validationRecordFor needs one of its domains: ${domains}.`);
}

/**
 * Reduces a certificate's domain names to one per distinct validation record, in declaration order:
 * names are compared ignoring case and a trailing dot, and `*.x` is dropped when `x` came first (or the
 * other way round). Returns the kept names normalised.
 *
 * @example distinctValidationDomains(["example.dev", "*.example.dev", "API.example.dev."]) // ["example.dev", "api.example.dev"]
 */
export function distinctValidationDomains(names: readonly string[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of names) {
    const key = recordKey(name);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(normalizeDomain(name));
  }
  return out;
}

/**
 * Methods of `acm.Certificate` instances (helpers over its outputs for DNS validation).
 *
 * @example
 * const cert = new acm.Certificate("cert", { domainName: "example.dev", subjectAlternativeNames: ["*.example.dev"] });
 * for (const d of cert.validationDomains()) {
 *   const rec = cert.validationRecordFor(d);
 *   new route53.RecordSet(`validation-${d}`, { zoneId: zone.id, name: rec.name, type: rec.type, records: [rec.value], ttl: 300 });
 * }
 */
export const certificateMethods = {
  /**
   * The validation record of one of the certificate's domains, matched by name (not position).
   *
   * @example const rec = cert.validationRecordFor("www.example.dev"); // rec.name, rec.type, rec.value
   */
  validationRecordFor(this: ResourceInstance<CertificateOutputs>, domain: string): ValidationRecordOutputs {
    const record = this.domainValidationOptions.apply((options) => validationRecordOf(options, domain));
    return { name: record.apply((r) => r.name), type: record.apply((r) => r.type), value: record.apply((r) => r.value) };
  },

  /**
   * The certificate's declared domains reduced to one per distinct validation record, in declaration order:
   * create one DNS record for each.
   *
   * @example for (const d of cert.validationDomains()) new route53.RecordSet(`v-${d}`, { ...fromRecord(cert.validationRecordFor(d)) });
   */
  validationDomains(this: ResourceInstance<CertificateOutputs>): string[] {
    const node = this[NODE];
    if (node.kind !== "custom") {
      throw new UserError(`validationDomains() of "${node.name}" needs the domain names it was declared with; a certificate read with get() has none: use its domainValidationOptions output.`);
    }
    const { domainName, subjectAlternativeNames: sans } = node.inputs;
    const names: unknown[] = [domainName, ...(Array.isArray(sans) ? sans : sans === undefined ? [] : [sans])];
    if (names.some((n) => typeof n !== "string") || (sans !== undefined && !Array.isArray(sans))) {
      throw new UserError(
        `validationDomains() of "${node.name}" needs its domainName and subjectAlternativeNames as plain strings, but one is an Output or a promise: pass the domain names as plain strings to use it, or call validationRecordFor(domain) for each domain yourself.`,
      );
    }
    return distinctValidationDomains(names as string[]);
  },
};
