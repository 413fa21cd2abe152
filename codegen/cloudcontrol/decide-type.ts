/**
 * Decides everything generated for one CloudFormation resource type: its inputs, its outputs (attributes,
 * nested ones as nested objects), its nested types, and the runtime data the Cloud Control provider reads.
 */
import type { Attribute, Property, Resource, SpecDatabase, TypeDefinition } from "@aws-cdk/service-spec-types";
import { FLAG, type PropTuple, type Shape, type TypeSpecData } from "../../src/providers/aws/cloudcontrol/type-spec.js";
import { RESERVED_NAMES, camelName, typeToken } from "../../src/providers/aws/cloudcontrol/naming.js";
import { decideType, type Decided, type DefNames } from "./shapes.js";
import { cfnDocUrl, docText } from "./docs.js";
import type { CuratedType, Curated } from "./curated.js";
import type { FieldModel, InterfaceModel, TypeModel } from "./model.js";
import { waitData } from "./decide-wait.js";
import type { RegistrySchema } from "../registry/load.js";
import { registryData, resolve } from "../registry/facts.js";
import { boundsDoc, enumUnion, isPolicyDocument } from "../registry/typing.js";
import type { SchemaNode } from "../registry/load.js";
import type { PropertyType } from "@aws-cdk/service-spec-types";
import type { RegistryData } from "../../src/providers/aws/cloudcontrol/type-spec.js";

/** A nested type being built: its data name, TypeScript name, docs and fields. */
interface Def {
  dataName: string;
  tsName: string;
  docs: string;
  fields: { tuple: PropTuple; field: FieldModel }[];
}

/** Per-resource decision state: the nested types met so far, and names already taken in the module. */
class TypeBuilder implements DefNames {
  readonly defs = new Map<string, Def>();
  private readonly byEntity = new Map<TypeDefinition, Def>();
  /** The registry's schema node of each nested type, found through the first property that reaches it. */
  private readonly regNodes = new Map<TypeDefinition, SchemaNode>();
  /** True once a field is typed as a policy document (the module imports the type). */
  usesPolicyDocument = false;

  constructor(
    readonly db: SpecDatabase,
    readonly resource: Resource,
    readonly curated: CuratedType | undefined,
    private readonly secretName: (cfn: string) => boolean,
    private readonly claim: (name: string) => string,
    /** The registry's facts, when the registry has a schema for the type. */
    readonly reg: RegistryData | undefined,
    readonly schema: RegistrySchema | undefined,
  ) {}

  dataName(def: TypeDefinition): string {
    return this.defFor(def).dataName;
  }

  tsName(def: TypeDefinition): string {
    return this.defFor(def).tsName;
  }

  private defFor(def: TypeDefinition): Def {
    let d = this.byEntity.get(def);
    if (!d) {
      d = this.newDef(def.name, docText(def.documentation));
      this.byEntity.set(def, d);
      // Fields after registering, so recursive types refer to themselves.
      const node = this.regNodes.get(def) ?? (this.schema ? resolve(this.schema, this.schema.definitions?.[def.name]) : undefined);
      for (const [cfn, p] of Object.entries(def.properties)) d.fields.push(this.field(cfn, p, this.flags(cfn, p, false), `${def.name}.${cfn}`, undefined, node?.properties?.[cfn]));
    }
    return d;
  }

  /** A nested type with a fresh data name (`Endpoint`, or `EndpointAttribute` when taken). */
  newDef(name: string, docs: string): Def {
    let dataName = name;
    for (let n = 2; this.defs.has(dataName) || dataName === "Tag"; n++) dataName = `${name}${n}`;
    const d: Def = { dataName, tsName: this.claim(`${this.resource.name}${dataName}`), docs, fields: [] };
    this.defs.set(dataName, d);
    return d;
  }

