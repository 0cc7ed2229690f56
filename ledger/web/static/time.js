// Stored times are UTC: show each <time datetime> as a date in the viewer's own time
// zone, written the way the page's language writes dates.
"use strict";
(function () {
  const lang = document.documentElement.lang || undefined;
  let format;
  try { format = new Intl.DateTimeFormat(lang, { dateStyle: "medium" }); }
  catch (e) { format = new Intl.DateTimeFormat(undefined, { dateStyle: "medium" }); }
  function local(root) {
    for (const el of root.querySelectorAll("time[datetime]")) {
      const when = new Date(el.getAttribute("datetime"));
      if (!Number.isNaN(when.getTime())) {
        el.textContent = format.format(when);
        el.title = when.toLocaleString(lang);
      }
    }
  }
  local(document);
  document.addEventListener("bigtwo:update", () => local(document));
})();
