// Helpers shared by our custom Spectral functions.
//
// Every custom rule runs on the *unresolved* document (`resolved: false` in
// .spectral.yaml) so that it can see `$ref` values (the error rule must know a
// response points at `#/components/schemas/Error`, not merely at something of
// the same shape) and so that findings point at the line a person edits.
// Local references are followed here by hand; the generated documents only
// ever use local (`#/...`) references.

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/** Follows local `$ref`s until a non-reference value is reached. */
export function deref(root, value) {
  const seen = new Set();
  while (value && typeof value === "object" && typeof value.$ref === "string") {
    const ref = value.$ref;
    if (!ref.startsWith("#/") || seen.has(ref)) return undefined;
    seen.add(ref);
    value = ref
      .slice(2)
      .split("/")
      .map((part) => part.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((node, key) => (node && typeof node === "object" ? node[key] : undefined), root);
  }
  return value;
}

/** Yields every operation with its path in the document. */
export function* operations(root) {
  const paths = root && typeof root === "object" ? root.paths : undefined;
  if (!paths || typeof paths !== "object") return;
  for (const [route, pathItem] of Object.entries(paths)) {
    if (!pathItem || typeof pathItem !== "object") continue;
    for (const method of HTTP_METHODS) {
      const operation = pathItem[method];
      if (operation && typeof operation === "object") {
        yield { route, method, pathItem, operation, path: ["paths", route, method] };
      }
    }
  }
}

/** The operation's parameters merged with its path item's (operation wins). */
export function parameters(root, pathItem, operation) {
  const byKey = new Map();
  for (const list of [pathItem.parameters, operation.parameters]) {
    if (!Array.isArray(list)) continue;
    for (const raw of list) {
      const parameter = deref(root, raw);
      if (parameter && typeof parameter === "object") byKey.set(`${parameter.in}:${parameter.name}`, parameter);
    }
  }
  return [...byKey.values()];
}

/** Whether a response status key (e.g. "201", "2XX") matches a pattern such as "2XX" or "429". */
export function statusMatches(status, pattern) {
  const s = String(status).toUpperCase();
  const p = String(pattern).toUpperCase();
  if (s.length !== 3 || p.length !== 3) return false;
  return [...p].every((char, i) => char === "X" || char === s[i]);
}

/** Whether a schema admits null, in OpenAPI 3.0 (`nullable`) or 3.1 (`type: [..., "null"]`, `anyOf`/`oneOf` with a null type). */
export function isNullable(root, schema) {
  schema = deref(root, schema);
  if (!schema || typeof schema !== "object") return false;
  if (schema.nullable === true) return true;
  if (schema.type === "null" || (Array.isArray(schema.type) && schema.type.includes("null"))) return true;
  for (const key of ["anyOf", "oneOf"]) {
    if (Array.isArray(schema[key]) && schema[key].some((branch) => isNullable(root, branch))) return true;
  }
  return false;
}

/** Whether a schema's type is (or, with null, includes) the given type, looking through allOf/anyOf/oneOf. */
export function hasType(root, schema, type) {
  schema = deref(root, schema);
  if (!schema || typeof schema !== "object") return false;
  if (schema.type === type || (Array.isArray(schema.type) && schema.type.includes(type))) return true;
  for (const key of ["allOf", "anyOf", "oneOf"]) {
    if (Array.isArray(schema[key]) && schema[key].some((branch) => hasType(root, branch, type))) return true;
  }
  return false;
}

/**
 * Properties and required names of an object schema, merging `allOf` branches
 * (TypeSpec emits `allOf` for `extends` and for spreads with a base model).
 */
export function objectShape(root, schema, seen = new Set()) {
  const shape = { properties: {}, required: new Set() };
  schema = deref(root, schema);
  if (!schema || typeof schema !== "object" || seen.has(schema)) return shape;
  seen.add(schema);
  for (const branch of Array.isArray(schema.allOf) ? schema.allOf : []) {
    const inner = objectShape(root, branch, seen);
    Object.assign(shape.properties, inner.properties);
    for (const name of inner.required) shape.required.add(name);
  }
  if (schema.properties && typeof schema.properties === "object") Object.assign(shape.properties, schema.properties);
  if (Array.isArray(schema.required)) for (const name of schema.required) shape.required.add(name);
  return shape;
}