  /**
   * A property's flags. Where the registry has the type, it alone decides replacement (a top-level property
   * replaces only when it is create-only there; nested create-only paths are `reg.co`, not flags on nested
   * types, which several paths share) and adds its top-level write-only properties.
   */
  flags(cfn: string, p: Property, top: boolean): number {
    let f = 0;
    if (p.required) f |= FLAG.required;
    const replaces = this.reg ? top && (this.reg.co ?? []).includes(cfn) && !this.curated?.updatable?.includes(cfn) : p.causesReplacement === "yes";
    if (replaces) f |= FLAG.replaces;
    else if (p.causesReplacement === "maybe") f |= FLAG.mayReplace;
    if (this.secretName(cfn) || this.curated?.secret?.includes(cfn)) f |= FLAG.secret | FLAG.writeOnly;
    if (this.curated?.writeOnly?.includes(cfn) || (top && this.reg?.wo?.includes(cfn))) f |= FLAG.writeOnly;
    return f;
  }

  /** One field: its data tuple and its TypeScript member; `path` finds curated enums (`State.Name`). */
  field(cfn: string, p: Property | Attribute, flags: number, path: string, optional = !(flags & FLAG.required), regNode?: SchemaNode): { tuple: PropTuple; field: FieldModel } {
    const node = this.schema ? resolve(this.schema, regNode) : undefined;
    if (node) this.noteNestedNodes(p.type, node);
    const decided = this.curatedEnum(path) ?? this.bothEnums(cfn, path, p.type, node) ?? decideType(this.db, p.type, this);
    const js = camelName(cfn);
    const tuple: PropTuple = [cfn, decided.shape];
    if (flags) tuple.push(flags);
    let docs = docText(p.documentation);
    const more = (line: string) => (docs += `${docs ? "\n\n" : ""}${line}`);
    if (flags & FLAG.writeOnly) more(`Write-only: Cloud Control never returns it; Cairn keeps the value last applied${flags & FLAG.secret ? ", encrypted" : ""}.`);
    const bounds = this.schema ? boundsDoc(this.schema, node) : "";
    if (bounds) more(bounds);
    return { tuple, field: { name: js, type: this.registryType(cfn, p.type, decided.ts, node), optional, docs } };
  }

  /**
   * The TypeScript type with what the registry knows: its enum as a literal union (a value outside it is
   * refused by Cloud Control, so by the compiler too), IAM policy documents typed.
   */
  private registryType(cfn: string, t: PropertyType, ts: string, node: SchemaNode | undefined): string {
    if (isPolicyDocument(cfn) && ts.includes("Record<string, unknown>")) {
      this.usesPolicyDocument = true;
      return ts.replace("Record<string, unknown>", "PolicyDocument");
    }
    if (!this.schema || !node) return ts;
    if (t.type === "string" && !t.allowedValues?.length) return enumUnion(this.schema, node) ?? ts;
    if (t.type === "array" && t.element.type === "string" && !t.element.allowedValues?.length) {
      const u = enumUnion(this.schema, node.items);
      return u ? `(${u})[]` : ts;
    }
    return ts;
  }

  /**
   * A string property both sources give values for, when they differ (each lags the service somewhere:
   * the specification lists `DELIVERY` for a log group's class, the registry does not): every value either
   * lists is allowed — in the type, in the runtime shape, and (top-level ones, through `enumExtras`) in the
   * validation schema, so preview never refuses a value AWS documents.
   */
  private bothEnums(cfn: string, path: string, t: PropertyType, node: SchemaNode | undefined): Decided | undefined {
    if (t.type !== "string" || !t.allowedValues?.length || !this.schema) return undefined;
    const reg = resolve(this.schema, node)?.enum;
    if (!reg?.every((v) => typeof v === "string")) return undefined;
    const extra = t.allowedValues.filter((v) => !(reg as string[]).includes(v));
    const all = [...new Set([...(reg as string[]), ...t.allowedValues])];
    if (all.length === t.allowedValues.length && extra.length === 0) return undefined;
    if (extra.length && !path.includes(".") && !path.startsWith("@")) this.enumExtras[cfn] = extra;
    return { shape: ["enum", ...all], ts: all.map((v) => JSON.stringify(v)).join(" | "), refs: [] };
  }

  /** Values the specification lists for a top-level property that the registry's enum lacks. */
  readonly enumExtras: Record<string, string[]> = {};

