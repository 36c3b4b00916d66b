// The media type a file is stored and served with: by its extension unless it was given a specific
// one. A rule of the domain (files and deployments keep it), used by the deployment worker that
// stores build outputs, the apps listener that serves them, and the API's file downloads.

const TYPES: Record<string, string> = {
  html: "text/html",
  htm: "text/html",
  css: "text/css",
  js: "text/javascript",
  mjs: "text/javascript",
  cjs: "text/javascript",
  json: "application/json",
  map: "application/json",
  webmanifest: "application/manifest+json",
  xml: "application/xml",
  txt: "text/plain",
  md: "text/markdown",
  csv: "text/csv",
  svg: "image/svg+xml",
  png: "image/png",
  jpg: "image/jpeg",
  jpeg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
  avif: "image/avif",
  ico: "image/x-icon",
  bmp: "image/bmp",
  woff: "font/woff",
  woff2: "font/woff2",
  ttf: "font/ttf",
  otf: "font/otf",
  wasm: "application/wasm",
  pdf: "application/pdf",
  mp3: "audio/mpeg",
  wav: "audio/wav",
  ogg: "audio/ogg",
  mp4: "video/mp4",
  webm: "video/webm",
};
const UNSPECIFIC = new Set(["", "application/octet-stream"]);
const TEXTUAL = /^(?:text\/|application\/(?:javascript|json|xml|[\w.-]+\+(?:json|xml))$|image\/svg\+xml$)/;

/** A file's media type, without parameters: its stored one when specific, else by its path's extension. */
export function mediaTypeFor(path: string, stored = ""): string {
  const given = (stored.split(";")[0] ?? "").trim().toLowerCase();
  if (!UNSPECIFIC.has(given)) return given;
  const dot = path.lastIndexOf(".");
  const extension = dot > path.lastIndexOf("/") ? path.slice(dot + 1).toLowerCase() : "";
  return TYPES[extension] ?? "application/octet-stream";
}

/** Whether a media type (without parameters) is text: served as UTF-8, readable by an agent. */
export function isTextual(type: string): boolean {
  return TEXTUAL.test(type);
}

/**
 * The Content-Type a file is served with: its stored media type when specific (as it is, when it has
 * parameters), else by extension; textual types declare UTF-8. Also the type to store build outputs with.
 */
export function contentTypeFor(path: string, stored = ""): string {
  const given = stored.trim().toLowerCase();
  if (given.includes(";")) return given;
  const type = mediaTypeFor(path, given);
  return isTextual(type) ? `${type}; charset=utf-8` : type;
}
