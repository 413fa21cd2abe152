/**
 * The specification's property types as Cairn sees them: a runtime {@link Shape} and a TypeScript type,
 * decided together so the two can never disagree.
 */
import type { PropertyType, SpecDatabase, TypeDefinition } from "@aws-cdk/service-spec-types";
import type { Shape } from "../../src/providers/aws/cloudcontrol/type-spec.js";

/** Names the nested types one resource uses: definition entity → its name in data and in TypeScript. */
export interface DefNames {
  /** The key in the type's data (`d`). */
  dataName(def: TypeDefinition): string;
  /** The exported TypeScript interface. */
  tsName(def: TypeDefinition): string;
}

/** A property type decided: its runtime shape and its TypeScript type text. */
export interface Decided {
  shape: Shape;
  ts: string;
  /** Nested type definitions it refers to (to be generated too). */
  refs: TypeDefinition[];
}

const lit = (v: string | number) => (typeof v === "string" ? JSON.stringify(v) : String(v));

/**
 * Decides the shape and TypeScript type of a property type. String and integer types with allowed values
 * become literal unions (the runtime shape keeps the list, to warn about unknown values).
 *
 * @example decide(db, { type: "array", element: { type: "string" } }, names) // { shape: ["array", "string"], ts: "string[]", refs: [] }
 */
export function decideType(db: SpecDatabase, t: PropertyType, names: DefNames): Decided {
  switch (t.type) {
    case "string":
    case "integer":
      if (t.allowedValues?.length) return { shape: ["enum", ...t.allowedValues], ts: t.allowedValues.map(lit).join(" | "), refs: [] };
      return { shape: t.type, ts: t.type === "string" ? "string" : "number", refs: [] };
    case "number":
      return { shape: "number", ts: "number", refs: [] };
    case "boolean":
      return { shape: "boolean", ts: "boolean", refs: [] };
    case "date-time":
      return { shape: "date-time", ts: "string", refs: [] };
    case "json":
      return { shape: "json", ts: "Record<string, unknown>", refs: [] };
    case "null":
      return { shape: "any", ts: "null", refs: [] };
    case "tag":
      return { shape: ["ref", "Tag"], ts: "AwsTag", refs: [] };
    case "array":
    case "map": {
      const e = decideType(db, t.element, names);
      const inner = /[|&]/.test(e.ts) ? `(${e.ts})` : e.ts;
      return { shape: [t.type, e.shape], ts: t.type === "array" ? `${inner}[]` : `Record<string, ${e.ts}>`, refs: e.refs };
    }
    case "union": {
      const parts = t.types.map((x) => decideType(db, x, names));
      // JSON next to a structure is the specification's escape hatch for the same value (DynamoDB's
      // `KeySchema`): the structure is the type; the runtime shape keeps both.
      const structured = parts.some((p) => p.refs.length > 0);
      const typed = structured ? parts.filter((p) => p.shape !== "json") : parts;
      return { shape: ["union", ...parts.map((p) => p.shape)], ts: [...new Set(typed.map((p) => p.ts))].join(" | "), refs: parts.flatMap((p) => p.refs) };
    }
    case "ref": {
      const def = db.get("typeDefinition", t.reference.$ref);
      return { shape: ["ref", names.dataName(def)], ts: names.tsName(def), refs: [def] };
    }
    default: {
      const never: never = t;
      throw new Error(`unknown property type ${JSON.stringify(never)}`);
    }
  }
}