  /** Remembers the registry node of each nested type a property's type reaches, before the type is built. */
  private noteNestedNodes(t: PropertyType, node: SchemaNode): void {
    const schema = this.schema!;
    const note = (x: PropertyType, n: SchemaNode | undefined): void => {
      const r = resolve(schema, n);
      if (!r) return;
      if (x.type === "ref") {
        const def = this.db.get("typeDefinition", x.reference.$ref);
        const obj = r.properties ? r : [...(r.oneOf ?? []), ...(r.anyOf ?? [])].map((m) => resolve(schema, m)).find((m) => m?.properties);
        if (obj && !this.regNodes.has(def)) this.regNodes.set(def, obj);
      } else if (x.type === "array") {
        note(x.element, r.items ?? [...(r.oneOf ?? []), ...(r.anyOf ?? [])].map((m) => resolve(schema, m)).find((m) => m?.items)?.items);
      } else if (x.type === "map") {
        const pp = r.patternProperties ? Object.values(r.patternProperties)[0] : undefined;
        note(x.element, pp ?? (typeof r.additionalProperties === "object" ? r.additionalProperties : undefined));
      } else if (x.type === "union") {
        for (const m of x.types) note(m, r);
      }
    };
    note(t, node);
  }

  private curatedEnum(path: string): Decided | undefined {
    const rel = path.slice(path.indexOf(".") + 1);
    const key = path.startsWith("@") ? rel : path;
    const values = this.curated?.enums?.[key];
    if (!values) return undefined;
    return { shape: "string", ts: this.enumName(key), refs: [] };
  }

  /** `DBInstanceStatus` stays; `State.Name` of `Instance` becomes `InstanceStateName`. */
  enumName(key: string): string {
    const joined = key.split(".").join("");
    return joined.startsWith(this.resource.name) ? joined : `${this.resource.name}${joined}`;
  }
}

/** What {@link decideResource} needs besides the resource. */
export interface DecideEnv {
  db: SpecDatabase;
  module: string;
  curated: Curated;
  /** Takes a name in the module's export namespace (class names are taken already), returning it or a free variant. */
  claim: (name: string) => string;
  /** The registry schemas, by type name. */
  registry: ReadonlyMap<string, RegistrySchema>;
}

/**
 * Decides the generated model of one resource type.
 *
 * @example decideResource(bucketResource, { db, module: "s3", curated, claim }).token // "aws:s3:Bucket"
 */
