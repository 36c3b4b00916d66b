// Property names of every schema are snake_case (options.pattern), as the
// description's fields are (`created_at`, `next_cursor`, `request_id`).
// Schemas are walked structurally (components, parameters, bodies, responses,
// headers, and nested properties/items/compositions), so only real property
// names are checked, never example values or keywords.

import { HTTP_METHODS } from "./openapi-walk.js";

const NESTED_SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const NESTED_SCHEMAS = [
  "items",
  "not",
  "additionalProperties",
  "unevaluatedProperties",
  "contains",
  "if",
  "then",
  "else",
];

export default function snakeCaseProperties(root, options) {
  const pattern = new RegExp((options && options.pattern) || "^[a-z][a-z0-9]*(_[a-z0-9]+)*$");
  const results = [];
  const visited = new Set();

  function walkSchema(schema, path) {
    if (!schema || typeof schema !== "object" || Array.isArray(schema) || visited.has(schema)) return;
    visited.add(schema);
    if (schema.properties && typeof schema.properties === "object") {
      for (const [name, inner] of Object.entries(schema.properties)) {
        if (!pattern.test(name)) {
          results.push({ message: `Property "${name}" is not snake_case.`, path: [...path, "properties", name] });
        }
        walkSchema(inner, [...path, "properties", name]);
      }
    }
    for (const key of NESTED_SCHEMAS) walkSchema(schema[key], [...path, key]);
    for (const key of NESTED_SCHEMA_LISTS) {
      if (Array.isArray(schema[key])) schema[key].forEach((inner, i) => walkSchema(inner, [...path, key, i]));
    }
    for (const key of ["$defs", "definitions", "patternProperties", "dependentSchemas"]) {
      if (schema[key] && typeof schema[key] === "object") {
        for (const [name, inner] of Object.entries(schema[key])) walkSchema(inner, [...path, key, name]);
      }
    }
  }

  // Parameters, headers, media types, request bodies and responses hold their schemas alike: in
  // `schema`, in the media types of `content`, or in the headers of `headers`.
  function walkHolder(holder, path) {
    if (!holder || typeof holder !== "object") return;
    walkSchema(holder.schema, [...path, "schema"]);
    walkHolders(holder.content, [...path, "content"]);
    walkHolders(holder.headers, [...path, "headers"]);
  }

  function walkHolders(holders, path) {
    for (const [key, holder] of entries(holders)) walkHolder(holder, [...path, key]);
  }

  function walkPathItems(pathItems, base) {
    for (const [route, item] of entries(pathItems)) {
      if (!item || typeof item !== "object") continue;
      walkHolders(item.parameters, [...base, route, "parameters"]);
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation || typeof operation !== "object") continue;
        const at = [...base, route, method];
        walkHolders(operation.parameters, [...at, "parameters"]);
        walkHolder(operation.requestBody, [...at, "requestBody"]);
        walkHolders(operation.responses, [...at, "responses"]);
        // Callbacks are path items keyed by expression.
        for (const [callback, items] of entries(operation.callbacks))
          walkPathItems(items, [...at, "callbacks", callback]);
      }
    }
  }

  walkPathItems(root.paths, ["paths"]);
  walkPathItems(root.webhooks, ["webhooks"]);
  const components = root.components || {};
  for (const [name, schema] of entries(components.schemas)) walkSchema(schema, ["components", "schemas", name]);
  for (const kind of ["parameters", "requestBodies", "responses", "headers"])
    walkHolders(components[kind], ["components", kind]);
  return results;
}

/** A map's entries, or a list's with their indices (the paths of findings name list items by number). */
function entries(value) {
  if (Array.isArray(value)) return value.map((item, index) => [index, item]);
  return value && typeof value === "object" ? Object.entries(value) : [];
}
