// The client library in a few lines: create a project from a prompt, then list the workspace's
// projects across pages. Run: PB_API_KEY=svc_live_… PB_BASE_URL=http://127.0.0.1:8080 node examples/create-project.ts
import { ApiError, createClient } from "@project-builder/client";

const client = createClient({
  apiKey: process.env.PB_API_KEY ?? "",
  baseUrl: process.env.PB_BASE_URL ?? "https://api.project-builder.example",
});

try {
  // Typed from the contract; sent with an Idempotency-Key, so the client's retries create it once.
  const project = await client.POST("/v1/projects", {
    body: { name: "Recipe planner", prompt: "A web app that plans dinners from my fridge." },
  });
  console.log(`created ${project.id} (${project.status}), run ${project.latest_run_id}`);

  for await (const p of client.paginate("/v1/projects", { params: { query: { limit: 50 } } })) {
    console.log(`${p.id} ${p.status} ${p.name}`);
  }
} catch (error) {
  if (!(error instanceof ApiError)) throw error; // ApiConnectionError: no answer after retries
  console.error(
    `${error.status} ${error.code}: ${error.message} (param: ${error.param}, request: ${error.request_id})`,
  );
  process.exitCode = 1;
}
