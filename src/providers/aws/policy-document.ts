/**
 * The IAM policy document, typed: what every generated property that holds one (`policyDocument`,
 * `assumeRolePolicyDocument`, `keyPolicy`, a bucket's or queue's `policyDocument`, …) accepts. The grammar
 * is IAM's: https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_policies_grammar.html
 */

/**
 * One value or a list of them, as IAM accepts for actions, resources and principals.
 *
 * @example const actions: OneOrMany<string> = ["s3:GetObject", "s3:PutObject"];
 */
export type OneOrMany<T> = T | T[];

/**
 * Who a statement is about: `"*"` (anyone), or principals by kind.
 *
 * @example const p: PolicyPrincipal = { Service: "lambda.amazonaws.com" };
 */
export type PolicyPrincipal = "*" | { AWS?: OneOrMany<string>; Service?: OneOrMany<string>; Federated?: OneOrMany<string>; CanonicalUser?: OneOrMany<string> };

/**
 * Conditions: operator → condition key → value(s), e.g. `{ StringEquals: { "aws:SourceAccount": "123456789012" } }`.
 *
 * @example const c: PolicyCondition = { Bool: { "aws:SecureTransport": "false" } };
 */
export type PolicyCondition = Record<string, Record<string, OneOrMany<string | number | boolean>>>;

/**
 * One statement of a policy.
 *
 * @example const s: PolicyStatement = { Effect: "Allow", Action: "s3:GetObject", Resource: "arn:aws:s3:::uploads/*" };
 */
export interface PolicyStatement {
  Sid?: string;
  Effect: "Allow" | "Deny";
  Action?: OneOrMany<string>;
  NotAction?: OneOrMany<string>;
  Resource?: OneOrMany<string>;
  NotResource?: OneOrMany<string>;
  Principal?: PolicyPrincipal;
  NotPrincipal?: PolicyPrincipal;
  Condition?: PolicyCondition;
}

/**
 * An IAM policy document (identity, resource or trust policy).
 *
 * @example
 * const trust: PolicyDocument = {
 *   Version: "2012-10-17",
 *   Statement: [{ Effect: "Allow", Principal: { Service: "lambda.amazonaws.com" }, Action: "sts:AssumeRole" }],
 * };
 */
export interface PolicyDocument {
  Version?: "2012-10-17" | "2008-10-17";
  Id?: string;
  Statement: OneOrMany<PolicyStatement>;
}
