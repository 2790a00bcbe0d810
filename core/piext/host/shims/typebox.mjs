// The part of TypeBox (https://github.com/sinclairzx81/typebox, MIT) that
// pi extensions use to describe tool parameters. A TypeBox schema is a
// plain JSON Schema object; these builders return exactly the objects
// TypeBox returns for the same calls, minus its symbol-keyed metadata, so
// JSON.stringify gives the schema cairn offers the model. Optional members
// are marked with a non-enumerable flag that Object reads to leave them out
// of "required", as TypeBox's Optional modifier does.

const OPTIONAL = Symbol.for("TypeBox.Optional");
const KIND = Symbol.for("TypeBox.Kind");

function schema(kind, base, options) {
  const s = { ...(options || {}), ...base };
  Object.defineProperty(s, KIND, { value: kind, enumerable: false });
  return s;
}

function optional(s) {
  const copy = { ...s };
  Object.defineProperty(copy, KIND, { value: s[KIND], enumerable: false });
  Object.defineProperty(copy, OPTIONAL, { value: "Optional", enumerable: false });
  return copy;
}

function object(properties, options) {
  const required = Object.keys(properties).filter((k) => properties[k][OPTIONAL] === undefined);
  const base = { type: "object", properties };
  if (required.length) base.required = required;
  return schema("Object", base, options);
}

function literal(value, options) {
  return schema("Literal", { const: value, type: typeof value }, options);
}

/** Type builds JSON Schemas the way TypeBox's Type does. */
export const Type = {
  String: (o) => schema("String", { type: "string" }, o),
  Number: (o) => schema("Number", { type: "number" }, o),
  Integer: (o) => schema("Integer", { type: "integer" }, o),
  Boolean: (o) => schema("Boolean", { type: "boolean" }, o),
  Null: (o) => schema("Null", { type: "null" }, o),
  Any: (o) => schema("Any", {}, o),
  Unknown: (o) => schema("Unknown", {}, o),
  Array: (items, o) => schema("Array", { type: "array", items }, o),
  Object: object,
  Optional: optional,
  Readonly: (s) => s,
  Literal: literal,
  Union: (anyOf, o) => schema("Union", { anyOf }, o),
  // A TypeScript enum maps numbers back to names too; only names count.
  Enum: (e, o) => schema("Enum", { anyOf: Object.entries(e).filter(([k]) => Number.isNaN(Number(k))).map(([, v]) => literal(v)) }, o),
  Record: (key, value, o) => schema("Record", { type: "object", patternProperties: { "^.*$": value } }, o),
  Tuple: (items, o) => schema("Tuple", { type: "array", prefixItems: items, items: false, minItems: items.length, maxItems: items.length }, o),
  Unsafe: (o) => schema("Unsafe", {}, o),
  Partial: (s) => object(Object.fromEntries(Object.entries(s.properties || {}).map(([k, v]) => [k, optional(v)]))),
};

export const Kind = KIND;
export const OptionalKind = OPTIONAL;

/** Compile returns a checker with TypeBox's Check; cairn checks arguments against the schema itself. */
export function Compile(s) {
  return { Check: () => true, Errors: () => [], schema: s };
}

export const Value = {
  Check: () => true,
  Clone: (v) => structuredClone(v),
  Default: (_s, v) => v,
  Convert: (_s, v) => v,
  Clean: (_s, v) => v,
  Errors: () => [],
};

export default Type;
