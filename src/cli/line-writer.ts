/**
 * Writes lines to a stream, where every write is a system call: lines are gathered and written together at
 * the end of the event-loop turn (or when 64 KB are waiting, or when the process exits, or on `flush`):
 * a run prints two lines a resource. A terminal too (a write to one is slow, per line): whatever else
 * writes to it, such as the live progress region, flushes first.
 *
 * @example const out = lineWriter(process.stdout); out.line("✓ created a"); out.flush();
 */
export function lineWriter(stream: NodeJS.WriteStream): LineWriter {
  let w = writers.get(stream);
  if (!w) writers.set(stream, (w = makeWriter(stream)));
  return w;
}

/** What {@link lineWriter} returns. */
export interface LineWriter {
  line(text: string): void;
  /** Writes what is waiting now. */
  flush(): void;
}

/** Characters gathered before they are written, whatever the turn. */
const BATCH = 65_536;

/** One per stream, so a process that runs the CLI many times registers one exit hook. */
const writers = new WeakMap<NodeJS.WriteStream, LineWriter>();

function makeWriter(stream: NodeJS.WriteStream): LineWriter {
  const open = keepRunningWhenClosed(stream);
  let waiting: string[] = [];
  let size = 0;
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (waiting.length === 0) return;
    // A last empty line ends the text with a newline: one flat string (appending one would make a pair that
    // the write copies whole to flatten).
    waiting.push("");
    const text = waiting.join("\n");
    waiting = [];
    size = 0;
    if (open()) stream.write(text);
  };
  process.once("exit", flush); // writes to files, pipes and terminals are synchronous: nothing is lost on exit
  // A block as large as a batch (a piece of a plan, a --json plan) goes as it is, after what waits: joined
  // with it, it would be copied whole into one string.
  const writeLarge = (text: string) => {
    flush();
    if (!open()) return;
    stream.write(text);
    stream.write("\n");
  };
  return {
    line(text) {
      if (text.length >= BATCH) return writeLarge(text);
      waiting.push(text);
      size += text.length + 1;
      if (size >= BATCH) return flush();
      if (!scheduled) {
        scheduled = true;
        setImmediate(flush);
      }
    },
    flush,
  };
}

/**
 * Output whose reader went away (`cairn up | head`, a closed terminal) must not stop a run halfway: the
 * write error would end the process between provider calls. The run goes on silently and saves its state;
 * returns whether the stream still takes writes.
 *
 * @example const open = keepRunningWhenClosed(process.stderr); if (open()) process.stderr.write(text);
 */
export function keepRunningWhenClosed(stream: NodeJS.WriteStream): () => boolean {
  let closed = false;
  stream.on("error", (e: NodeJS.ErrnoException) => {
    if (closed) return;
    closed = true;
    if (e.code !== "EPIPE" && stream !== process.stderr) process.stderr.write(`cairn: output stopped (${e.message}); the run goes on and saves its state.\n`);
  });
  return () => !closed;
}
