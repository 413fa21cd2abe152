import type { Urn } from "../core/urn.js";
import type { StackCatalog, StateReader } from "../state/backend.js";
import type { StackState } from "../state/types.js";
import { thrownMessage } from "../core/thrown.js";
import type { StackAccess } from "../state/stack-access.js";
import { stackText, type StackName } from "../state/read-outputs.js";
import { STACK_REFERENCE_TYPE } from "../program/stack-reference.js";

/** One stack reading another's outputs, as recorded in the reader's state by its last run. */
export interface StackRead {
  reader: StackName;
  target: StackName;
  /** The backend the reader reads the target from (without credentials). */
  backend: string;
  /** The reference's URN in the reader's state. */
  urn: Urn;
}

/** Which stacks of a backend read which: what `cairn stack graph` prints. */
export interface StackGraph {
  /** The backend searched (without credentials). */
  backend: string;
  /** Every stack found in it. */
  stacks: StackName[];
  reads: StackRead[];
  /** Stacks whose state could not be read (their reads are unknown), with why. */
  unreadable: { stack: StackName; error: string }[];
}

/**
 * Finds every stack of `backend` and the stacks each one reads, from the references recorded in their
 * states (read as stored: no passphrase, no lock). `readOwn: false` leaves out what the backend's own stack
 * reads (its state is not read): enough to know who reads it, and `destroy` then reads its state once, not
 * twice (parsing a large state is costly in time and memory).
 *
 * @example const g = await stackGraph(backend, access); g.reads // [{ reader: app/prod, target: network/prod, … }]
 */
export async function stackGraph(backend: StackCatalog & StateReader, access: StackAccess, opts: { readOwn?: boolean } = {}): Promise<StackGraph> {
  const listed = backend.listAllStacks ? await backend.listAllStacks() : (await backend.listStacks()).map((stack) => ({ project: backend.project, stack }));
  const graph: StackGraph = { backend: backend.url, stacks: [], reads: [], unreadable: [] };
  for (const s of listed) {
    const own = s.project === backend.project && s.stack === backend.stack;
    if (own && opts.readOwn === false) {
      graph.stacks.push({ project: backend.project, stack: s.stack });
      continue;
    }
    let state: StackState;
    try {
      const b = own ? backend : access.open(s.project, s.stack);
      try {
        state = b.readStored ? await b.readStored() : (await b.load()).state;
      } finally {
        if (!own) await b.close();
      }
    } catch (e) {
      graph.unreadable.push({ stack: s, error: thrownMessage(e, "the state backend") });
      continue;
    }
    // A file backend does not know projects from its layout: the state says whose stack it is.
    const reader = { project: state.project || s.project, stack: s.stack };
    graph.stacks.push(reader);
    for (const r of Object.values(state.resources)) {
      if (r.type !== STACK_REFERENCE_TYPE) continue;
      const i = r.inputs as { project?: unknown; stack?: unknown; backend?: unknown };
      graph.reads.push({ reader, target: { project: String(i.project), stack: String(i.stack) }, backend: String(i.backend ?? ""), urn: r.urn });
    }
  }
  return graph;
}

/**
 * The reads of stack `target` (in the backend `url`) in a graph: who would be left reading outputs that are gone.
 *
 * @example readersOf(graph, { project: "network", stack: "prod" }, "file:///infra/.cairn") // [{ reader: app/prod, … }]
 */
export function readersOf(graph: StackGraph, target: StackName, url: string): StackRead[] {
  return graph.reads.filter(
    (r) => r.target.project === target.project && r.target.stack === target.stack && (r.backend === url || r.backend === "") && !(r.reader.project === target.project && r.reader.stack === target.stack),
  );
}

/**
 * What destroying `target` means for its readers: an error (refused) without `force`, else a warning; plus a
 * warning naming stacks that could not be searched.
 *
 * @example destroyVerdict(graph, network, url, false).error // 'stack network/prod is read by app/prod …'
 */
export function destroyVerdict(graph: StackGraph, target: StackName, url: string, force: boolean): { error?: string; warnings: string[] } {
  // The stack being destroyed cannot read itself: its own state's troubles are for destroy to report.
  const others = graph.unreadable.filter((u) => !(u.stack.project === target.project && u.stack.stack === target.stack));
  const warnings = others.map((u) => `Could not check whether stack ${stackText(u.stack)} reads ${stackText(target)} (its state cannot be read: ${u.error}).`);
  const readers = [...new Set(readersOf(graph, target, url).map((r) => stackText(r.reader)))];
  if (!readers.length) return { warnings };
  const who = `stack ${stackText(target)} is read by ${readers.join(", ")} (through stackOutputs)`;
  if (!force) {
    return {
      warnings,
      error: `${who}: destroying it would leave ${readers.length === 1 ? "that stack" : "those stacks"} reading outputs that are gone, so nothing was destroyed. Destroy the readers first (or stop reading ${stackText(target)} in their programs and run up there), or pass --force (library: destroy({ force: true })).`,
    };
  }
  return { warnings: [...warnings, `${who}; destroying it anyway (--force): their next preview fails until ${stackText(target)} has outputs again.`] };
}
