// An HTTP service that embeds a stack: it previews, applies and reports on it through Cairn's library API.
//   GET  /preview        the plan as JSON: what `up` would change now
//   PUT  /config/<key>   sets a config value (the request body), like `config set`
//   POST /up             applies, streaming the engine's events as NDJSON; closing the request cancels the run
//   GET  /outputs        the stack outputs
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { countSteps, hasChanges, type Plan, type Program, type StackOptions } from "cairn-iac";

/** What /preview answers: the steps that change something, as `<op> <name>`, and the counts by kind. */
function planSummary(plan: Plan) {
  const changes = plan.steps.filter((s) => s.kind !== "same").map((s) => `${s.kind} ${s.urn.slice(s.urn.lastIndexOf("::") + 2)}`);
  return { hasChanges: hasChanges(plan), changes, counts: countSteps(plan.steps) };
}

async function body(req: IncomingMessage): Promise<string> {
  let text = "";
  for await (const chunk of req) text += chunk;
  return text;
}

function json(res: ServerResponse, status: number, value: unknown): void {
  res.writeHead(status, { "content-type": "application/json" }).end(`${JSON.stringify(value)}\n`);
}

/** POST /up: one stack per request, so the request's AbortSignal cancels exactly this run (as Ctrl-C would). */
async function up(prog: Program, opts: StackOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const cancel = new AbortController();
  res.on("close", () => cancel.abort(new Error("the client went away")));
  const stack = prog.stack({ ...opts, signal: cancel.signal });
  res.writeHead(200, { "content-type": "application/x-ndjson" });
  const sub = stack.events.subscribe((e) => res.write(`${JSON.stringify(e)}\n`));
  try {
    const result = await stack.up();
    res.end(`${JSON.stringify({ type: "outputs", outputs: result.outputs ?? {} })}\n`);
  } finally {
    sub.unsubscribe();
  }
}

/**
 * The service: every request works on the stack `opts` names (its state shared through the backend).
 *
 * @example createService(site, { stack: "dev", backend: "memory://site" }).listen(8080, "127.0.0.1");
 */
export function createService(prog: Program, opts: StackOptions): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? "/", "http://localhost");
    const route = `${req.method} ${url.pathname}`;
    const handle = async () => {
      if (route === "GET /preview") return json(res, 200, planSummary(await prog.stack(opts).preview()));
      if (route === "GET /outputs") return json(res, 200, (await prog.stack(opts).outputs()).values);
      if (route === "POST /up") return up(prog, opts, req, res);
      const key = /^PUT \/config\/([\w.-]+)$/.exec(route)?.[1];
      if (key) return json(res, 200, await prog.stack(opts).setConfig(key, await body(req)).then(() => ({ [key]: "set" })));
      json(res, 404, { error: `no route ${route}` });
    };
    handle().catch((e: unknown) => {
      if (res.headersSent) res.end(`${JSON.stringify({ type: "error", message: (e as Error).message })}\n`);
      else json(res, 500, { error: (e as Error).message });
    });
  });
}
