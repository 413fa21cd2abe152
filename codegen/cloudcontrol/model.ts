/**
 * What the deciders hand the writer: plain data naming every module, type, field and doc comment of the
 * generated Cloud Control modules. Nothing here knows how to print TypeScript.
 */
import type { TypeSpecData } from "../../src/providers/aws/cloudcontrol/type-spec.js";

/** One field of a generated interface. */
export interface FieldModel {
  /** The Cairn (camelCase) name. */
  name: string;
  /** The TypeScript type, as text. */
  type: string;
  optional: boolean;
  docs: string;
}

/** A generated interface. */
export interface InterfaceModel {
  name: string;
  docs: string;
  fields: FieldModel[];
  /** An interface it extends (the outputs extend the inputs). */
  extends?: string;
}

/** One CloudFormation resource type. */
export interface TypeModel {
  cfnType: string;
  /** The class name, e.g. `Bucket`. */
  name: string;
  token: string;
  docs: string;
  docUrl: string;
  args: InterfaceModel;
  outputs: InterfaceModel;
  /** Nested types, named with the resource's prefix (`BucketVersioningConfiguration`). */
  nested: InterfaceModel[];
  /** Curated string-literal types (`DBInstanceStatus`), name → values. */
  enums: { name: string; docs: string; values: string[] }[];
  data: TypeSpecData;
  /** Some field is typed as an IAM `PolicyDocument` (the module imports it). */
  usesPolicyDocument?: boolean;
  /** Top-level property → values the specification allows that the registry's enum lacks (the validation schema takes them too). */
  enumExtras?: Record<string, string[]>;
}

/** One generated module: one AWS service. */
export interface ServiceModel {
  /** The module name, e.g. `s3` (`cairn-iac/aws/s3`). */
  module: string;
  /** The CloudFormation namespace, e.g. `AWS::S3`. */
  namespace: string;
  types: TypeModel[];
}
