import { isAbsolute, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/** A state backend URL, read once: the one parser every place that opens or names a backend uses. */
export type BackendUrl =
  | { kind: "file"; dir: string }
  | { kind: "postgres"; url: string }
  | { kind: "s3"; url: string }
  | { kind: "memory"; space: string | undefined };

/**
 * The URL kinds that keep state beyond the process, for messages and help: the one list (a new backend
 * adds its scheme here, next to its parser below).
 */
export const STORED_BACKEND_SCHEMES = "file://<dir>, postgres://user@host/database, s3://bucket/prefix?region=<region>";

/** Every URL kind, for messages. */
export const BACKEND_SCHEMES = `${STORED_BACKEND_SCHEMES} or memory://`;

/**
 * Reads a backend URL: `file://<dir>` (relative to the working directory, or `file:///absolute`),
 * `postgres://…` / `postgresql://…`, `s3://…`, `memory://[name]`. Throws naming the URL (never its
 * password) and the kinds there are.
 *
 * @example parseBackendUrl("file://.cairn") // { kind: "file", dir: "/home/me/app/.cairn" }
 */
export function parseBackendUrl(url: string): BackendUrl {
  switch (schemeOf(url)) {
    case "file":
      return { kind: "file", dir: fileDir(url) };
    case "postgres":
    case "postgresql":
      return { kind: "postgres", url };
    case "s3":
      return { kind: "s3", url };
    case "memory":
      return { kind: "memory", space: url.slice("memory://".length) || undefined };
    default:
      throw new Error(`unknown state backend ${JSON.stringify(url.replace(/\/\/([^:/@]*):[^@]*@/, "//$1:***@"))}: use ${BACKEND_SCHEMES}`);
  }
}

/** The lower-cased scheme of a URL (`file`, `s3`, …), or undefined when it has none. */
function schemeOf(url: string): string | undefined {
  return /^([a-z][a-z0-9+.-]*):\/\//i.exec(url.trim())?.[1]?.toLowerCase();
}

/**
 * Which kind of backend a URL names, without refusing an unknown one (that is {@link parseBackendUrl}'s
 * job, where the backend is opened).
 *
 * @example backendKind("memory://tests") // "memory"
 * @example backendKind("ftp://x") // undefined
 */
export function backendKind(url: string): BackendUrl["kind"] | undefined {
  const s = schemeOf(url);
  return s === "file" || s === "s3" || s === "memory" ? s : s === "postgres" || s === "postgresql" ? "postgres" : undefined;
}

/** The directory of a `file://` URL: an absolute one as a URL (percent-encoded), a relative one as written. */
function fileDir(url: string): string {
  if (url.startsWith("file:///")) return fileURLToPath(url);
  const rest = url.slice("file://".length);
  let path = rest;
  try {
    path = decodeURIComponent(rest);
  } catch {
    // Not percent-encoded: taken as written.
  }
  if (!path) throw new Error(`the backend URL ${url} names no directory: use file://.cairn or file:///absolute/path`);
  return isAbsolute(path) ? path : resolve(path);
}

/**
 * The `file://` URL of a state directory (absolute, percent-encoded where needed).
 * @example fileBackendUrl(".cairn") // "file:///home/me/app/.cairn"
 */
export function fileBackendUrl(dir: string): string {
  return pathToFileURL(resolve(dir)).href;
}
