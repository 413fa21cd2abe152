import type { Provider } from "../provider/provider.js";
import type { Props } from "../state/types.js";
import { lookupMockProvider, partialMockProvider, resourceMockProvider } from "./mock-provider.js";
import type { MockEnv, ResourceMockOptions } from "./mock-types.js";

export type { MockEnv, MockFailure, MockOutputs, MockTarget, ResourceMockOptions } from "./mock-types.js";

/**
 * A recipe for a mocked provider. Every test run builds its own provider from it, so a mock declared once at
 * the top of a test file is never shared between tests: counters (reads, failures, ids) start afresh.
 * Made by {@link mocks}.
 *
 * @example const cert = mocks.resource({ outputs: { arn: "arn:aws:acm:us-east-1:1:certificate/abc" } });
 */
export class Mock {
  /** @internal */
  constructor(
    /** What kind of mock this is, for messages. */
    readonly kind: "resource" | "lookup" | "provider" | "real",
    private readonly make: (env: MockEnv) => Provider<any, any, any> | undefined,
  ) {}

  /** @internal A fresh provider for one run; `undefined` means the type's own provider. */
  build(env: MockEnv): Provider<any, any, any> | undefined {
    return this.make(env);
  }
}

/**
 * Mock providers for {@link testProgram}, per type token or per resource name. Each runs behind the real
 * engine: plans, diffs, waits and planning options (`ignoreChanges`, `replaceOnChanges`, …) behave as
 * against a cloud.
 *
 * @example
 * const run = await testProgram(app, {
 *   mocks: {
 *     "aws:acm:Certificate": mocks.resource({ outputs: { arn: "arn:aws:acm:us-east-1:1:certificate/abc" },
 *                                             reads: [{ status: "PENDING_VALIDATION" }, { status: "ISSUED" }] }),
 *     "aws:route53:HostedZone": mocks.lookup({ zoneId: "Z1", name: "example.dev." }),
 *     "aws:route53:RecordSet": mocks.resource(),
 *   },
 * });
 */
export const mocks = {
  /**
   * A mocked cloud object: create returns its inputs merged with `outputs`; update does the same with the new
   * inputs; each read returns the outputs merged with the next entry of `reads` (the last one repeats);
   * delete succeeds. `fail` makes chosen operations throw. Lookups (`Type.get`) of the type find an object
   * with `outputs`.
   *
   * @example mocks.resource({ outputs: { arn: "arn:1" }, reads: [{ status: "PENDING" }, { status: "ISSUED" }] })
   * @example mocks.resource({ fail: { create: "AccessDenied" } })
   * @example mocks.resource<acm.CertificateInputs, acm.CertificateOutputs>({ outputs: (i) => ({ domainName: i.domainName.toLowerCase() }) })
   */
  resource<I = Props, O = Props>(opts: ResourceMockOptions<NoInfer<I>, NoInfer<O>> = {}): Mock {
    return new Mock("resource", (env) => resourceMockProvider(opts as ResourceMockOptions, env));
  },

  /**
   * A lookup (`Type.get(name, idOrQuery)`) that finds an object with these outputs, or finds nothing when
   * given `undefined` (the plan then reports that nothing matches). Creating, updating or deleting fails.
   *
   * @example mocks.lookup({ zoneId: "Z1", name: "example.dev." })
   * @example mocks.lookup(undefined) // "nothing matches"
   */
  lookup(outputs: Props | undefined): Mock {
    return new Mock("lookup", () => lookupMockProvider(outputs));
  },

  /**
   * Full control: the methods given replace those of `mocks.resource()`; a method given as `undefined` is
   * removed (e.g. `update: undefined` makes every change a replace).
   *
   * @example mocks.provider({ diff: () => ({ kind: "replace", changed: ["name"], replaceKeys: ["name"] }) })
   */
  provider(partial: Partial<Provider<any, any, any>>): Mock {
    return new Mock("provider", (env) => partialMockProvider(partial, env));
  },

  /**
   * The type's own provider, unmocked: for offline types that are safe to run in a test (e.g. `local:RandomId`).
   *
   * @example mocks: { "local:RandomId": mocks.real() }
   */
  real(): Mock {
    return new Mock("real", () => undefined);
  },
};
