/**
 * One configuration value as stored for a stack (its own file: the evaluation context and node types need it,
 * and `config.ts` needs them).
 *
 * @example const v: ConfigValue = { value: "web", secret: false };
 */
export interface ConfigValue {
  value: string;
  secret: boolean;
}
