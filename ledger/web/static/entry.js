// Entry: taps build a deal line in the command line's grammar; the server scores it.
"use strict";
(function () {
  const t = window.bigtwoWords;
  const form = document.getElementById("entry");
  const start = document.getElementById("start");

  // The session this page shows: every API call names it.
  function sessionId() {
    const live = document.getElementById("live");
    return live && live.dataset.session ? Number(live.dataset.session) : null;
  }
  // A new idempotency key per action (a uuid v4 from getRandomValues: crypto.randomUUID
  // is missing outside secure contexts, which a LAN http page is).
  function newKey() {
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }
  async function answer(response) {
    let data = {};
    try { data = await response.json(); } catch (e) { data = { error: t("unreadable") }; }
    if (!response.ok) throw new Error(data.error || t("http", { status: response.status }));
    return data;
  }
  async function post(path, body, withSession = true) {
    const values = Object.assign(withSession ? { session: sessionId() } : {}, body || {});
    return answer(await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", "idempotency-key": newKey() },
      body: JSON.stringify(values),
      credentials: "same-origin",
    }));
  }
  async function get(path, args) {
    const query = new URLSearchParams(Object.assign({ session: String(sessionId()) }, args));
    return answer(await fetch(path + "?" + query, { credentials: "same-origin" }));
  }

  // Quote a name like a shell would, so names with spaces or quotes survive the grammar.
  function quote(text) {
    return /^[^\s'"\\#=,-][^\s'"\\#=,]*$/.test(text) ? text : "'" + text.replace(/'/g, "'\"'\"'") + "'";
  }
  const pair = (name, value) => quote(name) + "=" + value;

  if (start) {
    start.addEventListener("submit", async (event) => {
      event.preventDefault();
      const players = [...start.querySelectorAll("input.player")].map((i) => i.value.trim()).filter((v) => v);
      const error = document.getElementById("start-error");
      try {
        await post("/api/start", {
          players: players.join(","),
          rules: start.elements.rules.value,
          stake: start.elements.stake.value.trim(),
          currency: start.elements.currency.value.trim(),
          name: start.elements.name.value.trim(),
          teams: start.elements.teams.checked,
        }, false);
        window.location.href = "/entry";
      } catch (e) {
        error.textContent = e.message;
        error.hidden = false;
      }
    });
  }

  // What an undo took back (any kind of action), told in the page's language.
  function undoneText(u) {
    if (u.action === "session end") return t("undone_end", { session: u.session });
    if (u.action === "amend") return t("undone_amend", { n: u.deal, line: u.line || "", back: u.back || "" });
    if (u.action === "void") return t("undone_void", { n: u.deal, back: u.back || "" });
    return t("undone_deal", { n: u.deal, line: u.line || "" });
  }
  const NOTE = "bigtwo-note";  // a note that outlives the reload an undo or end can cause

  function show(text, bad) {
    const p = document.createElement("p");
    p.className = bad ? "error" : "ok";
    if (bad) p.setAttribute("role", "alert");
    p.textContent = text;
    const box = document.getElementById("preview") || document.getElementById("note");
    if (box) box.replaceChildren(p);
  }

  const undo = document.getElementById("undo");
  if (undo) {
    undo.addEventListener("click", async () => {
      window.bigtwoBusy = true;  // live.js waits with a reload until the note is kept
      try {
        const data = await post("/api/undo");
        const text = undoneText(data.undo);
        if (data.undo.action === "session end") {  // the page reloads: the session is open again
          try { sessionStorage.setItem(NOTE, text); } catch (e) { /* private mode */ }
        }
        show(text);
        document.dispatchEvent(new CustomEvent("bigtwo:undone", { detail: data }));
      } catch (e) { show(e.message, true); }
      finally {
        window.bigtwoBusy = false;
        if (window.bigtwoReload) window.location.reload();
      }
    });
  }
  function showKept() {
    try {
      const kept = sessionStorage.getItem(NOTE);
      if (kept) { sessionStorage.removeItem(NOTE); show(kept); }
    } catch (e) { /* private mode */ }
  }

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-void]");
    if (!button) return;
    const no = Number(button.dataset.void);
    if (!window.confirm(t("void_ask", { n: no }))) return;
    try { await post("/api/void", { deal: no }); show(t("voided", { n: no })); }
    catch (e) { show(e.message, true); }
  });

  if (!form) { showKept(); return; }
  const seats = JSON.parse(form.dataset.seats);
  const mode = form.dataset.mode;
  const hand = Number(form.dataset.hand);
  const preview = document.getElementById("preview");
  const lineBox = document.getElementById("line");
  const confirm = document.getElementById("confirm");
  const cancel = document.getElementById("cancel-amend");
  const title = document.getElementById("entry-title");
  let winner = null;
  let order = [];
  let amending = null;
  let nextDeal = Number(title.dataset.deal) || 1;
  let asked = 0;

  const $ = (sel) => form.querySelector(sel);
  const value = (sel) => { const el = $(sel); return el ? el.value : ""; };
  const immediate = () => [...form.querySelectorAll("[data-immediate]")].find((b) => b.checked);

  function buildLine() {
    const words = [];
    if (mode === "places") {
      if (order.length) words.push("--order", order.map(quote).join(","));
      return words.join(" ");
    }
    const instant = immediate();
    if (instant) {
      if (winner) words.push("--" + instant.dataset.immediate, quote(winner));
      return words.join(" ");
    }
    for (const name of seats) {
      const input = form.querySelector(`[data-cards="${CSS.escape(name)}"]`);
      words.push(pair(name, name === winner ? 0 : Number(input.value || 0)));
    }
    for (const fact of ["twos", "bombs"]) {
      for (const input of form.querySelectorAll(`[data-${fact}]`)) {
        const count = Number(input.value || 0);
        if (count > 0) words.push("--" + fact, pair(input.dataset[fact], count));
      }
    }
    if (value("#finish")) words.push("--finish", value("#finish"));
    if (value("#assist")) words.push("--assist", quote(value("#assist")));
    if ($("#missed-call") && $("#missed-call").checked) words.push("--missed-call");
    if (value("#shootout")) words.push("--shootout", quote(value("#shootout")));
    return words.join(" ");
  }

  function ready() {
    return mode === "places" ? order.length === seats.length : winner !== null;
  }

  function render(data) {
    const table = document.createElement("table");
    table.className = "preview-table";
    const head = table.createTHead().insertRow();
    for (const text of ["", t("cards"), t("penalty"), t("points")]) {
      const th = document.createElement("th");
      th.textContent = text;
      head.appendChild(th);
    }
    const body = table.createTBody();
    for (const p of data.players) {
      const row = body.insertRow();
      const cells = [p.name + (p.win ? " ★" : "") + (p.fried ? " " + t("fried") : ""), p.cards, p.penalty,
                     (p.net > 0 ? "+" : "") + p.net];
      cells.forEach((text, i) => {
        const cell = row.insertCell();
        cell.textContent = String(text);
        if (i > 0) cell.className = "num";
        if (i === 3) cell.classList.add(p.net > 0 ? "up" : (p.net < 0 ? "down" : "even"));
      });
    }
    preview.replaceChildren(table);
  }

  const problem = (text) => show(text, true);

  async function update() {
    for (const b of form.querySelectorAll("[data-winner]")) {
      b.setAttribute("aria-checked", String(b.dataset.winner === winner));
    }
    for (const row of form.querySelectorAll("#cards-left .stepper")) {
      row.classList.toggle("is-winner", row.dataset.player === winner);
      row.hidden = !!immediate();
    }
    if (mode === "places") {
      for (const b of form.querySelectorAll("[data-order]")) {
        const at = order.indexOf(b.dataset.order);
        b.setAttribute("aria-pressed", String(at >= 0));
        b.dataset.place = at >= 0 ? String(at + 1) : "";
      }
      document.getElementById("order-text").textContent = order.join(" → ");
    }
    const line = buildLine();
    lineBox.textContent = ready() ? line : "";
    confirm.disabled = true;
    if (!ready()) {
      preview.replaceChildren();
      const p = document.createElement("p");
      p.className = "meta";
      p.textContent = mode === "places" ? t("tap_order") : t("tap_winner");
      preview.appendChild(p);
      return;
    }
    const ticket = ++asked;
    try {
      const data = await get("/api/preview", { line });
      if (ticket !== asked) return;
      render(data);
      confirm.disabled = false;
    } catch (e) {
      if (ticket === asked) problem(e.message);
    }
  }

  function reset() {
    winner = null;
    order = [];
    amending = null;
    for (const input of form.querySelectorAll("input[type=number]")) input.value = "0";
    for (const box of form.querySelectorAll("input[type=checkbox]")) box.checked = false;
    for (const sel of form.querySelectorAll("select")) sel.value = "";
    confirm.textContent = t("record");
    cancel.hidden = true;
    title.textContent = t("deal", { n: nextDeal });
    update();
  }

  function load(no, facts) {  // a past deal into the form, to amend it
    reset();
    amending = no;
    const cards = facts.cards || {};
    if (facts.order) order = facts.order.slice();
    winner = facts.immediate_by || Object.keys(cards).find((n) => cards[n] === 0) || null;
    if (facts.immediate) {
      const box = form.querySelector(`[data-immediate="${CSS.escape(facts.immediate)}"]`);
      if (box) box.checked = true;
    }
    for (const [name, count] of Object.entries(cards)) {
      const input = form.querySelector(`[data-cards="${CSS.escape(name)}"]`);
      if (input) input.value = String(count);
    }
    for (const fact of ["twos", "bombs"]) {
      for (const [name, count] of Object.entries(facts[fact] || {})) {
        const input = form.querySelector(`[data-${fact}="${CSS.escape(name)}"]`);
        if (input) input.value = String(count);
      }
    }
    for (const key of ["finish", "assist", "shootout"]) {
      if (facts[key] && $("#" + key)) $("#" + key).value = facts[key];
    }
    if (facts.missed_call && $("#missed-call")) $("#missed-call").checked = true;
    title.textContent = t("fix", { n: no });
    confirm.textContent = t("save", { n: no });
    cancel.hidden = false;
    form.scrollIntoView({ behavior: "smooth" });
    update();
  }

  form.addEventListener("click", (event) => {
    const target = event.target.closest("button");
    if (!target || !form.contains(target)) return;
    if (target.dataset.winner !== undefined) {
      winner = target.dataset.winner;
      const input = form.querySelector(`[data-cards="${CSS.escape(winner)}"]`);
      if (input) input.value = "0";
      update();
    } else if (target.dataset.order !== undefined) {
      const name = target.dataset.order;
      order = order.includes(name) ? order.filter((n) => n !== name) : order.concat([name]);
      update();
    } else if (target.dataset.step !== undefined) {
      const input = target.parentElement.querySelector("input");
      const max = Number(input.max || hand);
      input.value = String(Math.min(max, Math.max(0, Number(input.value || 0) + Number(target.dataset.step))));
      update();
    }
  });
  form.addEventListener("input", update);
  form.addEventListener("change", update);
  cancel.addEventListener("click", reset);

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (confirm.disabled) return;
    confirm.disabled = true;
    try {
      const line = buildLine();
      const data = amending === null
        ? await post("/api/record", { line })
        : await post("/api/amend", { deal: amending, line });
      if (amending === null) nextDeal = data.deal + 1;
      reset();
      show(t(data.kind === "amend" ? "saved" : "recorded", { n: data.deal }));
    } catch (e) {
      problem(e.message);
      confirm.disabled = false;
    }
  });

  document.getElementById("end-session").addEventListener("click", async () => {
    if (!window.confirm(t("end_ask"))) return;
    try { await post("/api/end"); window.location.reload(); } catch (e) { problem(e.message); }
  });

  document.addEventListener("click", (event) => {
    const button = event.target.closest("[data-amend]");
    if (button) load(Number(button.dataset.amend), JSON.parse(button.dataset.facts));
  });

  document.addEventListener("bigtwo:update", (event) => {
    if (event.detail.next_deal) nextDeal = event.detail.next_deal;
    if (amending === null) title.textContent = t("deal", { n: nextDeal });
  });

  reset();
  showKept();  // after reset(), which writes its own hint there
})();
