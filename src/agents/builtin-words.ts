// Text helpers of the built-in agent: the prompt's distinctive words, and how they are shown.

// ——— Text helpers ———

const STOP_WORDS = new Set(
  (
    "about also after again all and any app application apps are because been before being build builds but can could create " +
    "does each every for from have into just like lets make more most much need needs only other over page please " +
    "show shows simple site small some than that the their them then there these they this those using very want " +
    "wants web website what when where which while will with would your yours"
  ).split(" "),
);

/** The prompt's distinctive words, in order of first appearance, lower-cased, without repeats. */
export function keywords(prompt: string): string[] {
  const words = prompt.toLowerCase().match(/\p{L}[\p{L}\p{N}-]*/gu) ?? [];
  return [...new Set(words.filter((word) => word.length >= 4 && !STOP_WORDS.has(word)))].slice(0, 8);
}

export function pick(words: string[], count: number, fallback: string[]): string[] {
  return words.length > 0 ? words.slice(0, count) : fallback;
}

/** An ASCII URL segment for an API resource, or "" when the word has no ASCII letters. */
export function slug(word: string): string {
  return word
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

export function capitalize(word: string): string {
  return word.charAt(0).toUpperCase() + word.slice(1);
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

export function insertAt(text: string, at: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at);
}
