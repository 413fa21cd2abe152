// A wait, offline: a user-defined "job" resource that runs for a few seconds, a wait until it has
// succeeded, and a file that is written only from the job's gated result.
// Run it: npx tsx examples/wait/infra.ts up --yes   (config: `config set runFor 5`)
import { defineResource, minutes, program, seconds, wait } from "cairn-iac";
import { local } from "cairn-iac/local";

type JobStatus = "RUNNING" | "SUCCEEDED" | "FAILED";
interface JobInputs {
  name: string;
  /** How long the job runs, in seconds. */
  runFor: number;
}
interface JobOutputs extends JobInputs {
  startedAt: number;
  status: JobStatus;
  result?: string;
}

/** A job that "runs" for `runFor` seconds after it is created: its status flips when a read sees that time has passed. */
export const Job = defineResource<JobInputs, JobOutputs>("demo:Job", {
  provider: {
    async create({ inputs, ctx }) {
      return { id: `job-${inputs.name}`, outputs: { ...inputs, startedAt: ctx.clock.now(), status: "RUNNING" } };
    },
    async read({ outputs, ctx }) {
      const done = ctx.clock.now() - outputs.startedAt >= outputs.runFor * 1000;
      return done ? { ...outputs, status: "SUCCEEDED", result: `${outputs.name}: 42 widgets` } : { ...outputs, status: "RUNNING" };
    },
    async delete() {},
  },
  schema: {
    inputs: { name: { type: "string", forceNew: true }, runFor: { type: "number", forceNew: true } },
    outputs: { name: {}, runFor: {}, startedAt: { stable: true }, status: {}, result: {} },
    // Every wait on a job gives up after 2 minutes, and stops at once if the job failed.
    wait: { timeout: minutes(2), failWhen: { op: "eq", path: ["status"], value: "FAILED" } },
  },
});

export default program("jobs", ({ config }) => {
  const job = new Job("build", { name: "build", runFor: config.getNumber("runFor") ?? 3 });
  const built = wait(job, { until: (j) => j.status.eq("SUCCEEDED"), name: "built", interval: seconds(2) });
  // Reads `built.result`, so it is written after the wait, from the read that saw SUCCEEDED.
  const report = new local.File("report", { path: "out/report.txt", content: built.result.apply((r) => `${r}\n`) });
  return { result: built.result, report: report.path };
});
