// A landing page: a hero with a call to action, sections drawn from the prompt (features, pricing,
// testimonials, questions), and a sign-up form that keeps the addresses given in this browser.
import { html } from "../../../html/template.ts";
import { clientScript, type Archetype, type EditKind } from "../archetype.ts";
import { addForm } from "../render.ts";
import type { Section } from "../spec.ts";
import { capitalize, isStopWord } from "../words.ts";

const GENERIC = new Set(
  "landing page homepage marketing launch product startup website site portfolio waitlist newsletter agency hero saas pricing testimonials".split(
    " ",
  ),
);

export const landing: Archetype = {
  id: "landing",
  describe: "a landing page",
  keywords: {
    landing: 6,
    homepage: 4,
    marketing: 4,
    launch: 3,
    product: 2,
    startup: 3,
    portfolio: 4,
    waitlist: 5,
    newsletter: 4,
    agency: 3,
    pricing: 3,
    testimonial: 3,
    testimonials: 3,
    hero: 3,
    saas: 3,
    coming: 2,
    bakery: 2,
    restaurant: 2,
    cafe: 2,
    studio: 2,
    brand: 2,
    promote: 3,
    showcase: 3,
    business: 2,
  },
  templates: ["landing-page"],
  noun: { one: "sign-up", many: "sign-ups" },
  ownNoun: true,
  fields: () => [{ key: "email", label: "Email address", type: "email" }],
  refine: (spec, facts) => {
    const words = [
      ...new Set(
        facts.tokens.filter(
          (word) => word.length >= 4 && /^\p{L}+$/u.test(word) && !isStopWord(word) && !GENERIC.has(word),
        ),
      ),
    ];
    const features = [...words, "simple", "friendly", "reliable"].slice(0, 3).map(capitalize);
    const sections: Section[] = [
      {
        id: "features",
        title: "Features",
        text: `${features.join(" · ")}: everything ${spec.title} is about, in one place.`,
      },
    ];
    const asked = (word: string) => facts.tokens.includes(word);
    if (asked("pricing") || asked("price") || asked("plans"))
      sections.push({
        id: "pricing",
        title: "Pricing",
        text: "Free to start. Paid plans when you grow, cancel any time.",
      });
    if (asked("testimonials") || asked("reviews"))
      sections.push({
        id: "testimonials",
        title: "Testimonials",
        text: `“${spec.title} made it easy.” A happy customer.`,
      });
    if (asked("faq") || asked("questions"))
      sections.push({ id: "faq", title: "Questions", text: "Ask us anything: we answer within a day." });
    if (asked("contact") || asked("location") || asked("hours"))
      sections.push({
        id: "contact",
        title: "Contact",
        text: "Write to us, or visit: we would love to hear from you.",
      });
    return { ...spec, sections, settings: { ...spec.settings, features } };
  },
  accepts: new Set<EditKind>(["theme", "rename", "section"]),
  body: (spec) => html`<section class="hero panel">
<p class="lead">${(spec.settings.features as readonly string[]).join(" · ")}</p>
<a class="button" href="#add-form">Get started</a>
</section>
<section class="panel" aria-labelledby="signup-heading">
<h2 id="signup-heading">Join the list</h2>
${addForm(spec, { submit: "Sign up" })}
<p id="thanks" class="muted" role="status"></p>
<ul id="records" class="records"></ul>
<p id="count" class="muted"></p>
</section>`,
  script: clientScript("landing"),
  css: `.hero { text-align: center; padding: 3rem 1.5rem; }
.hero .lead { font-size: 1.4rem; margin-bottom: 1.5rem; }
.text-section { text-align: center; }
`,
  abilities: (spec) =>
    `read about ${spec.title} (${spec.sections.map((section) => section.title.toLowerCase()).join(", ")}) and sign up with an email address`,
};
