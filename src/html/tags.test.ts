import { describe, expect, it } from "vitest";
import { expectLinear } from "../../test/support/growth.ts";
import { forEachTag, hasId, type Tag } from "./tags.ts";

function tags(html: string): Tag[] {
  const found: Tag[] = [];
  forEachTag(html, (tag) => void found.push(tag));
  return found;
}

describe("forEachTag", () => {
  it("gives each tag's name, offsets and attributes as written", () => {
    const html = `<!doctype html><P id=x a="1>2" B='q' c d = e/></p ><br/>`;
    expect(tags(html)).toEqual([
      {
        kind: "open",
        name: "p",
        start: 15,
        end: 46,
        attributes: [
          { name: "id", value: "x", raw: "id=x" },
          { name: "a", value: "1>2", raw: 'a="1>2"' },
          { name: "b", value: "q", raw: "B='q'" },
          { name: "c", value: undefined, raw: "c" },
          { name: "d", value: "e/", raw: "d = e/" },
        ],
      },
      { kind: "close", name: "p", start: 46 },
      { kind: "open", name: "br", start: 51, end: 56, attributes: [] },
    ]);
    expect(html.slice(15, 46)).toBe(`<P id=x a="1>2" B='q' c d = e/>`);
  });

  it("finds no tags in comments, in the text of scripts and styles, or cut off by the page's end", () => {
    const html = `<!-- <script src=a.ts> --><script>if (a<b) "<p></p>"</script><style>a<b{}</style><!x><p a="x`;
    expect(tags(html).map((tag) => `${tag.kind} ${tag.name}`)).toEqual([
      "open script",
      "close script",
      "open style",
      "close style",
    ]);
    expect(tags("<!-- <p> unclosed")).toEqual([]);
  });

  it("stops when the visitor says so", () => {
    const seen: string[] = [];
    forEachTag("<a><b><c>", (tag) => {
      seen.push(tag.name);
      return tag.name !== "b";
    });
    expect(seen).toEqual(["a", "b"]);
  });

  it("tells an element by its id", () => {
    const [quoted, unquoted, other, close] = tags(`<section id="changes"><p ID=changes><p id="changes-2"></section>`);
    expect([quoted, unquoted, other, close].map((tag) => hasId(tag!, "changes"))).toEqual([true, true, false, false]);
  });

  it.each([
    ["unclosed comments", "<!--"],
    ["unclosed tags", "<a "],
    ["unclosed quotes", '<a x="'],
    ["many attributes", "<a x=1 "],
    ["many tags", "<p id=x></p>"],
  ])("reads a page of %s in linear time", async (_, unit) => {
    await expectLinear(
      20_000,
      (n) => unit.repeat(n),
      (html) => forEachTag(html, () => {}),
    );
  });
});
