// The page's words in its language: the server renders them as JSON into the page.
"use strict";
window.bigtwoWords = (function () {
  const box = document.getElementById("words");
  let words = {};
  try { words = box ? JSON.parse(box.textContent) : {}; } catch (e) { words = {}; }
  // t("deal", {n: 3}) -> "Deal 3" / "第 3 鋪": the {placeholders} filled in.
  return function t(key, values) {
    const text = words[key] || key;
    return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
  };
})();
