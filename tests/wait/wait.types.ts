// Compile-time tests for wait(): checked by `tsc --noEmit` in `npm test`, never executed.
// Each `@ts-expect-error` must be needed, or tsc fails with "Unused '@ts-expect-error' directive".
import { defineResource, minutes, wait, and, type Output, type Provider } from "../../src/index.js";

interface CertIn { domainName: string }
interface CertOut {
  arn: string;
  status: "PENDING_VALIDATION" | "ISSUED" | "FAILED";
  notAfter?: number;
  domainValidationOptions: { domainName: string; validationStatus?: "PENDING_VALIDATION" | "SUCCESS" }[];
}
declare const provider: Provider<CertIn, CertOut>;

export function typeTests(): void {
  const Certificate = defineResource<CertIn, CertOut>("t:acm:Certificate", { provider });
  const cert = new Certificate("cert", { domainName: "a.dev" });

  const issued = wait(cert, { until: (c) => c.status.eq("ISSUED"), timeout: minutes(75) });
  // Passthrough: the same attributes with the same types.
  const arn: Output<string> = issued.arn;
  const status: Output<"PENDING_VALIDATION" | "ISSUED" | "FAILED"> = issued.status;
  const id: Output<string> = issued.id;
  void [arn, status, id];

  // A wait can be waited on, and listed in dependsOn.
  const strict = wait(issued, {
    until: (c) => and(c.domainValidationOptions.every((o) => o.validationStatus.eq("SUCCESS")), c.notAfter.gt(0)),
    dependsOn: [issued],
    failWhen: (c) => c.status.eq("FAILED"),
    interval: "10s",
    name: "strict",
  });
  const arn2: Output<string> = strict.arn;
  void arn2;

  // @ts-expect-error misspelt attribute
  wait(cert, { until: (c) => c.stauts.eq("ISSUED") });
  // @ts-expect-error not a status of this type
  wait(cert, { until: (c) => c.status.eq("DONE") });
  // @ts-expect-error until is required
  wait(cert, { timeout: minutes(5) });
  // @ts-expect-error a predicate, not a boolean
  wait(cert, { until: (c) => c.status === "ISSUED" });
  // @ts-expect-error the handle has no attribute the target lacks
  void issued.nope;
  // @ts-expect-error timeout is a Duration (or text), not a bare number
  wait(cert, { until: (c) => c.status.eq("ISSUED"), timeout: 5 });
  // @ts-expect-error only resources and waits can be waited on
  wait({ arn: "x" }, { until: (c) => c.arn.exists() });
}
