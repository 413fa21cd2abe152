// How a bad input's answer is judged, automatically: clear, harmless, or wrong.
//
// - wrong: the input was accepted (exit 0), the run crashed (an exception escaped, a stack trace or an
//   engine error such as "Maximum call stack size exceeded" was printed), it hung, or the state or the
//   (fake) cloud changed.
// - clear: refused with the expected exit code, and the message (1) says what is wrong (it matches what the
//   case expects), (2) says where (it names a file, a URN, a resource or key in quotes, an option, a URL or
//   a file:line), and (3) says what to do (an instruction: "use …", "pass …", "set …", a command in
//   backticks, or the command's usage printed after the error, …).
// - harmless: refused, nothing changed, nothing crashed, but the message misses one of (1)-(3) or the
//   exit code is not the expected one.

/** What a run of one bad input did. */
export interface Outcome {
  /** The exit code; undefined when the run never ended (hung). */
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** An exception that escaped the CLI itself (it should turn every error into a message). */
  escaped?: string;
  stateChanged: boolean;
  cloudChanged: boolean;
}

/** What a case expects. */
export interface Expected {
  code: number;
  message: RegExp;
}

export type Verdict = "clear" | "harmless" | "wrong";

/** A verdict and why. */
export interface Judged {
  verdict: Verdict;
  reasons: string[];
}

/** Marks of a crash in what a user sees: a stack trace, or an engine error no message of Cairn's would say. */
const CRASH = [/\n\s+at .*:\d+:\d+\)?/, /Maximum call stack size exceeded/, /Cannot read propert(y|ies) of/, /is not a function/, /is not iterable/, /\[object Object\]/, /Invalid URL/];
/** Where: a path or file name, a URN, something in quotes, an option, a URL, a file:line. */
const WHERE = [/(^|[\s(])\/[\w.-]+\//, /\b[\w.-]+\.(json|ndjson|ts|mts|js)\b/, /urn:cairn:/, /"[^"]+"/, /(^|\s)--[a-z]/, /\b[a-z][a-z0-9+.-]*:\/\//, /:\d+:\d+/, /'[^']+'/, /`[^`]+`/];
/** What to do: an instruction, or a command to run. */
const ACTION = /\b(use|pass|set|run|fix|remove|give|create|check|upgrade|make|put|move|return|delete|choose|write|restore|add|rename|handle|read it|import|unprotect|forget|declare|leave|let|stop|try|apply|destroy|refresh|edit|see|install|free|wait|retry|adopt|mark|replace|provide|list|change|start|press|select|define|split|drop|keep|call|write out)\b|`[^`]+`|did you mean|\nUsage: /i;

/** The lines a user reads as the answer: the error lines (with what follows them), else everything printed. */
export function answerOf(o: Pick<Outcome, "stdout" | "stderr">): string {
  const text = `${o.stderr}\n${o.stdout}`;
  const at = text.search(/(^|\n)(error|Error):/);
  return (at >= 0 ? text.slice(at) : text).trim();
}

/**
 * Judges one outcome against what its case expects.
 * @example judge({ code: 1, stdout: "", stderr: "error: …", stateChanged: false, cloudChanged: false }, { code: 1, message: /…/ })
 */
export function judge(o: Outcome, expected: Expected): Judged {
  const wrong: string[] = [];
  const text = `${o.stderr}\n${o.stdout}`;
  if (o.code === undefined) wrong.push("hung: the run never ended");
  else if (o.code === 0) wrong.push("accepted: exit 0");
  if (o.escaped) wrong.push(`crashed: ${o.escaped.split("\n")[0]}`);
  const crash = CRASH.find((c) => c.test(o.stderr) || c.test(answerOf(o)));
  if (crash) wrong.push(`crashed: printed ${crash.source}`);
  if (o.stateChanged) wrong.push("the state changed");
  if (o.cloudChanged) wrong.push("the cloud changed");
  if (wrong.length) return { verdict: "wrong", reasons: wrong };
  const weak: string[] = [];
  if (o.code !== expected.code) weak.push(`exit ${o.code}, expected ${expected.code}`);
  if (!expected.message.test(text)) weak.push("does not say what the case expects");
  const answer = answerOf(o);
  if (!WHERE.some((w) => w.test(answer))) weak.push("does not say where");
  if (!ACTION.test(answer)) weak.push("does not say what to do");
  return weak.length ? { verdict: "harmless", reasons: weak } : { verdict: "clear", reasons: [] };
}
