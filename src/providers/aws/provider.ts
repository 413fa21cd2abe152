import type { ACMClientConfig } from "@aws-sdk/client-acm";
import type { ProviderInstance } from "../../provider/provider.js";
import { UserError } from "../../core/diagnostic.js";

/** Settings of an {@link Provider}. Everything is optional: unset values come from the SDK's default chain. */
export interface ProviderArgs {
  /** The region objects live in, e.g. `us-east-1` (default: `AWS_REGION`, then the profile's region). */
  region?: string;
  /** A named profile from `~/.aws/config` (default: `AWS_PROFILE`). */
  profile?: string;
  /** An AWS-compatible endpoint, e.g. `http://127.0.0.1:4566` for a local emulator (default: `AWS_ENDPOINT_URL`). */
  endpoint?: string;
  /** Explicit credentials, or a function that returns them (default: the SDK's credential chain). */
  credentials?: ACMClientConfig["credentials"];
  /**
   * Tags given to every taggable Cloud Control resource that uses this provider (a resource's own tags win;
   * these win over the stack's `aws:defaultTags` config).
   */
  defaultTags?: Readonly<Record<string, string>>;
}

// Instances by name, so a resource the program no longer declares is still deleted with the
// credentials of the instance it was created with (state records only the name and settings).
// Process-wide: two programs of one process must not give one name different settings, and a stack reaches
// its own program's instance first (`Stack.instanceFor`); only an instance its program no longer makes is
// found here.
const byName = new Map<string, Provider>();

/**
 * A configured AWS provider: give it to resources with `opts.provider` to choose their region, profile,
 * endpoint or credentials. Resources without one use the default provider (the SDK's default chain,
 * `AWS_REGION`, `AWS_PROFILE`, `AWS_ENDPOINT_URL`).
 *
 * Region and endpoint are recorded in state with each resource: changing them replaces the resource
 * (it moves). Profile and credentials are never stored.
 *
 * @example
 * // CloudFront certificates must live in us-east-1, whatever the stack's region.
 * const use1 = new aws.Provider("use1", { region: "us-east-1" });
 * new acm.Certificate("cdn", { domainName: "cdn.example.dev" }, { provider: use1 });
 */
export class Provider implements ProviderInstance {
  readonly package = "aws";
  readonly settings: Readonly<Record<string, string>>;

  constructor(
    readonly name: string,
    readonly args: ProviderArgs = {},
  ) {
    if (!/^[A-Za-z0-9_.-]+$/.test(name)) throw new UserError(`Invalid aws.Provider name "${name}": use letters, digits, ".", "_" or "-".`);
    const settings: Record<string, string> = {};
    if (args.region) settings.region = args.region;
    if (args.endpoint) settings.endpoint = args.endpoint;
    this.settings = Object.freeze(settings);
    const other = byName.get(name);
    // Two different instances under one name would make state ambiguous (which credentials delete what?).
    if (other && !sameArgs(other.args, args)) {
      throw new UserError(`Two aws.Provider instances are named "${name}" with different settings: give each its own name.`);
    }
    byName.set(name, this);
  }
}

/** @internal The runtime instance for a provider reference (from `opts.provider`, or by name from state). */
export function resolveProvider(ref: ProviderInstance | undefined): ProviderArgs {
  if (!ref) return {};
  if (ref instanceof Provider) return ref.args;
  const live = byName.get(ref.name);
  // Where the object lives comes only from the record (a setting it lacks stays unset, never filled in
  // from today's instance); who acts (profile, credentials) from the live instance of that name.
  const { region: _r, endpoint: _e, ...who } = live?.args ?? {};
  return { ...who, ...(ref.settings.region ? { region: ref.settings.region } : {}), ...(ref.settings.endpoint ? { endpoint: ref.settings.endpoint } : {}) };
}

function sameArgs(a: ProviderArgs, b: ProviderArgs): boolean {
  // Credentials are left out: a program evaluated twice builds equal credentials as new objects.
  return a.region === b.region && a.profile === b.profile && a.endpoint === b.endpoint && JSON.stringify(a.defaultTags ?? {}) === JSON.stringify(b.defaultTags ?? {});
}
