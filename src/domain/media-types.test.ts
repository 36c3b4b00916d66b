import { describe, expect, it } from "vitest";
import { contentTypeFor, mediaTypeFor } from "./media-types.ts";

describe("contentTypeFor", () => {
  it("prefers a specific stored type and declares UTF-8 for text", () => {
    expect(contentTypeFor("a/b.HTML")).toBe("text/html; charset=utf-8");
    expect(contentTypeFor("main.mjs", "application/octet-stream")).toBe("text/javascript; charset=utf-8");
    expect(contentTypeFor("notes", "text/markdown")).toBe("text/markdown; charset=utf-8");
    expect(contentTypeFor("photo.png", "image/webp")).toBe("image/webp");
    expect(contentTypeFor("module.wasm")).toBe("application/wasm");
    expect(contentTypeFor("dir.d/file")).toBe("application/octet-stream");
  });
});

describe("mediaTypeFor", () => {
  it("is the type contentTypeFor serves, without its parameters", () => {
    expect(mediaTypeFor("docs/note.md", "application/octet-stream")).toBe("text/markdown");
    expect(mediaTypeFor("photo.png", "image/webp")).toBe("image/webp");
    expect(mediaTypeFor("page", "text/html; charset=utf-8")).toBe("text/html");
    expect(mediaTypeFor("dir.d/file")).toBe("application/octet-stream");
  });
});
