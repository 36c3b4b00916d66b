// The tags of a project's HTML page, found in one pass whatever the page holds: htmlparser2's
// tokenizer, a state machine that reads each character once (regular expressions over pages
// rescanned from every candidate `<`, which a page of 100,000 `<!--` turned into minutes). It
// tokenizes as browsers do: comments and the text of <script>, <style>, <title> and <textarea> hold
// no tags, a quoted `>` does not end a tag, and a tag cut off by the end of the page is no tag.
import { QuoteType, Tokenizer } from "htmlparser2";

export interface Attribute {
  /** Lower-cased. */
  readonly name: string;
  /** As written, entities not decoded; undefined when the attribute has no value (`defer`). */
  readonly value: string | undefined;
  /** Its source text: `src="a.ts"`. */
  readonly raw: string;
}

/** Offsets into the page: `start` at the tag's `<`, `end` just past an open tag's `>`. */
export type Tag =
  | {
      readonly kind: "open";
      readonly name: string;
      readonly start: number;
      readonly end: number;
      readonly attributes: readonly Attribute[];
    }
  | { readonly kind: "close"; readonly name: string; readonly start: number };

/** Calls `visit` with each tag of `html` in order (names lower-cased); returning false stops the scan. */
export function forEachTag(html: string, visit: (tag: Tag) => boolean | void): void {
  let name = "";
  let start = 0;
  let attributes: Attribute[] = [];
  let attributeName = "";
  let attributeStart = 0;
  let valueStart = -1;
  let valueEnd = -1;
  const emit = (tag: Tag) => {
    if (visit(tag) === false) tokenizer.pause();
  };
  const openTagEnd = (endIndex: number) => emit({ kind: "open", name, start, end: endIndex + 1, attributes });
  const ignore = () => {};
  const tokenizer = new Tokenizer(
    { decodeEntities: false },
    {
      onopentagname(nameStart, nameEnd) {
        name = html.slice(nameStart, nameEnd).toLowerCase();
        start = nameStart - 1;
        attributes = [];
      },
      onattribname(nameStart, nameEnd) {
        attributeName = html.slice(nameStart, nameEnd).toLowerCase();
        attributeStart = nameStart;
        valueStart = -1;
      },
      onattribdata(dataStart, dataEnd) {
        if (valueStart === -1) valueStart = dataStart;
        valueEnd = dataEnd;
      },
      onattribend(quote, endIndex) {
        const value =
          quote === QuoteType.NoValue ? undefined : valueStart === -1 ? "" : html.slice(valueStart, valueEnd);
        attributes.push({ name: attributeName, value, raw: html.slice(attributeStart, endIndex) });
      },
      onopentagend: openTagEnd,
      onselfclosingtag: openTagEnd,
      onclosetag(nameStart, nameEnd) {
        // In HTML the name follows `</` at once (`</ a>` is a comment).
        emit({ kind: "close", name: html.slice(nameStart, nameEnd).toLowerCase(), start: nameStart - 2 });
      },
      onattribentity: ignore,
      oncdata: ignore,
      oncomment: ignore,
      ondeclaration: ignore,
      onend: ignore,
      onprocessinginstruction: ignore,
      ontext: ignore,
      ontextentity: ignore,
    },
  );
  tokenizer.write(html);
  if (tokenizer.running) tokenizer.end();
}

/** Whether the tag is an open tag with this id. */
export function hasId(tag: Tag, id: string): boolean {
  return tag.kind === "open" && tag.attributes.some((attribute) => attribute.name === "id" && attribute.value === id);
}
