/**
 * A small JSON Schema (draft 2020-12 subset) validator for checking real API answers
 * against `/api/openapi.json`: `$ref` into `components.schemas`, type (also arrays of
 * types), properties / required / additionalProperties, items, enum, const, anyOf,
 * oneOf, allOf, string and number bounds, pattern. Unknown keywords are ignored.
 */

type Json = Record<string, unknown>;

function typeOf(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  return typeof value;
}

function matchesType(type: string, value: unknown): boolean {
  switch (type) {
    case "integer":
      return typeof value === "number" && Number.isInteger(value);
    case "number":
      return typeof value === "number" && Number.isFinite(value);
    default:
      return typeOf(value) === type;
  }
}

/**
 * Problems of `value` against `schema` (empty when it conforms). `root` resolves `$ref`s
 * of the form `#/components/schemas/<Name>`.
 *
 * @example
 * ```ts
 * const problems = validateSchema(doc.components.schemas.Message, body, doc);
 * assert.deepEqual(problems, []);
 * ```
 */
export function validateSchema(schema: unknown, value: unknown, root: Json, at = "$"): string[] {
  if (schema === true || schema === undefined) return [];
  if (schema === false) return [`${at}: no value allowed`];
  const s = schema as Json;
  const out: string[] = [];
  if (typeof s.$ref === "string") {
    const name = s.$ref.replace("#/components/schemas/", "");
    const target = ((root.components as Json)?.schemas as Json)?.[name];
    if (target === undefined) return [`${at}: unresolvable $ref ${s.$ref}`];
    out.push(...validateSchema(target, value, root, at));
  }
  if (s.type !== undefined) {
    const types = Array.isArray(s.type) ? s.type as string[] : [s.type as string];
    if (!types.some((t) => matchesType(t, value))) {
      return [...out, `${at}: expected ${types.join("|")}, got ${typeOf(value)}`];
    }
  }
  if (s.const !== undefined && JSON.stringify(s.const) !== JSON.stringify(value)) {
    out.push(`${at}: expected ${JSON.stringify(s.const)}`);
  }
  if (Array.isArray(s.enum) && !s.enum.some((e) => JSON.stringify(e) === JSON.stringify(value))) {
    out.push(`${at}: ${JSON.stringify(value)} not in ${JSON.stringify(s.enum)}`);
  }
  if (Array.isArray(s.allOf)) {
    for (const sub of s.allOf) out.push(...validateSchema(sub, value, root, at));
  }
  if (Array.isArray(s.anyOf) && !s.anyOf.some((sub) => !validateSchema(sub, value, root).length)) {
    out.push(`${at}: matches none of anyOf`);
  }
  if (Array.isArray(s.oneOf)) {
    const n = s.oneOf.filter((sub) => !validateSchema(sub, value, root).length).length;
    if (n !== 1) out.push(`${at}: matches ${n} of oneOf (expected exactly 1)`);
  }
  if (typeof value === "string") {
    if (typeof s.minLength === "number" && value.length < s.minLength) {
      out.push(`${at}: shorter than ${s.minLength}`);
    }
    if (typeof s.maxLength === "number" && value.length > s.maxLength) {
      out.push(`${at}: longer than ${s.maxLength}`);
    }
    if (typeof s.pattern === "string" && !new RegExp(s.pattern, "u").test(value)) {
      out.push(`${at}: does not match ${s.pattern}`);
    }
  }
  if (typeof value === "number") {
    if (typeof s.minimum === "number" && value < s.minimum) out.push(`${at}: < ${s.minimum}`);
    if (typeof s.maximum === "number" && value > s.maximum) out.push(`${at}: > ${s.maximum}`);
  }
  if (Array.isArray(value)) {
    if (typeof s.minItems === "number" && value.length < s.minItems) {
      out.push(`${at}: fewer than ${s.minItems} items`);
    }
    if (typeof s.maxItems === "number" && value.length > s.maxItems) {
      out.push(`${at}: more than ${s.maxItems} items`);
    }
    if (s.items !== undefined) {
      value.forEach((v, i) => out.push(...validateSchema(s.items, v, root, `${at}[${i}]`)));
    }
  }
  if (typeOf(value) === "object") {
    const obj = value as Json;
    const props = (s.properties ?? {}) as Json;
    for (const name of (s.required ?? []) as string[]) {
      if (!(name in obj)) out.push(`${at}: missing required ${name}`);
    }
    for (const [name, v] of Object.entries(obj)) {
      if (name in props) out.push(...validateSchema(props[name], v, root, `${at}.${name}`));
      else if (s.additionalProperties === false) out.push(`${at}: undocumented field ${name}`);
      else if (typeof s.additionalProperties === "object") {
        out.push(...validateSchema(s.additionalProperties, v, root, `${at}.${name}`));
      }
    }
  }
  return out;
}
