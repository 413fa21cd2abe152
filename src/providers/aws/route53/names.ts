/**
 * Name and id helpers shared by the Route 53 providers. Route 53 answers with names fully qualified
 * (trailing dot), lower-case, and with some characters as octal escapes (`*` as `\052`); ids come back
 * as `/hostedzone/Z…` and `/change/C…`. Normalising both sides keeps diffs free of spurious changes.
 */

/**
 * A DNS name as Cairn stores and compares it: octal escapes decoded (`\052` → `*`), lower-case, no
 * trailing dot, surrounding spaces trimmed.
 *
 * @example normalizeName("\\052.Example.DEV.") // "*.example.dev"
 */
export function normalizeName(name: string): string {
  const decoded = name.trim().replace(/\\([0-7]{3})/g, (_, oct: string) => String.fromCharCode(parseInt(oct, 8)));
  const lower = decoded.toLowerCase();
  return lower.endsWith(".") && lower.length > 1 ? lower.slice(0, -1) : lower;
}

/**
 * The fully qualified form Route 53 expects and returns: normalised, with the trailing dot.
 *
 * @example fqdn("WWW.example.dev") // "www.example.dev."
 */
export function fqdn(name: string): string {
  const n = normalizeName(name);
  return n.endsWith(".") ? n : `${n}.`;
}

/**
 * True when two DNS names are the same name for Route 53 (case, trailing dot and escapes ignored).
 *
 * @example sameName("www.example.dev.", "WWW.example.dev") // true
 */
export function sameName(a: string, b: string): boolean {
  return normalizeName(a) === normalizeName(b);
}

/**
 * A hosted zone id without the `/hostedzone/` prefix Route 53 puts on it; both forms are accepted.
 *
 * @example normalizeZoneId("/hostedzone/Z0123ABC") // "Z0123ABC"
 */
export function normalizeZoneId(id: string): string {
  return id.trim().replace(/^\/?hostedzone\//i, "");
}

/**
 * A change id without the `/change/` prefix.
 *
 * @example normalizeChangeId("/change/C2682N5HXP0BZ4") // "C2682N5HXP0BZ4"
 */
export function normalizeChangeId(id: string): string {
  return id.trim().replace(/^\/?change\//i, "");
}

/**
 * The ARN of a hosted zone (Route 53 is global: no region or account in it).
 *
 * @example zoneArn("/hostedzone/Z0123ABC") // "arn:aws:route53:::hostedzone/Z0123ABC"
 */
export function zoneArn(zoneId: string): string {
  return `arn:aws:route53:::hostedzone/${normalizeZoneId(zoneId)}`;
}
