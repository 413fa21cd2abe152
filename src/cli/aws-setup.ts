/**
 * What preview says when its plan will call AWS but `up` could not: no region, or no credentials the SDK
 * could find. Checked from the environment and the shared config files only — never calling AWS or the
 * instance metadata service — so preview stays offline and fast.
 *
 * @module
 */
import { existsSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { isChanging, type Plan, type PlanStep } from "../plan/plan.js";

interface Where {
  meta?: { provider?: { settings?: Readonly<Record<string, string>> } };
  prior?: { provider?: { settings?: Readonly<Record<string, string>> } };
}

/** The provider record a step runs with (absent: the default provider, configured by the environment). */
const recordOf = (s: PlanStep) => (s as Where).meta?.provider ?? (s as Where).prior?.provider;

/**
 * Warnings (one line each) for a plan whose steps will call AWS in a process that lacks a region or
 * credentials. Resources given an `aws.Provider` with a region need no `AWS_REGION`; route53 is global.
 * Credentials are checked for the default provider only (a named one may carry its own).
 *
 * @example awsSetupWarnings(plan, process.env) // ["no AWS region is set, and the plan calls AWS for 2 resources: …"]
 */
export function awsSetupWarnings(plan: Plan, env: NodeJS.ProcessEnv): string[] {
  const calling = plan.steps.filter((s) => s.type.startsWith("aws:") && isChanging(s));
  if (calling.length === 0) return [];
  const files = sharedFiles(env);
  const profile = env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE ?? "default";
  const warnings: string[] = [];
  const regionless = calling.filter((s) => !s.type.startsWith("aws:route53:") && !recordOf(s)?.settings?.region);
  if (regionless.length > 0 && !(env.AWS_REGION || env.AWS_DEFAULT_REGION || profileRegion(files.config, profile))) {
    warnings.push(
      `no AWS region is set, and the plan calls AWS for ${count(regionless.length)}: up would fail. Set AWS_REGION (or a region in profile "${profile}" of ${files.configPath}), or give the resources an aws.Provider with a region.`,
    );
  }
  if (calling.some((s) => !recordOf(s)) && !credentialsConfigured(env, files, profile)) {
    const named = env.AWS_PROFILE ?? env.AWS_DEFAULT_PROFILE;
    warnings.push(
      named
        ? `AWS_PROFILE names profile "${named}", which neither ${files.configPath} nor ${files.credentialsPath} has: up would fail. Correct the name, or set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`
        : `no AWS credentials were found in the environment or in ${files.credentialsPath} / ${files.configPath}: only an EC2 or ECS instance's metadata could still give them (not checked at preview). Set AWS_PROFILE (and run \`aws sso login\` if it uses SSO), or AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY.`,
    );
  }
  return warnings;
}

const count = (n: number) => `${n} resource${n === 1 ? "" : "s"}`;

interface SharedFiles {
  configPath: string;
  credentialsPath: string;
  config: string;
  credentials: string;
}

/** The SDK's shared config and credentials files (AWS_CONFIG_FILE, AWS_SHARED_CREDENTIALS_FILE, else ~/.aws/). */
function sharedFiles(env: NodeJS.ProcessEnv): SharedFiles {
  const home = env.HOME ?? homedir();
  const configPath = env.AWS_CONFIG_FILE ?? join(home, ".aws", "config");
  const credentialsPath = env.AWS_SHARED_CREDENTIALS_FILE ?? join(home, ".aws", "credentials");
  const read = (p: string) => (existsSync(p) ? readFileSync(p, "utf8") : "");
  return { configPath, credentialsPath, config: read(configPath), credentials: read(credentialsPath) };
}

/** The lines of an INI section: `[name]` (credentials file, and `default` in config) or `[profile name]` (config). */
function section(text: string, name: string): string[] | undefined {
  const lines = text.split(/\r?\n/);
  const start = lines.findIndex((l) => new RegExp(`^\\s*\\[\\s*(?:profile\\s+)?${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}\\s*\\]`).test(l));
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\s*\[/.test(l));
  return lines.slice(start + 1, end < 0 ? undefined : end);
}

function profileRegion(config: string, profile: string): boolean {
  return (section(config, profile) ?? []).some((l) => /^\s*region\s*=\s*\S/.test(l));
}

/** Whether the SDK's chain has something to go on besides the instance metadata service. */
function credentialsConfigured(env: NodeJS.ProcessEnv, files: SharedFiles, profile: string): boolean {
  if (env.AWS_ACCESS_KEY_ID && env.AWS_SECRET_ACCESS_KEY) return true;
  if (env.AWS_WEB_IDENTITY_TOKEN_FILE || env.AWS_CONTAINER_CREDENTIALS_RELATIVE_URI || env.AWS_CONTAINER_CREDENTIALS_FULL_URI) return true;
  return section(files.credentials, profile) !== undefined || section(files.config, profile) !== undefined;
}
