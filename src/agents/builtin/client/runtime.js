// The part of app.js every app of the built-in agent shares: DOM helpers, storage in localStorage,
// a collection of records (add, edit, delete, search, sort) and charts drawn as inline SVG, so
// nothing comes from a CDN and everything runs under `default-src 'self'`. APP, the app's spec
// (app.json), is declared above this file in app.js; the archetype's own script follows it.
// eslint-disable-next-line no-unused-vars -- used by the archetype script joined after this one
const kit = (() => {
  const $ = (selector, root = document) => root.querySelector(selector);
  const SVG = "http://www.w3.org/2000/svg";

  /** An element: `attrs` are properties (`text`, `class`, `on…` handlers) or attributes. */
  function el(tag, attrs = {}, ...children) {
    const node = tag.startsWith("svg:") ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
    for (const [name, value] of Object.entries(attrs)) {
      if (value === undefined || value === null || value === false) continue;
      if (name === "text") node.textContent = value;
      else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
      else node.setAttribute(name === "className" ? "class" : name, value === true ? "" : String(value));
    }
    for (const child of children.flat()) {
      if (child !== undefined && child !== null && child !== false) node.append(child);
    }
    return node;
  }

  /** A value kept in this browser's localStorage, per app. */
  function store(name, fallback) {
    const key = `${APP.storage}:${name}`;
    return {
      load() {
        try {
          const value = JSON.parse(localStorage.getItem(key) ?? "null");
          return value ?? structuredClone(fallback);
        } catch {
          return structuredClone(fallback);
        }
      },
      save(value) {
        try {
          localStorage.setItem(key, JSON.stringify(value));
        } catch {
          // Storage full or disabled: the app still works for this visit.
        }
      },
    };
  }

  const pad = (n) => String(n).padStart(2, "0");
  const isoDate = (date) => `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const today = () => isoDate(new Date());
  /** The last `n` days, oldest first, as ISO dates. */
  function lastDays(n) {
    const days = [];
    const day = new Date();
    day.setDate(day.getDate() - (n - 1));
    for (let i = 0; i < n; i += 1) {
      days.push(isoDate(day));
      day.setDate(day.getDate() + 1);
    }
    return days;
  }
  const newId = () => `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;

  const money = new Intl.NumberFormat(undefined, { style: "currency", currency: APP.settings.currency || "USD" });
  function format(field, value) {
    if (value === undefined || value === null || value === "") return "";
    if (field.type === "money") return money.format(Number(value));
    if (field.type === "number") return Number(value).toLocaleString();
    if (field.type === "date") return new Date(`${value}T00:00`).toLocaleDateString();
    return String(value);
  }

  /** The form's values for `fields`, numbers as numbers; null when a required one is empty. */
  function readForm(form, fields) {
    const record = {};
    for (const field of fields) {
      const control = form.elements.namedItem(field.key);
      if (!control) continue;
      const raw = control.value.trim();
      if (control.required && raw === "") return null;
      record[field.key] = (field.type === "number" || field.type === "money") && raw !== "" ? Number(raw) : raw;
    }
    return record;
  }

  function fillForm(form, fields, record) {
    for (const field of fields) {
      const control = form.elements.namedItem(field.key);
      if (control) control.value = record[field.key] ?? "";
    }
  }

  /** A bar chart of `series` ([{label, value}]) as inline SVG, with its figures as text for screen readers. */
  function barChart(container, series, title) {
    if (!container) return;
    if (series.length === 0 || series.every((point) => point.value === 0)) {
      container.replaceChildren(el("p", { class: "muted", text: "Nothing to chart yet." }));
      return;
    }
    const max = Math.max(...series.map((point) => point.value), 1);
    const width = 600;
    const height = 220;
    const band = width / series.length;
    const bars = series.map((point, i) => {
      const barHeight = Math.round((point.value / max) * (height - 50));
      const x = Math.round(i * band + band * 0.15);
      return el(
        "svg:g",
        {},
        el(
          "svg:rect",
          {
            x,
            y: height - 30 - barHeight,
            width: Math.max(2, Math.round(band * 0.7)),
            height: barHeight,
            rx: 3,
            class: "bar",
          },
          el("svg:title", { text: `${point.label}: ${point.display ?? point.value}` }),
        ),
        el("svg:text", {
          x: x + Math.round(band * 0.35),
          y: height - 12,
          "text-anchor": "middle",
          class: "axis",
          text: point.label.slice(0, 12),
        }),
        el("svg:text", {
          x: x + Math.round(band * 0.35),
          y: height - 36 - barHeight,
          "text-anchor": "middle",
          class: "figure",
          text: point.display ?? String(point.value),
        }),
      );
    });
    const summary = series.map((point) => `${point.label} ${point.display ?? point.value}`).join(", ");
    container.replaceChildren(
      el(
        "svg:svg",
        { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": `${title}: ${summary}`, class: "chart" },
        bars,
      ),
    );
  }

  /** The chart's series: a number summed (or records counted) by a choice field, or by day over a week. */
  function chartSeries(records) {
    const fields = APP.fields;
    const total = fields.find((field) => field.type === "money") ?? fields.find((field) => field.type === "number");
    const by = fields.find((field) => field.type === "select");
    const dated = fields.find((field) => field.type === "date");
    const amount = (record) => (total ? Number(record[total.key]) || 0 : 1);
    const show = (value) => (total ? format(total, value) : String(value));
    if (by) {
      const sums = new Map(by.options.map((option) => [option, 0]));
      for (const record of records) sums.set(record[by.key], (sums.get(record[by.key]) ?? 0) + amount(record));
      return [...sums].map(([label, value]) => ({ label: String(label || "None"), value, display: show(value) }));
    }
    return lastDays(7).map((day) => {
      const value = records
        .filter((record) => (dated ? record[dated.key] : record.created) === day)
        .reduce((sum, record) => sum + amount(record), 0);
      const label = new Date(`${day}T00:00`).toLocaleDateString(undefined, { weekday: "short" });
      return { label, value, display: show(value) };
    });
  }

  function chartTitle() {
    const fields = APP.fields;
    const total = fields.find((field) => field.type === "money") ?? fields.find((field) => field.type === "number");
    const by = fields.find((field) => field.type === "select");
    const what = total ? total.label : `${APP.noun.many[0].toUpperCase()}${APP.noun.many.slice(1)}`;
    return by ? `${what} by ${by.label.toLowerCase()}` : `${what} per day, last 7 days`;
  }

  /** The details line of a record: every field but the first, labelled. */
  function details(record, fields = APP.fields.slice(1)) {
    return fields
      .filter((field) => record[field.key] !== undefined && record[field.key] !== "")
      .map((field) => `${field.label}: ${format(field, record[field.key])}`)
      .join(" · ");
  }

  /**
   * Records kept in localStorage, added and edited through the form #add-form, listed in #records by
   * `render`, with #search, #sort and #chart when the page has them. `render(record, actions)` returns
   * the record's <li>; `onChange(records)` updates what else the page shows; `chart(records)` gives
   * the chart's series and title when the archetype draws its own.
   */
  function collection({ name = "records", render = row, onChange = () => {}, chart } = {}) {
    const form = $("#add-form");
    const list = $("#records");
    const search = $("#search");
    const sort = $("#sort");
    const count = $("#count");
    const submit = form?.querySelector('button[type="submit"]');
    const submitText = submit?.textContent ?? "";
    const saved = store(name, []);
    let records = saved.load();
    let editing = null;

    function visible() {
      const query = (search?.value ?? "").trim().toLowerCase();
      let shown = query
        ? records.filter((record) =>
            APP.fields.some((field) =>
              String(record[field.key] ?? "")
                .toLowerCase()
                .includes(query),
            ),
          )
        : [...records];
      const key = sort?.value || APP.features.sort;
      if (key === "created") shown.reverse();
      else if (key) {
        const field = APP.fields.find((candidate) => candidate.key === key);
        const numeric = field && (field.type === "number" || field.type === "money");
        shown.sort((a, b) =>
          numeric
            ? (Number(b[key]) || 0) - (Number(a[key]) || 0)
            : String(a[key] ?? "").localeCompare(String(b[key] ?? "")),
        );
      }
      return shown;
    }

    function draw() {
      const shown = visible();
      if (list) {
        list.replaceChildren(...shown.map((record) => render(record, actions)));
        if (shown.length === 0) {
          const text = records.length === 0 ? `No ${APP.noun.many} yet: add the first one above.` : "Nothing matches.";
          list.append(el("li", { class: "empty muted", text }));
        }
      }
      if (count) count.textContent = `${records.length} ${records.length === 1 ? APP.noun.one : APP.noun.many}`;
      const drawn = chart ? chart(records) : { series: chartSeries(records), title: chartTitle() };
      barChart($("#chart"), drawn.series, drawn.title);
      onChange(records);
    }

    function save() {
      saved.save(records);
      draw();
    }

    const actions = {
      records: () => records,
      update(id, patch) {
        records = records.map((record) => (record.id === id ? { ...record, ...patch } : record));
        save();
      },
      remove(id) {
        records = records.filter((record) => record.id !== id);
        save();
      },
      edit(id) {
        const record = records.find((candidate) => candidate.id === id);
        if (!record || !form) return;
        editing = id;
        fillForm(form, APP.fields, record);
        if (submit) submit.textContent = "Save changes";
        form.elements[0]?.focus();
      },
      add(record) {
        records.push({ id: newId(), created: today(), ...record });
        save();
      },
    };

    form?.addEventListener("submit", (event) => {
      event.preventDefault();
      const values = readForm(form, APP.fields);
      if (!values) return;
      if (editing) actions.update(editing, values);
      else actions.add(values);
      editing = null;
      form.reset();
      if (submit) submit.textContent = submitText;
      form.elements[0]?.focus();
    });
    search?.addEventListener("input", draw);
    sort?.addEventListener("change", draw);
    draw();
    return actions;
  }

  /** A record's row: its first field, the others below, Edit and Delete. `lead` goes first (a checkbox). */
  function row(record, actions, { lead, extra, className = "" } = {}) {
    const [first] = APP.fields;
    const title = first ? format(first, record[first.key]) : "";
    return el(
      "li",
      { class: `record ${className}`.trim() },
      lead,
      el(
        "div",
        { class: "record-main" },
        el("strong", { text: title }),
        el("span", { class: "muted", text: details(record) }),
      ),
      extra,
      el(
        "div",
        { class: "record-actions" },
        el("button", {
          type: "button",
          class: "link",
          text: "Edit",
          "aria-label": `Edit ${title}`,
          onclick: () => actions.edit(record.id),
        }),
        el("button", {
          type: "button",
          class: "link",
          text: "Delete",
          "aria-label": `Delete ${title}`,
          onclick: () => actions.remove(record.id),
        }),
      ),
    );
  }

  return { $, el, store, today, isoDate, lastDays, newId, format, readForm, barChart, details, collection, row };
})();
