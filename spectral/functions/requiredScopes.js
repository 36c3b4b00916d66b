// Every operation states the scope it needs, machine-readably, twice:
//   - `x-required-scopes: [..]` (what tooling and the server read), and
//   - the scopes of its OAuth2 security requirement (what OpenAPI tools show).
// This function checks the extension exists, names only scopes declared by an
// OAuth2 security scheme in components.securitySchemes, and agrees with the
// OAuth2 requirement of the operation's effective `security`.
// An empty list is allowed: it says explicitly that any valid key may call.

import { deref, operations } from "./openapi-walk.js";

export default function requiredScopes(root) {
  const results = [];
  const schemes = (root.components && root.components.securitySchemes) || {};

  // Scopes declared per OAuth2 scheme (union over its flows).
  const oauthScopes = new Map();
  for (const [name, raw] of Object.entries(schemes)) {
    const scheme = deref(root, raw);
    if (!scheme || scheme.type !== "oauth2") continue;
    const declared = new Set();
    for (const flow of Object.values(scheme.flows || {})) {
      for (const scope of Object.keys((flow && flow.scopes) || {})) declared.add(scope);
    }
    oauthScopes.set(name, declared);
  }
  const allDeclared = new Set([...oauthScopes.values()].flatMap((set) => [...set]));

  for (const { operation, path } of operations(root)) {
    const name = operation.operationId || path.slice(1).join(" ");
    const required = operation["x-required-scopes"];
    if (!Array.isArray(required) || !required.every((s) => typeof s === "string")) {
      results.push({
        message: `${name}: missing \`x-required-scopes\` (an array of the OAuth2 scopes the operation needs).`,
        path: required === undefined ? path : [...path, "x-required-scopes"],
      });
      continue;
    }
    for (const [i, scope] of required.entries()) {
      if (!allDeclared.has(scope)) {
        results.push({
          message: `${name}: scope "${scope}" is not declared by any OAuth2 security scheme in components.securitySchemes.`,
          path: [...path, "x-required-scopes", i],
        });
      }
    }

    // The OAuth2 requirement(s) of the effective security must list exactly these scopes.
    const security = operation.security !== undefined ? operation.security : root.security;
    const securityPath = operation.security !== undefined ? [...path, "security"] : ["security"];
    const oauthRequirements = (Array.isArray(security) ? security : []).flatMap((requirement, i) =>
      Object.entries(requirement || {})
        .filter(([scheme]) => oauthScopes.has(scheme))
        .map(([scheme, scopes]) => ({ scheme, scopes: Array.isArray(scopes) ? scopes : [], i })),
    );
    if (oauthRequirements.length === 0) {
      results.push({
        message: `${name}: its \`security\` has no OAuth2 requirement carrying the scopes of \`x-required-scopes\`.`,
        path: operation.security !== undefined ? securityPath : path,
      });
      continue;
    }
    const want = [...new Set(required)].sort().join(" ");
    for (const { scheme, scopes, i } of oauthRequirements) {
      const got = [...new Set(scopes)].sort().join(" ");
      if (got !== want) {
        results.push({
          message: `${name}: OAuth2 requirement "${scheme}" lists [${got}] but x-required-scopes is [${want}].`,
          path: [...securityPath, i, scheme],
        });
      }
    }
  }
  return results;
}
