// The page's words in its language. They come from the engine (the server's catalog,
// ledger/engine/lang.py's WORDS), the one source of words for every front end.

let words = {};

export function setWords(table) {
  words = table || {};
}

/** t("deal", {n: 3}) -> "Deal 3" / "第 3 鋪": the {placeholders} filled in. */
export function t(key, values) {
  const text = key in words ? words[key] : key;
  return text.replace(/\{(\w+)\}/g, (all, name) => (values && name in values ? String(values[name]) : all));
}
