// Flashcards: a round goes through the cards, those not yet known first; the score is saved.
{
  const [front, back] = APP.fields;
  const score = kit.store("score", { knew: 0, seen: 0 });
  let current = null;
  let cards;

  function next() {
    const all = cards.records();
    if (all.length === 0) {
      current = null;
    } else {
      // The card seen longest ago, those marked "not yet" before those known.
      const order = [...all].sort((a, b) => (a.known ? 1 : 0) - (b.known ? 1 : 0) || (a.seen ?? 0) - (b.seen ?? 0));
      current = order[0];
    }
    show(false);
  }
  function show(flipped) {
    const frontText = kit.$("#card-front");
    const backText = kit.$("#card-back");
    frontText.textContent = current
      ? current[front.key]
      : `Add ${/^[aeiou]/i.test(APP.noun.one) ? "an" : "a"} ${APP.noun.one} to start.`;
    backText.textContent = current ? current[back.key] : "";
    backText.hidden = !flipped;
    kit.$("#flip").hidden = flipped || !current;
    kit.$("#knew").hidden = !flipped;
    kit.$("#again").hidden = !flipped;
    const { knew, seen } = score.load();
    kit.$("#score").textContent = seen ? `Score: ${knew} of ${seen}` : "";
  }
  function answer(known) {
    const total = score.load();
    score.save({ knew: total.knew + (known ? 1 : 0), seen: total.seen + 1 });
    cards.update(current.id, { known, seen: Date.now() });
    next();
  }
  kit.$("#flip").addEventListener("click", () => show(true));
  kit.$("#knew").addEventListener("click", () => answer(true));
  kit.$("#again").addEventListener("click", () => answer(false));
  cards = kit.collection({
    render: (record, actions) =>
      kit.row(record, actions, { extra: record.known ? kit.el("span", { class: "muted", text: "Known" }) : null }),
    onChange: (records) => {
      // The first drawing comes before `cards` is set; next() below starts the round.
      if (cards && (!current || !records.some((record) => record.id === current.id))) next();
    },
  });
  next();
}