export function decideResource(r: Resource, env: DecideEnv): TypeModel {
  const curated = env.curated.types[r.cloudFormationType];
  // The class name was taken for the module before any type was decided.
  const name = r.name;
  const schema = env.registry.get(r.cloudFormationType);
  const reg = registryData(schema);
  if (curated?.updatable) reg.co = (reg.co ?? []).filter((p) => !curated.updatable!.includes(p));
  if (curated?.naming && reg.nm) reg.nm = { ...reg.nm, ...curated.naming };
  if (reg.h === "") reg.nc = curated?.unprovisionable ?? (schema ? "its CloudFormation registry schema has no create handler" : "the CloudFormation registry has no schema for it, so Cloud Control cannot provision it");
  const b = new TypeBuilder(env.db, r, curated, env.curated.isSecretName, env.claim, schema ? reg : undefined, schema);
  const identifier = r.primaryIdentifier ?? [];
  const props: { tuple: PropTuple; field: FieldModel }[] = [];
  for (const [cfn, p] of Object.entries(r.properties)) {
    let flags = b.flags(cfn, p, true);
    if (identifier.includes(cfn) || flags & FLAG.replaces) flags |= FLAG.stable;
    props.push(b.field(cfn, p, flags, cfn, undefined, schema?.properties[cfn]));
  }
  const inputDefs = new Set(b.defs.keys());
  const attrs = attributeFields(r, b, identifier);
  if (schema) presentNested(b, attrs, inputDefs, new Set(reg.ro ?? []));
  for (const path of reg.dep ?? []) markDeprecated(b, props, path, r.cloudFormationType);
  const data: TypeSpecData = { p: [...props, ...attrs].map((x) => x.tuple) };
  if (identifier.length) data.id = identifier;
  if (b.defs.size) data.d = Object.fromEntries([...b.defs.values()].map((d) => [d.dataName, d.fields.map((f) => f.tuple)]));
  if (r.tagInformation) data.tags = [r.tagInformation.tagPropertyName, r.tagInformation.variant === "map" ? "map" : "standard"];
  // Nested create-only paths: the registry's where it has the type (those without `*`, which `rp` cannot say;
  // reg.co has them all), else the specification's.
  const rp = schema ? (reg.co ?? []).filter((p) => p.includes("/") && !p.includes("*")).map((p) => p.split("/")) : (r.additionalReplacementProperties ?? []);
  if (rp.length) data.rp = rp;
  data.reg = reg;
  const wait = waitData(r, curated);
  if (wait) data.wait = wait;
  if (r.arnTemplate) data.arn = r.arnTemplate;
  if (r.isStateful || curated?.stateful) data.stateful = true;
  renameReserved([...props, ...attrs]);
  const args: InterfaceModel = { name: env.claim(`${name}Args`), docs: `Inputs of {@link ${name}}.`, fields: props.map((p) => p.field) };
  // The identifier is always there once the object exists, even when the program leaves it to the cloud, and
  // so is every property the registry lists as read-only (the cloud sets it).
  const present = (cfn: string) => identifier.includes(cfn) || (schema !== undefined && (reg.ro ?? []).includes(cfn));
  const identified = props.filter((p) => present(p.tuple[0]) && p.field.optional).map((p) => ({ ...p.field, optional: false }));
  const outputs: InterfaceModel = { name: env.claim(`${name}Outputs`), docs: `Outputs of {@link ${name}}: its inputs as the cloud reports them, and its attributes.`, fields: [...identified, ...attrs.map((a) => a.field)], extends: args.name };
  return {
    cfnType: r.cloudFormationType,
    name,
    token: env.curated.tokens[r.cloudFormationType] ?? typeToken(r.cloudFormationType, env.module),
    docs: reg.nc ? `${docText(r.documentation)}\n\n@deprecated Cloud Control cannot create ${r.cloudFormationType}: ${reg.nc}. Preview refuses it.` : docText(r.documentation),
    docUrl: cfnDocUrl(r.cloudFormationType),
    args,
    outputs,
    nested: [...b.defs.values()].map((d) => ({ name: d.tsName, docs: `${d.docs}${d.docs ? "\n\n" : ""}@see {@link ${cfnDocUrl(r.cloudFormationType, d.dataName)} | CloudFormation: ${d.dataName}}`, fields: d.fields.map((f) => f.field) })),
    enums: Object.entries(curated?.enums ?? {}).map(([key, values]) => ({ name: b.enumName(key), docs: `Every value of \`${key}\` (curated: the specification does not list them).`, values })),
    data,
    usesPolicyDocument: b.usesPolicyDocument,
    ...(Object.keys(b.enumExtras).length ? { enumExtras: b.enumExtras } : {}),
  };
}

/**
 * The attributes that are not also properties: top-level ones as they are, dotted ones (`Endpoint.Address`)
 * inside the object they belong to — a property's nested type, or an object made for the attribute.
 */
function attributeFields(r: Resource, b: TypeBuilder, identifier: readonly string[]): { tuple: PropTuple; field: FieldModel }[] {
  const out: { tuple: PropTuple; field: FieldModel }[] = [];
  const entries = Object.entries(r.attributes);
  for (const [cfn, a] of entries) {
    if (cfn.includes(".") || cfn in r.properties) continue;
    out.push(b.field(cfn, a, attributeFlags(r, cfn, identifier), `@.${cfn}`, false));
  }
  for (const [path, a] of entries) if (path.includes(".")) placeNested(r, b, out, path.split("."), a);
  return out;
}

/** Attributes that an update never changes: identifiers and ARNs of the object itself. */
function attributeFlags(r: Resource, cfn: string, identifier: readonly string[]): number {
  const own = cfn === "Arn" || ((cfn.endsWith("Arn") || cfn.endsWith("Id")) && cfn.startsWith(r.name));
  return FLAG.readOnly | (identifier.includes(cfn) || own ? FLAG.stable : 0);
}

