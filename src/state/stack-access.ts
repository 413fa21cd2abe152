import type { OutputReader, StateBackend, StatePlace, StateReader } from "./backend.js";
import { openBackend } from "./open-backend.js";
import type { Props } from "./types.js";
import { UserError } from "../core/diagnostic.js";

/** Another stack as {@link StackAccess} opens it: read-only (its state, its outputs), no lock. @example (await other.readOutputs()).outputs */
export type OtherStack = StateReader & OutputReader;

/**
 * How a running stack reaches the state of other stacks: `stackOutputs` reads through it, and `destroy` and
 * `stack graph` look for readers through it. Read-only use: nothing opened here takes a lock.
 *
 * @example const net = access.open("network", "prod"); const { state } = await net.load();
 */
export interface StackAccess {
  /** The running stack's backend, without credentials (e.g. `file:///app/.cairn`). */
  readonly url: string;
  /** The running stack's passphrase: the default for reading other stacks' secrets. */
  readonly passphrase: string | undefined;
  /**
   * Opens stack `project/stack` in the running stack's backend, or in `backend` (a URL) when given.
   * Throws when the running stack's backend is an object that cannot open other stacks.
   */
  open(project: string, stack: string, opts?: { backend?: string; passphrase?: string | undefined }): OtherStack;
  /**
   * Outputs of other stacks as their own plans (made in the same preview) will leave them, by
   * `project/stack`: read instead of the committed ones, values still to come as `UNKNOWN`.
   */
  readonly planned?: ReadonlyMap<string, PlannedOutputs>;
}

/** A stack's outputs as its plan will leave them (see {@link StackAccess.planned}). */
export interface PlannedOutputs {
  values: Props;
  secretKeys: readonly string[];
}

/**
 * The same access, reading the planned outputs of the stacks in `planned` (keyed `project/stack`).
 *
 * @example const access = withPlannedOutputs(stackAccess(src), new Map([["network/prod", { values, secretKeys }]]));
 */
export function withPlannedOutputs(access: StackAccess, planned: ReadonlyMap<string, PlannedOutputs>): StackAccess {
  return { url: access.url, passphrase: access.passphrase, open: (p, s, o) => access.open(p, s, o), planned };
}

/** What {@link stackAccess} needs: how the running stack opened its own backend. */
export interface AccessSource {
  backend: StatePlace;
  /** The URL or object the stack was given (undefined: files in `stateDir`). */
  given: string | StateBackend | undefined;
  stateDir: string;
  passphrase: string | undefined;
}

/**
 * The {@link StackAccess} of a stack whose backend is `src.backend`.
 *
 * @example stackAccess({ backend, given: "postgres://cairn@db/infra", stateDir: ".cairn", passphrase })
 */
export function stackAccess(src: AccessSource): StackAccess {
  return {
    url: src.backend.url,
    passphrase: src.passphrase,
    open(project, stack, opts = {}) {
      const passphrase = "passphrase" in opts ? opts.passphrase : src.passphrase;
      if (opts.backend !== undefined) return openBackend({ backend: opts.backend, stack, project, passphrase });
      if (typeof src.given === "object") {
        if (src.given.project === project && src.given.stack === stack) return src.given;
        throw new UserError(
          `stack ${project}/${stack} cannot be opened from ${src.backend.url}: this stack's backend was given as an object, which holds one stack. Pass the backend URL in the options (backend: "…").`,
        );
      }
      return openBackend({ backend: src.given, stateDir: src.stateDir, stack, project, passphrase });
    },
  };
}
