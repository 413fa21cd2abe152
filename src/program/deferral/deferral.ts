import type { Urn } from "../../core/urn.js";
import type { DeclarationSite } from "../../core/declaration-site.js";
import type { ResourceNode } from "../node.js";

/**
 * Where an `apply` callback gets its value: the resources it comes from and how the program names it
 * (`cert.domainValidationOptions`). Resources the callback declares record it, so a later plan knows which
 * value they wait for.
 *
 * @example { on: [certNode], waitsFor: "cert.domainValidationOptions" }
 */
export interface Origin {
  /** The resources the callback's value comes from. */
  readonly on: readonly ResourceNode[];
  /** The value, as the program names it: `cert.domainValidationOptions`, or the resources' names. */
  readonly waitsFor: string;
}

/**
 * One resource (or wait, lookup, component) a callback declares, as far as a run on stand-ins could tell.
 *
 * @example { kind: "custom", type: "aws:route53:RecordSet", name: undefined, pattern: "validation-…" }
 */
export interface DeferredDeclaration {
  kind: ResourceNode["kind"];
  type: string;
  /** Its name when it does not depend on the unknown value; else undefined. */
  name: string | undefined;
  /** The name with the unknown parts shown as `…` (`validation-…`), when it depends on them. */
  pattern?: string;
  site?: DeclarationSite;
}

/**
 * A value unknown while planning that an `apply` callback waits on, where that callback declares resources:
 * they are deferred until the value is known (the next round of `up`). Carried with unknown values, so
 * whatever reads the callback's result is deferred too.
 *
 * @example { waitsFor: "cert.domainValidationOptions", on: ["urn:…::cert"], declares: [{ kind: "custom", type: "aws:route53:RecordSet", name: "validation-a.example.dev" }] }
 */
export interface Deferral {
  waitsFor: string;
  on: Urn[];
  declares: DeferredDeclaration[];
}

/**
 * What the planner learns from `apply` callbacks whose value is not known yet: each is run once on
 * stand-ins (see `standIn`) to see what it would declare. A resolver carries these while planning.
 *
 * @example const hooks: PlanningHooks = { unknownApply: (origin, deferral) => deferral && declaring.add(deferral) };
 */
export interface PlanningHooks {
  /**
   * A callback on `origin` could not run (its value is unknown); `deferral` when it declares resources.
   * `unforeseen` when a run on stand-ins failed before declaring anything: what it declares is unknown.
   */
  unknownApply(origin: Origin, deferral: Deferral | undefined, unforeseen?: boolean): void;
}
