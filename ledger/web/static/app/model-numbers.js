// Deal numbers as players see them after an undo or a void. A deal's number is its
// identity — `bigtwo amend 5`, `void 5`, the log, a sync's "3 → 5" all name it — and a
// stored number is never rewritten, so the number after an undone deal 5 is 6. The page
// never shows a second numbering; it says the gap instead ("Deal 6 (deal 5 was taken
// back)"), and the log lists the taken-back numbers in their place (docs/offline.md).

/** Numbers from 1 to `next` − 1 that no live deal holds (undone or voided), ascending. */
export function takenBack(live, next) {
  const have = new Set(live);
  const out = [];
  for (let n = 1; n < next; n++) if (!have.has(n)) out.push(n);
  return out;
}

/** The run of taken-back numbers just before `next` (what the next deal's title explains). */
export function gapBefore(live, next) {
  const newest = live.length ? Math.max(...live) : 0;
  const out = [];
  for (let n = newest + 1; n < next; n++) out.push(n);
  return out;
}
