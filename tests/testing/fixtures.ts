import { program, defineResource, wait, minutes, seconds, type Provider } from "cairn-iac";
import { mocks } from "cairn-iac/testing";

/** A real provider a test must never reach: every call throws. */
function unreachable<I, O, Q = never>(type: string): Provider<I, O, Q> {
  const fail = async (): Promise<never> => {
    throw new Error(`the real provider of ${type} was called in a unit test`);
  };
  return { create: fail, read: fail, delete: fail, update: fail, lookup: fail };
}

export interface BucketInputs {
  name: string;
  versioning?: boolean;
  tags?: Record<string, string>;
}
export interface BucketOutputs extends BucketInputs {
  arn: string;
  status: "creating" | "ready" | "failed";
  failureReason?: string;
}

/** A storage bucket: `name` replaces, the rest updates in place; waits fail on `failed`. */
export const Bucket = defineResource<BucketInputs, BucketOutputs>("probe:storage:Bucket", {
  provider: unreachable("probe:storage:Bucket"),
  schema: {
    inputs: { name: { type: "string", forceNew: true }, versioning: { type: "boolean" }, tags: { type: "object" } },
    outputs: { name: { type: "string" }, arn: { type: "string", stable: true }, status: { type: "string" }, versioning: { type: "boolean" }, tags: { type: "object" }, failureReason: { type: "string" } },
    wait: { failWhen: { op: "in", path: ["status"], values: ["failed"] }, reasonAttribute: "failureReason" },
  },
});

export interface RecordInputs {
  zone: string;
  name: string;
  value: string;
}
/** A DNS record publishing a value. */
export const DnsRecord = defineResource<RecordInputs, RecordInputs & { fqdn: string }>("probe:dns:Record", {
  provider: unreachable("probe:dns:Record"),
  schema: { inputs: { zone: { type: "string", forceNew: true }, name: { type: "string" }, value: { type: "string" } }, outputs: { fqdn: { type: "string" } } },
});

/** A zone found by name. */
export const Zone = defineResource<{ name: string }, { zoneId: string; name: string }, { name: string }>("probe:dns:Zone", {
  provider: unreachable("probe:dns:Zone"),
  schema: { outputs: { zoneId: { type: "string" }, name: { type: "string" } } },
});

/**
 * The app under test: a bucket (its name from config), a wait until it is ready (75 minutes, polled every 30 s),
 * and a record publishing its ARN once ready; `audit=on` adds an audit bucket.
 */
export const app = program("probe-app", ({ config }) => {
  const zone = Zone.get("zone", { name: "example.dev" });
  const bucket = new Bucket("data", { name: config.get("bucketName") ?? "data-bucket", versioning: config.getBoolean("versioning") ?? false, tags: { team: "infra" } }, { ignoreChanges: ["tags"] });
  const ready = wait(bucket, { name: "ready", until: (b) => b.status.eq("ready"), timeout: minutes(75), interval: seconds(30) });
  const publish = new DnsRecord("publish", { zone: zone.zoneId, name: "data", value: ready.arn });
  if (config.get("audit") === "on") new Bucket("audit", { name: "audit-bucket" });
  return { bucketArn: ready.arn, fqdn: publish.fqdn, token: config.getSecret("token") };
});

/** Mocks for every type of {@link app}: the bucket is ready on its second read. */
export function appMocks(bucketReads: Partial<BucketOutputs>[] = [{ status: "creating" }, { status: "ready" }]) {
  return {
    "probe:dns:Zone": mocks.lookup({ zoneId: "Z1", name: "example.dev" }),
    "probe:storage:Bucket": mocks.resource<BucketInputs, BucketOutputs>({ outputs: (i) => ({ arn: `arn:probe:bucket/${i.name}`, status: "creating" }), reads: bucketReads }),
    "probe:dns:Record": mocks.resource<RecordInputs>({ outputs: (i) => ({ fqdn: `${i.name}.example.dev` }) }),
  };
}
