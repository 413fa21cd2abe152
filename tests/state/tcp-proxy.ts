import { connect, createServer, type Socket } from "node:net";

/**
 * A TCP proxy on 127.0.0.1 in front of a test server, to play the network between Cairn and it: `drop()`
 * cuts every open connection, `down(ms)` also refuses new ones for a while.
 *
 * @example const proxy = await startProxy(pgPort); const url = `postgres://cairn@127.0.0.1:${proxy.port}/db`; …; await proxy.stop();
 */
export async function startProxy(targetPort: number) {
  const open = new Set<Socket>();
  let downUntil = 0;
  const server = createServer((client) => {
    if (Date.now() < downUntil) return void client.destroy();
    const upstream = connect(targetPort, "127.0.0.1");
    for (const s of [client, upstream]) {
      open.add(s);
      s.on("close", () => open.delete(s));
      s.on("error", () => {});
    }
    client.pipe(upstream);
    upstream.pipe(client);
    client.on("close", () => upstream.destroy());
    upstream.on("close", () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  const drop = () => {
    for (const s of open) s.destroy();
  };
  return {
    port: (server.address() as { port: number }).port,
    drop,
    down(ms: number) {
      downUntil = Date.now() + ms;
      drop();
    },
    async stop() {
      drop();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
