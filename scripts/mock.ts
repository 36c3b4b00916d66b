// npm run mock: the mock server frontend teams install (@project-builder/mock: Prism on the
// contract, behind a proxy that refuses as the server does), on this checkout's contract
// (packages/contract, built from generated/ by `npm run build`).
//
//   npm run mock                       # http://127.0.0.1:4010
//   PORT=5000 HOST=0.0.0.0 npm run mock
//   npm run mock -- --dynamic          # random bodies valid against the schemas
//
// How a frontend developer chooses what the mock answers:
//   - Every /v1 request needs `Authorization: Bearer <anything>`, as the real API does (e.g.
//     `Authorization: Bearer svc_test_123`); without it the mock answers 401 `missing_api_key`.
//   - By default an operation answers its first success response with its first example.
//   - `Prefer: code=404` answers the operation's 404 response (any status the operation declares).
//   - `Prefer: example=<title>` answers the example with that title; combine both:
//     `Prefer: code=404, example=<title>`.
//   - `Prefer: dynamic=true` generates a random body valid against the schema.
//   - Where headers are awkward (a browser link), the same works as query parameters:
//     `?__code=404&__example=<title>`.
//   curl -H 'Authorization: Bearer svc_test_123' -H 'Prefer: code=404' \
//        http://127.0.0.1:4010/v1/projects/prj_8kF2mQ9xLp3vR7tZ
import { startMock } from "../packages/mock/src/index.ts";

const mock = await startMock({
  port: Number(process.env.PORT || 4010),
  host: process.env.HOST || "127.0.0.1",
  dynamic: process.argv.includes("--dynamic"),
  log: (line) => console.log(line),
}).catch((error: unknown) => {
  console.error(`mock: ${(error as Error).message}`);
  process.exit(1);
});
console.log(`mock: listening on ${mock.url}`);
for (const signal of ["SIGINT", "SIGTERM"] as const) process.once(signal, () => void mock.stop());
process.exitCode = (await mock.exited) ?? 0;
