// A unit converter (length, weight, temperature, volume, speed) or, for a prompt that asks for a
// calculator, a calculator of arithmetic expressions; each keeps a history of what it worked out.
import { html } from "../../../html/template.ts";
import { clientScript, type Archetype, type EditKind } from "../archetype.ts";
import { addForm, recordList } from "../render.ts";
import type { AppSpec, Field } from "../spec.ts";

// Each unit: its name, and how it becomes the quantity's base unit: (value + offset) × factor.
const UNITS: Record<string, ReadonlyArray<readonly [name: string, factor: number, offset?: number]>> = {
  length: [
    ["km", 1000],
    ["mi", 1609.344],
    ["m", 1],
    ["ft", 0.3048],
    ["cm", 0.01],
    ["in", 0.0254],
    ["yd", 0.9144],
  ],
  weight: [
    ["kg", 1],
    ["lb", 0.45359237],
    ["g", 0.001],
    ["oz", 0.028349523125],
    ["st", 6.35029318],
  ],
  temperature: [
    ["°C", 1, 273.15],
    ["°F", 5 / 9, 459.67],
    ["K", 1, 0],
  ],
  volume: [
    ["l", 1],
    ["cup", 0.2365882365],
    ["ml", 0.001],
    ["gal", 3.785411784],
    ["tbsp", 0.01478676478125],
    ["tsp", 0.00492892159375],
  ],
  speed: [
    ["km/h", 1 / 3.6],
    ["mph", 0.44704],
    ["m/s", 1],
    ["knot", 0.514444],
  ],
};
const QUANTITY_WORDS: Record<string, string> = {
  temperature: "temperature",
  celsius: "temperature",
  fahrenheit: "temperature",
  kelvin: "temperature",
  weight: "weight",
  kg: "weight",
  pounds: "weight",
  kilograms: "weight",
  grams: "weight",
  mass: "weight",
  temperatures: "temperature",
  volume: "volume",
  cups: "volume",
  litres: "volume",
  liters: "volume",
  speed: "speed",
  pace: "speed",
  mph: "speed",
};

export const calculator: Archetype = {
  id: "calculator",
  describe: "a converter",
  keywords: {
    convert: 5,
    converter: 6,
    conversion: 5,
    unit: 4,
    units: 4,
    calculator: 6,
    calculate: 4,
    calculation: 4,
    metric: 3,
    imperial: 3,
    celsius: 4,
    fahrenheit: 4,
    kilometres: 3,
    kilometers: 3,
    miles: 2,
    math: 3,
    arithmetic: 4,
    tip: 2,
    percentage: 2,
  },
  templates: [],
  noun: { one: "result", many: "results" },
  ownNoun: true,
  fields: () => [],
  refine: (spec, facts): AppSpec => {
    const calculate =
      facts.tokens.some(
        (token) => token === "calculator" || token === "calculate" || token === "arithmetic" || token === "math",
      ) && !facts.tokens.some((token) => token.startsWith("conver") || token === "unit" || token === "units");
    if (calculate) {
      const fields: Field[] = [{ key: "expression", label: "Calculation, e.g. 12 * (3 + 4)", type: "text" }];
      return { ...spec, fields, settings: { mode: "calculate" } };
    }
    const quantity = facts.tokens.map((token) => QUANTITY_WORDS[token]).find(Boolean) ?? "length";
    const units = UNITS[quantity]!;
    const names = units.map(([name]) => name);
    const fields: Field[] = [
      { key: "value", label: "Value", type: "number" },
      { key: "from", label: "From", type: "select", options: names },
      // Rotated so that "to" starts on the second unit: km to mi, °C to °F.
      { key: "to", label: "To", type: "select", options: [...names.slice(1), names[0]!] },
    ];
    return {
      ...spec,
      fields,
      settings: {
        mode: "convert",
        quantity,
        units: names,
        factors: units.map(([, factor]) => factor),
        offsets: units.map(([, , offset]) => offset ?? 0),
      },
    };
  },
  accepts: new Set<EditKind>(["theme", "rename", "section", "search", "sort"]),
  body: (spec) => html`<section class="panel">
${addForm(spec, {
  legend:
    spec.settings.mode === "calculate"
      ? "Calculate"
      : `Convert ${String(spec.settings.quantity)} (${(spec.settings.units as readonly string[]).join(", ")})`,
  submit: spec.settings.mode === "calculate" ? "Calculate" : "Convert",
})}
<p id="answer" class="answer" aria-live="polite"></p>
</section>
${recordList(spec, "History")}`,
  script: clientScript("calculator"),
  css: `.answer { font-size: 1.8rem; font-weight: 700; margin: 0.5rem 0 0; min-height: 2.5rem; }
.answer.error { color: #dc2626; font-size: 1rem; font-weight: 400; }
`,
  abilities: (spec) =>
    spec.settings.mode === "calculate"
      ? "work out arithmetic (+ − × ÷, powers, brackets) and keep a history of results"
      : `convert ${String(spec.settings.quantity)} between ${(spec.settings.units as readonly string[]).join(", ")} and keep a history of conversions`,
};
