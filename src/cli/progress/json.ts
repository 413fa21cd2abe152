import type { EngineEvent } from "../../apply/events.js";
import type { JsonEmitter } from "../json/events.js";
import { engineEventToJson } from "../json/events.js";
import type { Reporter } from "./reporter.js";

/**
 * Progress as `--json` events: every engine event becomes one versioned NDJSON line on stdout; text meant
 * for people goes to stderr, so stdout stays machine-readable.
 *
 * @example const r = new JsonReporter(new JsonEmitter(write), (t) => process.stderr.write(t + "\n"), "npx tsx infra.ts");
 */
export class JsonReporter implements Reporter {
  constructor(
    private readonly json: JsonEmitter,
    private readonly err: (text: string) => void,
    private readonly command: string,
  ) {}

  event(e: EngineEvent): void {
    this.json.emit(engineEventToJson(e, this.command));
  }

  print(text: string): void {
    this.err(text);
  }

  close(): void {}
}
