// Deal numbers after an undo or a void (ledger/web/static/app/model-numbers.js). node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { gapBefore, takenBack } from "../../ledger/web/static/app/model-numbers.js";

test("deal 5 undone: the next is 6, and the gap before it is 5", () => {
  assert.deepEqual(gapBefore([4, 3, 2, 1], 6), [5]);
  assert.deepEqual(takenBack([1, 2, 3, 4], 6), [5]);
});

test("a void in the middle is a gap in the log, not before the next deal", () => {
  assert.deepEqual(gapBefore([1, 2, 4, 5], 6), []);
  assert.deepEqual(takenBack([5, 4, 2, 1], 6), [3]);
});

test("every deal taken back, and none played", () => {
  assert.deepEqual(gapBefore([], 3), [1, 2]);
  assert.deepEqual(gapBefore([], 1), []);
  assert.deepEqual(takenBack([], 1), []);
});
