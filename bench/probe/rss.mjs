// Preloaded into every node process of a bench child (NODE_OPTIONS=--import <this file>): at exit, appends
// "<pid> <peak RSS in KB>" to the file named by BENCH_RSS_FILE. The tsx CLI runs the program in a second
// node process, so the file gets one line per process and the bench takes the largest.
import { appendFileSync } from "node:fs";

const file = process.env.BENCH_RSS_FILE;
if (file) {
  process.on("exit", () => {
    try {
      appendFileSync(file, `${process.pid} ${process.resourceUsage().maxRSS}\n`);
    } catch {
      // A probe must never change how the process it watches ends.
    }
  });
}
