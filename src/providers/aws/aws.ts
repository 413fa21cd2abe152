/**
 * Configuration of the AWS package: provider instances and the error type of failed AWS calls.
 *
 * @example
 * import { aws } from "cairn-iac/aws";
 * const use1 = new aws.Provider("use1", { region: "us-east-1" });
 */
export { Provider, type ProviderArgs } from "./provider.js";
export { AwsError } from "./call.js";
