// Text helpers of the built-in agent: the prompt's words, and how they are shown. Every scan is one
// pass over its input (no backtracking pattern), since prompts and pages come from tenants.

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

/** Words (lower-cased, `'s` dropped) and the punctuation that ends a list or a sentence. */
export function tokens(text: string): string[] {
  const found = text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*|[,.;:!?()]/gu) ?? [];
  return found.map((token) => token.replace(/['’]s$/, "").replace(/['’]$/, ""));
}

export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word);
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

/** "an item", "a recipe": the word with its indefinite article (by its first letter). */
export function a(word: string): string {
  return `${/^[aeiou]/i.test(word) ? "an" : "a"} ${word}`;
}

/** " with a, b and c", or "" for no labels: a summary's list of fields. */
export function withList(labels: readonly string[]): string {
  if (labels.length === 0) return "";
  const list = labels.length === 1 ? labels[0]! : `${labels.slice(0, -1).join(", ")} and ${labels.at(-1)}`;
  return ` with ${list}`;
}

export function truncate(text: string, max: number): string {
  const chars = [...text];
  return chars.length <= max ? text : `${chars.slice(0, max - 1).join("")}…`;
}

/** "books" → "book", "categories" → "category", "boxes" → "box"; a word that is not plural stays. */
export function singular(word: string): string {
  if (/ies$/.test(word) && word.length > 4) return `${word.slice(0, -3)}y`;
  if (/(ss|us|is)$/.test(word)) return word;
  if (/(ches|shes|xes|sses|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && word.length > 3) return word.slice(0, -1);
  return word;
}

/** "book" → "books", "category" → "categories", "box" → "boxes"; a plural stays. */
export function plural(word: string): string {
  if (singular(word) !== word) return word;
  if (/[^aeiou]y$/.test(word)) return `${word.slice(0, -1)}ies`;
  if (/(s|x|z|ch|sh)$/.test(word)) return `${word}es`;
  return `${word}s`;
}

export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) hash = Math.imul(hash ^ byte, 0x01000193) >>> 0;
  return hash;
}

export function insertAt(text: string, at: number, insert: string): string {
  return text.slice(0, at) + insert + text.slice(at);
}
