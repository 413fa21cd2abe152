/**
 * The registry's `propertyTransform`: how a service normalises a value it stores (RDS lowercases an
 * identifier, a KMS key id comes back as an ARN). CloudFormation applies the transform to the declared value
 * and compares the result with what the read handler returned: equal, they are the same value and not
 * drift. The transform is a JSONata expression; alternatives are joined with `$OR`, and a result may be the
 * value itself or a regular expression the read value matches (an ARN whose account is not known here).
 * Source: the CloudFormation CLI user guide, "Preventing false drift detection results for resource types"
 * (docs.aws.amazon.com/cloudformation-cli/latest/userguide/resource-type-model-false-drift.html).
 */
import { isDeepStrictEqual } from "node:util";
import jsonata from "jsonata";

// Expressions are few (the registry has under 200) and the same on every read: each is parsed once.
const parsed = new Map<string, jsonata.Expression[] | undefined>();

/** The expression's alternatives, parsed; undefined when one does not parse (then the transform is not used). */
function alternatives(expr: string): jsonata.Expression[] | undefined {
  if (parsed.has(expr)) return parsed.get(expr);
  let out: jsonata.Expression[] | undefined;
  try {
    out = expr.split(/\s*\$OR\s*/).map((alt) => jsonata(alt));
  } catch {
    out = undefined;
  }
  parsed.set(expr, out);
  return out;
}

/** True when `text` matches `pattern` as a whole; false when `pattern` is not a regular expression. */
function matchesPattern(pattern: string, text: string): boolean {
  try {
    return new RegExp(`^(?:${pattern})$`).test(text);
  } catch {
    return false;
  }
}

/** A JSONata result as plain JSON (a sequence is an array with extra fields). */
function plain(v: unknown): unknown {
  return v === undefined ? undefined : JSON.parse(JSON.stringify(v)) as unknown;
}

/**
 * True when `observed` is what the service makes of `declared` under the transform `expr`. The expression
 * names properties of the object holding the value (`$lowercase(Engine)`) or, for nested values, sometimes
 * of the whole model (`$join([…, MasterUserSecret.KmsKeyId])`): it is evaluated on the holder first, then on
 * the model.
 *
 * @example await transformMatches("$lowercase(Engine)", { Engine: "MySQL" }, { Engine: "MySQL" }, "mysql") // true
 */
export async function transformMatches(expr: string, holder: unknown, model: unknown, observed: unknown): Promise<boolean> {
  const alts = alternatives(expr);
  if (!alts) return false;
  const contexts = holder === model ? [holder] : [holder, model];
  for (const alt of alts) {
    for (const input of contexts) {
      let result: unknown;
      try {
        result = plain(await alt.evaluate(input));
      } catch {
        continue; // an expression that fails on this input says nothing about it
      }
      if (result === undefined) continue;
      if (isDeepStrictEqual(result, observed)) return true;
      if (typeof result === "string" && typeof observed === "string" && matchesPattern(result, observed)) return true;
    }
  }
  return false;
}
