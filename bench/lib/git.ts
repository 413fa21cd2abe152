// Which code a run measured: the checked-out commit, the last commit that changed src/, and whether src/
// has uncommitted changes (then the figures belong to no commit).
import { execFileSync } from "node:child_process";
import { REPO } from "./config.js";

/** The measured code's identity. */
export interface GitInfo {
  head: string;
  srcCommit: string;
  srcDirty: boolean;
}

/**
 * Reads the repository's git state ("unknown" outside a git checkout).
 * @example gitInfo(); // { head: "db5b754", srcCommit: "db5b754", srcDirty: false }
 */
export function gitInfo(): GitInfo {
  const git = (...args: string[]) => {
    try {
      return execFileSync("git", args, { cwd: REPO, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
    } catch {
      return "unknown";
    }
  };
  return { head: git("rev-parse", "--short", "HEAD"), srcCommit: git("log", "-1", "--format=%h", "--", "src"), srcDirty: git("status", "--porcelain", "--", "src") !== "" };
}
