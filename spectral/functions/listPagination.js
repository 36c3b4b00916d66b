// List operations (operationId starting with options.prefix, "list") page
// alike: they take `cursor` (string) and `limit` (integer) query parameters and
// answer an object `{ data: array, next_cursor: string | null }` with both
// properties required: `next_cursor` is always present and null on the last page.

import { deref, hasType, isNullable, objectShape, operations, parameters, statusMatches } from "./openapi-walk.js";

export default function listPagination(root, options) {
  const prefix = (options && options.prefix) || "list";
  const results = [];

  for (const { operation, pathItem, path } of operations(root)) {
    const name = operation.operationId;
    if (typeof name !== "string" || !name.startsWith(prefix)) continue;

    const query = new Map(
      parameters(root, pathItem, operation)
        .filter((p) => p.in === "query")
        .map((p) => [p.name, p]),
    );
    for (const [param, type] of [
      ["cursor", "string"],
      ["limit", "integer"],
    ]) {
      const parameter = query.get(param);
      if (!parameter) {
        results.push({
          message: `${name}: list operations take a \`${param}\` query parameter.`,
          path: [...path, "parameters"],
        });
      } else if (!hasType(root, parameter.schema, type)) {
        results.push({
          message: `${name}: the \`${param}\` query parameter must be of type ${type}.`,
          path: [...path, "parameters"],
        });
      }
    }

    const responses = operation.responses || {};
    const successes = Object.keys(responses).filter((status) => statusMatches(status, "2XX"));
    if (successes.length === 0) {
      results.push({ message: `${name}: list operations answer a 2xx page.`, path: [...path, "responses"] });
    }
    for (const status of successes) {
      const response = deref(root, responses[status]);
      const schema =
        response &&
        response.content &&
        response.content["application/json"] &&
        response.content["application/json"].schema;
      const where = [...path, "responses", status];
      if (!schema) {
        results.push({
          message: `${name}: the ${status} response must be an application/json page { data, next_cursor }.`,
          path: where,
        });
        continue;
      }
      const { properties, required } = objectShape(root, schema);
      if (!properties.data || !hasType(root, properties.data, "array")) {
        results.push({ message: `${name}: the page must have a \`data\` array.`, path: where });
      }
      if (!properties.next_cursor) {
        results.push({
          message: `${name}: the page must have \`next_cursor\` (string, null on the last page).`,
          path: where,
        });
      } else if (!hasType(root, properties.next_cursor, "string") || !isNullable(root, properties.next_cursor)) {
        results.push({ message: `${name}: \`next_cursor\` must be a nullable string.`, path: where });
      }
      for (const property of ["data", "next_cursor"]) {
        if (properties[property] && !required.has(property)) {
          results.push({
            message: `${name}: \`${property}\` must be required in the page (always present).`,
            path: where,
          });
        }
      }
    }
  }
  return results;
}
