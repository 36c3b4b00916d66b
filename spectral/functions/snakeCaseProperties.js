// Property names of every schema are snake_case (options.pattern), as the
// description's fields are (`created_at`, `next_cursor`, `request_id`).
// Schemas are walked structurally (components, parameters, bodies, responses,
// headers, and nested properties/items/compositions), so only real property
// names are checked, never example values or keywords.

import { HTTP_METHODS } from "./openapi-walk.js";

const NESTED_SCHEMA_LISTS = ["allOf", "anyOf", "oneOf", "prefixItems"];
const NESTED_SCHEMAS = ["items", "not", "additionalProperties", "unevaluatedProperties", "contains", "if", "then", "else"];

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

  function walkContent(content, path) {
    if (!content || typeof content !== "object") return;
    for (const [type, media] of Object.entries(content)) {
      if (media && typeof media === "object") walkSchema(media.schema, [...path, type, "schema"]);
    }
  }

  function walkParameters(list, path) {
    if (!Array.isArray(list)) return;
    list.forEach((parameter, i) => {
      if (!parameter || typeof parameter !== "object") return;
      walkSchema(parameter.schema, [...path, i, "schema"]);
      walkContent(parameter.content, [...path, i, "content"]);
    });
  }

  function walkHeaders(headers, path) {
    if (!headers || typeof headers !== "object") return;
    for (const [name, header] of Object.entries(headers)) {
      if (header && typeof header === "object") walkSchema(header.schema, [...path, name, "schema"]);
    }
  }

  function walkResponses(responses, path) {
    if (!responses || typeof responses !== "object") return;
    for (const [status, response] of Object.entries(responses)) {
      if (!response || typeof response !== "object") continue;
      walkContent(response.content, [...path, status, "content"]);
      walkHeaders(response.headers, [...path, status, "headers"]);
    }
  }

  function walkPathItems(pathItems, base) {
    if (!pathItems || typeof pathItems !== "object") return;
    for (const [route, item] of Object.entries(pathItems)) {
      if (!item || typeof item !== "object") continue;
      walkParameters(item.parameters, [...base, route, "parameters"]);
      for (const method of HTTP_METHODS) {
        const operation = item[method];
        if (!operation || typeof operation !== "object") continue;
        const at = [...base, route, method];
        walkParameters(operation.parameters, [...at, "parameters"]);
        if (operation.requestBody) walkContent(operation.requestBody.content, [...at, "requestBody", "content"]);
        walkResponses(operation.responses, [...at, "responses"]);
        // Callbacks are path items keyed by expression.
        for (const [callback, items] of Object.entries(operation.callbacks || {})) walkPathItems(items, [...at, "callbacks", callback]);
      }
    }
  }

  walkPathItems(root.paths, ["paths"]);
  walkPathItems(root.webhooks, ["webhooks"]);
  const components = root.components || {};
  for (const [name, schema] of Object.entries(components.schemas || {})) walkSchema(schema, ["components", "schemas", name]);
  for (const [name, parameter] of Object.entries(components.parameters || {})) {
    if (!parameter || typeof parameter !== "object") continue;
    walkSchema(parameter.schema, ["components", "parameters", name, "schema"]);
    walkContent(parameter.content, ["components", "parameters", name, "content"]);
  }
  for (const [name, body] of Object.entries(components.requestBodies || {})) walkContent(body && body.content, ["components", "requestBodies", name, "content"]);
  walkResponses(components.responses, ["components", "responses"]);
  walkHeaders(components.headers, ["components", "headers"]);
  return results;
}
