// Every operation declares the error responses a client must always handle
// (options.required, e.g. 401, 429, 500), and every error response (4xx, 5xx,
// default) answers application/json with the shared error schema, referenced
// by `$ref` (options.schemaRef) rather than copied, so one model describes
// every error of the API.

import { deref, operations } from "./openapi-walk.js";

export default function errorResponses(root, options) {
  const schemaRef = (options && options.schemaRef) || "#/components/schemas/Error";
  const requiredStatuses = ((options && options.required) || []).map(String);
  const results = [];

  for (const { operation, path } of operations(root)) {
    const name = operation.operationId || path.slice(1).join(" ");
    const responses = operation.responses && typeof operation.responses === "object" ? operation.responses : {};
    const responsesPath = [...path, "responses"];

    for (const status of requiredStatuses) {
      if (!(status in responses)) {
        results.push({ message: `${name}: missing the ${status} response.`, path: responsesPath });
      }
    }

    for (const [status, raw] of Object.entries(responses)) {
      if (!/^[45]/.test(status) && status !== "default") continue;
      const response = deref(root, raw);
      const media = response && response.content && response.content["application/json"];
      if (!media) {
        results.push({
          message: `${name}: the ${status} response has no application/json body; error responses use the shared error schema.`,
          path: [...responsesPath, status],
        });
        continue;
      }
      const schema = media.schema;
      if (!schema || schema.$ref !== schemaRef) {
        results.push({
          message: `${name}: the ${status} response body must be \`$ref: '${schemaRef}'\`.`,
          path: [...responsesPath, status, "content", "application/json", "schema"],
        });
      }
    }
  }
  return results;
}
