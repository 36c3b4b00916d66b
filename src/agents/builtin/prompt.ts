// What a prompt says about the app it asks for: the thing it holds ("track books…", "a recipe
// planner"), the fields it names ("with author, genre and a rating"), the choices it lists
// ("categories like food, rent and travel") and its numbers ("25-minute sessions"). One pass over
// the prompt's tokens, so a long or hostile prompt costs only its length.
import { fieldNamed, type Field } from "./spec.ts";
import { capitalize, isStopWord, plural, singular, tokens } from "./words.ts";

export interface PromptFacts {
  readonly tokens: readonly string[];
  /** The thing the app holds, when the prompt names one. */
  readonly noun: { readonly one: string; readonly many: string } | undefined;
  readonly fields: readonly Field[];
  /** Numbers followed by a unit word ("25 minutes" → minutes: 25). */
  readonly numbers: ReadonlyMap<string, number>;
}

// Words before which the thing held is named: "a recipe planner", "my book list".
const HEADS = new Set(
  "tracker planner list log manager organizer organiser journal board collection catalog catalogue library diary keeper inventory database tracking app tool".split(
    " ",
  ),
);
// Words after which it is named: "track books", "a list of plants", "log my workouts".
const LEADS = new Set(
  "track tracks tracking log logs logging manage manages organize organise plan plans collect collects save saves store stores keep keeps record records rate catalog catalogue of for".split(
    " ",
  ),
);
const SKIPPED = new Set(
  "a an the my our your their his her all every daily weekly monthly favorite favourite personal simple little new own some each i we you to".split(
    " ",
  ),
);
// Heads that are not the thing held ("reading list" holds books, "shopping list" items).
const GERUNDS: Record<string, string> = { reading: "book", shopping: "item", packing: "item", watch: "movie" };
// Not things an app holds: the words of the request itself.
const NOT_NOUNS = new Set(
  "app apps application page site website tool way thing things stuff something everything time track tracking list lists what that which how mode dark light kanban pomodoro focus landing team company family dashboard sprint work home business week day month year people".split(
    " ",
  ),
);

// Words that open a list of fields: "with author and genre", "fields: name, email".
export const FIELD_LEADS: ReadonlySet<string> = new Set([
  "with",
  "fields",
  "columns",
  "stages",
  "including",
  "include",
  "includes",
  "capturing",
  "has",
]);
// Words that end a field list: a new clause begins.
const LIST_ENDS = new Set(
  "that which so to for where in on by i we you it they when while who if then but because from".split(" "),
);
const OPTION_LEADS = new Set(["like", "such", "e.g", "eg"]);
const BOARD_WORDS = new Set(["columns", "stages", "lanes"]);
const ARTICLES = new Set([
  "a",
  "an",
  "the",
  "its",
  "their",
  "his",
  "her",
  "my",
  "our",
  "your",
  "optional",
  "each",
  "per",
]);

export function readPrompt(prompt: string): PromptFacts {
  const words = tokens(prompt.slice(0, 4000));
  return { tokens: words, noun: nounOf(words), fields: fieldsOf(words), numbers: numbersOf(words) };
}

function isNoun(word: string | undefined): word is string {
  return (
    word !== undefined &&
    word.length >= 3 &&
    /^\p{L}/u.test(word) &&
    !isStopWord(word) &&
    !NOT_NOUNS.has(word) &&
    !SKIPPED.has(word) &&
    !LEADS.has(word) &&
    !FIELD_LEADS.has(word)
  );
}

function nounOf(words: readonly string[]): PromptFacts["noun"] {
  for (let i = 1; i < words.length; i += 1) {
    if (!HEADS.has(words[i]!)) continue;
    const before = words[i - 1]!;
    if (GERUNDS[before]) return forms(GERUNDS[before]);
    if (isNoun(before) && !before.endsWith("ing")) return forms(before);
  }
  for (let i = 0; i < words.length - 1; i += 1) {
    if (!LEADS.has(words[i]!)) continue;
    let j = i + 1;
    // "for managing recipes": what follows the verb.
    while (j < words.length && (SKIPPED.has(words[j]!) || (words[j]!.endsWith("ing") && words[j]!.length > 5))) j += 1;
    const word = words[j];
    if (isNoun(word) && !word.endsWith("ing") && !HEADS.has(word)) return forms(word);
  }
  return undefined;
}

function forms(word: string): { one: string; many: string } {
  const one = singular(word);
  return { one, many: plural(one) };
}

/** Lists after a field lead, each item a name of one to three words, or a name with its choices. */
function fieldsOf(words: readonly string[]): Field[] {
  const fields: Field[] = [];
  for (let i = 0; i < words.length && fields.length < 6; i += 1) {
    if (!FIELD_LEADS.has(words[i]!)) continue;
    let name: string[] = BOARD_WORDS.has(words[i]!) ? ["column"] : [];
    let options: string[] | undefined = name.length ? [] : undefined;
    let option: string[] = [];
    const flush = () => {
      if (options && option.length) options.push(option.join(" "));
      // "with 30-minute sessions" is a quantity, not a field.
      const label = name.filter((word) => !ARTICLES.has(word));
      const named = label.length >= 1 && label.length <= 3 && label.every((word) => /^\p{L}/u.test(word));
      if (named && !isStopWord(label.at(-1)!) && label.at(-1)!.length >= 2)
        fields.push(fieldNamed(label.join(" "), options?.map(capitalize)));
      name = [];
      options = undefined;
      option = [];
    };
    let j = i + 1;
    for (; j < words.length; j += 1) {
      const word = words[j]!;
      // "Columns: backlog, doing, done": a colon may open the list.
      if (word === ":" && j === i + 1) continue;
      if (".;:!?()".includes(word) || (LIST_ENDS.has(word) && !options)) break;
      if (!options && name.length === 0 && option.length === 0 && BOARD_WORDS.has(word)) {
        // "with columns Ideas, Doing and Shipped": a board's columns, as a choice.
        name = ["column"];
        options = [];
      } else if (OPTION_LEADS.has(word) && !options) {
        options = [];
        if (words[j + 1] === "as") j += 1;
      } else if (word === "," || word === "and" || word === "or") {
        if (options) {
          if (option.length) options.push(option.join(" "));
          option = [];
          if (word === "and" || word === "or") {
            // "like food, rent and travel, and a date": the list of choices ends after its last item.
            j += 1;
            while (j < words.length && !",.;:!?".includes(words[j]!) && words[j] !== "and") option.push(words[j++]!);
            j -= 1;
            flush();
          }
        } else flush();
      } else if (options) option.push(word);
      else name.push(word);
    }
    flush();
    i = j;
  }
  return fields;
}

function numbersOf(words: readonly string[]): Map<string, number> {
  const numbers = new Map<string, number>();
  for (let i = 0; i < words.length; i += 1) {
    const match = /^(\d{1,6})(?:-([a-z]+))?$/.exec(words[i]!);
    if (!match) continue;
    const unit = match[2] ?? words[i + 1];
    if (unit && !numbers.has(singular(unit))) numbers.set(singular(unit), Number(match[1]));
  }
  return numbers;
}
