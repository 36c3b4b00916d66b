// `npx drizzle-kit generate` compares src/storage/schema.ts with the last migration snapshot and
// writes the next SQL migration into src/storage/migrations, which is committed and applied at start.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "postgresql",
  schema: "./src/storage/schema.ts",
  out: "./src/storage/migrations",
});