/** Puts a dotted attribute where it belongs, making the objects on its path that do not exist yet. */
function placeNested(r: Resource, b: TypeBuilder, top: { tuple: PropTuple; field: FieldModel }[], path: string[], a: Attribute): void {
  const [root, ...rest] = path as [string, ...string[]];
  const prop = r.properties[root];
  let fields: { tuple: PropTuple; field: FieldModel }[];
  let shape: Shape;
  const existing = top.find((f) => f.tuple[0] === root);
  if (prop) {
    shape = decideType(b.db, prop.type, b).shape;
  } else if (existing) {
    shape = existing.tuple[1];
  } else {
    const def = b.newDef(root, `The \`${root}\` attribute of ${r.cloudFormationType}.`);
    const made = { tuple: [root, ["ref", def.dataName], FLAG.readOnly] as PropTuple, field: { name: camelName(root), type: def.tsName, optional: false, docs: def.docs } };
    top.push(made);
    shape = made.tuple[1];
  }
  for (let i = 0; i < rest.length; i++) {
    const seg = rest[i]!;
    if (!Array.isArray(shape) || shape[0] !== "ref") return; // a list or scalar on the way: not an object path
    const def = b.defs.get(shape[1]);
    if (!def) return;
    fields = def.fields;
    const found = fields.find((f) => f.tuple[0] === seg);
    if (i === rest.length - 1) {
      if (!found) fields.push(b.field(seg, a, FLAG.readOnly, `@.${path.join(".")}`, true));
      return;
    }
    if (found) {
      shape = found.tuple[1];
      continue;
    }
    const made = b.newDef(path.slice(0, i + 2).join(""), `The \`${path.slice(0, i + 2).join(".")}\` attribute of ${r.cloudFormationType}.`);
    fields.push({ tuple: [seg, ["ref", made.dataName], FLAG.readOnly], field: { name: camelName(seg), type: made.tsName, optional: true, docs: made.docs } });
    shape = ["ref", made.dataName];
  }
}

/** Marks the field at a registry path (`Checks/*\/Result`, shown as `Checks[*]/Result`) `@deprecated`, following the generated shapes. */
function markDeprecated(b: TypeBuilder, top: readonly { tuple: PropTuple; field: FieldModel }[], path: string, cfnType: string): void {
  const [first, ...rest] = path.split("/");
  let found = top.find((f) => f.tuple[0] === first);
  for (const seg of rest) {
    if (!found) return;
    let shape = found.tuple[1];
    if (seg === "*") {
      if (!Array.isArray(shape) || shape[0] !== "array") return;
      shape = shape[1];
      found = { tuple: [seg, shape], field: found.field };
      continue;
    }
    found = Array.isArray(shape) && shape[0] === "ref" ? b.defs.get(shape[1])?.fields.find((f) => f.tuple[0] === seg) : undefined;
  }
  if (!found || found.tuple[0] === "*" || found.field.docs.includes("@deprecated")) return;
  found.field.docs += `${found.field.docs ? "\n\n" : ""}@deprecated The CloudFormation registry marks \`${path.replaceAll("/*", "[*]")}\` of ${cfnType} deprecated.`;
}

/**
 * Fields of an attribute's object that the registry lists as read-only (`Endpoint/Address`) are always
 * returned: present, not optional. Only in objects no input uses (an input's object keeps its optional fields).
 */
function presentNested(b: TypeBuilder, attrs: readonly { tuple: PropTuple }[], inputDefs: ReadonlySet<string>, readOnly: ReadonlySet<string>): void {
  for (const { tuple } of attrs) {
    const shape = tuple[1];
    if (!Array.isArray(shape) || shape[0] !== "ref" || inputDefs.has(shape[1])) continue;
    for (const f of b.defs.get(shape[1])?.fields ?? []) if (readOnly.has(`${tuple[0]}/${f.tuple[0]}`)) f.field.optional = false;
  }
}

/**
 * A property or attribute named like a member every resource has (`Id`) gets an `aws` prefix (`awsId`), in
 * the data and the TypeScript alike. (When it is the identifier, `.id` holds the same value.)
 */
function renameReserved(fields: readonly { tuple: PropTuple; field: FieldModel }[]): void {
  for (const { tuple, field } of fields) {
    if (!RESERVED_NAMES.has(field.name)) continue;
    const aws = `aws${field.name[0]!.toUpperCase()}${field.name.slice(1)}`;
    tuple[2] ??= 0;
    tuple[3] = aws;
    field.name = aws;
  }
}
