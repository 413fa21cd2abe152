import prog from "./programs/infra.js";
const t0 = performance.now();
for (let i = 0; i < 5; i++) {
  const t = performance.now();
  const ev = await prog.evaluate({ stack: "dev", config: {} } as never);
  console.log("evaluate", (performance.now() - t).toFixed(0), "ms", ev.nodes.length);
}
