// The server's entry point: `node src/main.ts` (npm start). src/server.ts builds the server from the
// environment; it is imported after boot.ts has made module loading fast.
import "./boot.ts";

await import("./server.ts");
