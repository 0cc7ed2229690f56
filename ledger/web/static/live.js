// Live updates: the server sends the rendered view whenever the ledger changes.
"use strict";
(function () {
  const t = window.bigtwoWords;
  const live = document.getElementById("live");
  const status = document.getElementById("status");
  if (!live) return;
  const view = live.dataset.view;
  let shownSession = live.dataset.session;
  let source = null;

  function say(text, bad) {
    if (!status) return;
    status.textContent = text;
    status.classList.toggle("bad", !!bad);
  }

  function connect() {
    source = new EventSource("/events/" + view);
    source.addEventListener("open", () => say(t("live")));
    source.addEventListener("update", (event) => {
      const data = JSON.parse(event.data);
      const session = data.session === null ? "" : String(data.session);
      const ended = data.ended ? "1" : "";
      if (view === "entry" && (session !== shownSession || ended !== (live.dataset.ended || ""))) {
        // another session, or it ended or reopened: the form's seats and rules change
        if (window.bigtwoBusy) window.bigtwoReload = true;  // after the undo's note is kept
        else window.location.reload();
        return;
      }
      shownSession = session;
      live.dataset.session = session;
      live.dataset.version = String(data.version);
      live.innerHTML = data.html;
      document.dispatchEvent(new CustomEvent("bigtwo:update", { detail: data }));
      say(t("updated", { time: new Date().toLocaleTimeString(document.documentElement.lang || undefined) }));
    });
    source.addEventListener("problem", (event) => {
      // The ledger file was moved away or replaced: show why, hide what is now stale
      // (the entry form, the last numbers) and stop listening.
      const data = JSON.parse(event.data);
      source.close();
      for (const other of live.parentElement.children) {
        if (other !== live) other.hidden = true;
      }
      live.innerHTML = data.html;
      live.dataset.session = "";
      say(t("stopped", { reason: data.error }), true);
    });
    source.addEventListener("error", () => {
      if (source.readyState === EventSource.CLOSED) say(t("stopped_reload"), true);
      else say(t("reconnecting"), true);
    });
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("#copy-text");
    if (!button) return;
    const text = document.getElementById("share-text").textContent;
    navigator.clipboard.writeText(text).then(
      () => { button.textContent = t("copied"); },
      () => { window.getSelection().selectAllChildren(document.getElementById("share-text")); }
    );
  });

  connect();
  window.addEventListener("pagehide", () => source && source.close());
})();
