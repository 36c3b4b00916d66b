// ESLint (npm run lint, npm run check): typescript-eslint's type-checked recommended rules over
// the code, with one program for the whole tree, the one `npm run typecheck` builds. Layout is
// Prettier's. Written by tools, not linted: generated/, the migrations, the packages' builds, the
// vendored Redoc.
// @ts-check
import js from "@eslint/js";
import { defineConfig, globalIgnores } from "eslint/config";
import tseslint from "typescript-eslint";

export default defineConfig([
  globalIgnores([
    "generated/",
    "src/storage/migrations/",
    "src/http/vendor/",
    "packages/*/dist/",
    "packages/contract/",
    "packages/client/src/idempotent-routes.ts",
  ]),
  {
    files: ["**/*.ts"],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: { project: "./tsconfig.json", tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      // Both are in the set; named here because a server full of promises depends on them.
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
      // async without await is how stores, handlers and stubs implement a promise-returning interface.
      "@typescript-eslint/require-await": "off",
      // Services are objects of closures made by factory functions, not classes: a method needs no `this`.
      "@typescript-eslint/unbound-method": "off",
      // tsc's noUnusedLocals and noUnusedParameters check this already.
      "@typescript-eslint/no-unused-vars": "off",
      // Rethrowing what was caught, or rejecting with an AbortSignal's reason, passes on another's error.
      "@typescript-eslint/only-throw-error": ["error", { allowThrowingAny: true, allowThrowingUnknown: true }],
      "@typescript-eslint/prefer-promise-reject-errors": [
        "error",
        { allowThrowingAny: true, allowThrowingUnknown: true },
      ],
    },
  },
  {
    files: ["test/**/*.ts", "**/*.test.ts"],
    rules: {
      // vitest's asymmetric matchers (expect.any, expect.stringMatching…) are `any` by design.
      "@typescript-eslint/no-unsafe-assignment": "off",
    },
  },
  {
    files: ["test/spectral.test.ts"],
    rules: {
      // It breaks the generated documents on purpose, path by path, as the JSON they are.
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-unsafe-member-access": "off",
      "@typescript-eslint/no-unsafe-return": "off",
    },
  },
  {
    files: ["**/*.js", "**/*.mjs"],
    extends: [js.configs.recommended],
  },
  {
    files: ["src/pages/assets/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: { document: "readonly", navigator: "readonly", window: "readonly", setTimeout: "readonly" },
    },
  },
  {
    // The built-in agent's browser scripts, joined into each app's app.js after its spec (APP) and,
    // for an archetype's script, after the shared runtime (kit).
    files: ["src/agents/builtin/client/*.js"],
    languageOptions: {
      sourceType: "script",
      globals: Object.fromEntries(
        [
          "APP",
          "document",
          "window",
          "localStorage",
          "setInterval",
          "clearInterval",
          "Intl",
          "structuredClone",
          "HTMLElement",
        ].map((name) => [name, "readonly"]),
      ),
    },
  },
  {
    files: ["src/agents/builtin/client/*.js"],
    ignores: ["src/agents/builtin/client/runtime.js"],
    languageOptions: { globals: { kit: "readonly" } },
  },
  {
    files: ["test/fixtures/**/*.mjs"],
    languageOptions: {
      globals: Object.fromEntries(
        ["process", "console", "Buffer", "setTimeout", "clearTimeout", "btoa", "fetch", "Request"].map((name) => [
          name,
          "readonly",
        ]),
      ),
    },
  },
]);
