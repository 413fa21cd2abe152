import type { lock } from "proper-lockfile";

/** What Cairn uses of proper-lockfile. */
export interface ProperLockfile {
  lock: typeof lock;
}

let loaded: Promise<ProperLockfile> | undefined;

/**
 * proper-lockfile, loaded when a file lock is first taken: with graceful-fs (which it loads, and which
 * patches `fs`) it was a quarter of `import "cairn-iac"`, and only the file backend takes such locks.
 *
 * @example const lockfile = await properLockfile(); const release = await lockfile.lock(dir, options);
 */
export function properLockfile(): Promise<ProperLockfile> {
  loaded ??= import("proper-lockfile").then((m): ProperLockfile => m.default);
  return loaded;
}
