import { UserError } from "../core/diagnostic.js";

/** What to do about a file-system error, by its code. */
const ADVICE: Record<string, string> = {
  EISDIR: "it is a folder, not a file: move the folder aside",
  ENOTDIR: "a part of its path is a file, not a folder: check --state-dir (or CAIRN_STATE_DIR)",
  EACCES: "permission denied: check the owner and permissions of the file and its folders (ls -ld), or run as the user who owns them",
  EPERM: "the operation is not permitted: check the owner and permissions of the file and its folders (ls -ld)",
  EMFILE: "this process has too many files open: raise the limit (ulimit -n 4096) or lower --parallel, then run again",
  ENFILE: "the system has too many files open: close other programs or raise the system's limit, then run again",
  ELOOP: "its path goes round in symbolic links: check the links in the path",
  ENAMETOOLONG: "its path is too long: use a shorter --state-dir",
  EROFS: "the file system is read-only: use a writable --state-dir",
  EIO: "the disk reported an input/output error: check the disk before going on",
  ENOENT: "a folder on its path is missing, or the file system does not let folders be made there (a special file system such as /proc): use another --state-dir",
};

/**
 * The advice for a file-system error code, or undefined when there is none to give.
 * @example fsAdvice("EISDIR") // "it is a folder, not a file: move the folder aside"
 */
export function fsAdvice(code: string | undefined): string | undefined {
  return code ? ADVICE[code] : undefined;
}

/**
 * A read of a state file that failed, naming the file, the error and what to do. Nothing was changed.
 * @example throw new StateReadError(".cairn/stacks/dev/state.json", err)
 */
export class StateReadError extends UserError {
  override name = "StateReadError";
  readonly code: string | undefined;
  constructor(
    readonly file: string,
    cause: unknown,
  ) {
    const err = cause as NodeJS.ErrnoException;
    const advice = fsAdvice(err?.code);
    super(`cannot read ${file} (${err?.code ?? "error"}${advice ? `: ${advice}` : `: ${err?.message ?? String(cause)}`}). Nothing was changed`);
    this.code = err?.code;
  }
}
