// The deal draft (ledger/web/static/app/model-draft.js) without a browser: node --test tests/js
import { test } from "node:test";
import assert from "node:assert/strict";
import { DealDraft, quote } from "../../ledger/web/static/app/model-draft.js";
import { ASSIST, BOMBS, DRAGON, EVERY, FINISH, FOUR_TWOS, ORDER, SEATS, SHOOTOUT, TWOS } from "./offers.mjs";

const draft = (offers = EVERY, seats = SEATS) => new DealDraft({ seats, handSize: 13, offers });

/** Tap the winner, then the keypad for the others in seat order. */
function typed(d, winner, counts) {
  d.tapPlayer(winner);
  for (const k of counts) d.tapKey(k);
  return d;
}

test("a plain deal: the winner with 0, every other player's cards left in seat order", () => {
  const d = draft([]);
  assert.equal(d.ready(), false);
  assert.equal(d.hint(), "tap_winner");
  d.tapPlayer("Cat");
  assert.equal(d.target, "Ann");
  assert.equal(d.hint(), "tap_counts");
  d.tapKey(3);
  d.tapKey(11);
  assert.equal(d.ready(), false);
  assert.equal(d.target, "Dan");
  d.tapKey(8);
  assert.equal(d.ready(), true);
  assert.equal(d.target, null);
  assert.equal(d.line(), "Ann=3 Ben=11 Cat=0 Dan=8");
});

test("a chip aims the keypad at one player, and a tap replaces that count", () => {
  const d = typed(draft([]), "Ann", [1, 2, 3]);
  d.aim("Cat");
  d.tapKey(9);
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=9 Dan=3");
  d.aim("Ann"); // the winner is no target
  assert.equal(d.target, null);
});

test("choosing another winner drops that player's count and asks for the missing one", () => {
  const d = typed(draft([]), "Ann", [1, 2, 3]);
  d.tapPlayer("Ben");
  assert.equal(d.ready(), false);
  assert.equal(d.target, "Ann");
  d.tapKey(4);
  assert.equal(d.line(), "Ann=4 Ben=0 Cat=2 Dan=3");
});

test("counts facts: WORD NAME=K for each loser holding any, never the winner", () => {
  const d = typed(draft(), "Ann", [1, 2, 3]);
  d.setCount("twos", "Ben", 2);
  d.setCount("twos", "Cat", 0);
  d.setCount("bombs", "Dan", 1);
  assert.equal(d.countOf("twos", "Ben"), 2);
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=2 Dan=3 --twos Ben=2 --bombs Dan=1");
  d.tapPlayer("Ben"); // Ben won after all: his twos are no penalty
  d.tapKey(5);
  assert.equal(d.line(), "Ann=5 Ben=0 Cat=2 Dan=3 --bombs Dan=1");
  assert.equal(d.most(), 4);
});

test("a choice fact: one of its values, a second tap clears it; a value not offered is not written", () => {
  const d = typed(draft(), "Ann", [1, 2, 3]);
  d.toggle("finish", "straight-flush");
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=2 Dan=3 --finish straight-flush");
  d.toggle("finish", "quads");
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=2 Dan=3 --finish quads");
  d.toggle("finish", "quads");
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=2 Dan=3");
  const forbidden = { ...FINISH, values: ["quads", "straight-flush"] };
  const e = typed(draft([forbidden]), "Ann", [1, 2, 3]);
  e.facts.finish = "two";
  assert.equal(e.line(), "Ann=0 Ben=1 Cat=2 Dan=3");
});

test("a player fact and a flag", () => {
  const d = typed(draft(), "Cat", [1, 7, 4]);
  d.toggle("assist", "Dan");
  d.toggle("missed_call", true);
  assert.equal(d.line(), "Ann=1 Ben=7 Cat=0 Dan=4 --assist Dan --missed-call");
  d.toggle("missed_call", true);
  d.toggle("assist", "Ben");
  assert.equal(d.line(), "Ann=1 Ben=7 Cat=0 Dan=4 --assist Ben");
  const teams = typed(draft([SHOOTOUT]), "Ann", [2, 2, 5]);
  teams.toggle("shootout", "Cat");
  assert.equal(teams.line(), "Ann=0 Ben=2 Cat=2 Dan=5 --shootout Cat");
  teams.toggle("shootout", "Ann"); // any player: the winner's own team may win a shoot-out
  assert.equal(teams.line(), "Ann=0 Ben=2 Cat=2 Dan=5 --shootout Ann");
  assert.deepEqual(teams.named(SHOOTOUT), SEATS);
});

test("a loser fact names no winner: one who becomes the winner is not written", () => {
  const d = draft([ASSIST]);
  assert.deepEqual(d.named(ASSIST), []);
  typed(d, "Cat", [1, 7, 4]);
  assert.deepEqual(d.named(ASSIST), ["Ann", "Ben", "Dan"]);
  d.toggle("assist", "Dan");
  d.tapPlayer("Dan");
  d.tapKey(4);
  assert.equal(d.line(), "Ann=1 Ben=7 Cat=4 Dan=0");
});

test("an offer without a word or kind (kept from an older engine) is left out", () => {
  const d = draft([{ name: "assist", option: "--assist", kind: "player" }, TWOS]);
  assert.deepEqual(d.offers.map((o) => o.name), ["twos"]);
});

test("facts the rules do not offer are never written", () => {
  const d = typed(draft([ASSIST]), "Ann", [1, 2, 3]);
  d.toggle("missed_call", true);
  d.setCount("twos", "Ben", 1);
  assert.equal(d.line(), "Ann=0 Ben=1 Cat=2 Dan=3");
});

test("an immediate win (kind win): WORD WINNER alone, ready with no counts, one at a time", () => {
  const d = draft();
  d.tapPlayer("Ben");
  d.toggle("dragon", true);
  assert.equal(d.win.name, "dragon");
  assert.equal(d.ready(), true);
  assert.equal(d.line(), "--dragon Ben");
  d.toggle("four_twos", true);
  assert.equal(d.line(), "--four-twos Ben");
  assert.equal(d.facts.dragon, undefined);
  d.toggle("four_twos", true);
  assert.equal(d.win, null);
  assert.equal(d.ready(), false);
});

test("the words come from the offers: a renamed word is written as offered", () => {
  const renamed = { ...DRAGON, word: "--tongzilong" };
  const d = draft([renamed, { ...TWOS, word: "--deuces" }]);
  d.tapPlayer("Dan");
  d.toggle("dragon", true);
  assert.equal(d.line(), "--tongzilong Dan");
  d.toggle("dragon", true);
  for (const k of [1, 2, 3]) d.tapKey(k);
  d.setCount("twos", "Ann", 1);
  assert.equal(d.line(), "Ann=1 Ben=2 Cat=3 Dan=0 --deuces Ann=1");
});

test("places mode (a players offer): tap the finishing order, a second tap takes one out", () => {
  const d = draft([ORDER]);
  assert.equal(d.byOrder, true);
  assert.equal(d.hint(), "tap_order");
  for (const n of ["Cat", "Ann", "Dan"]) d.tapPlayer(n);
  assert.equal(d.ready(), false);
  d.tapPlayer("Ann");
  assert.deepEqual(d.order, ["Cat", "Dan"]);
  d.tapPlayer("Ann");
  d.tapPlayer("Ben");
  assert.equal(d.line(), "--order Cat,Dan,Ann,Ben");
  assert.deepEqual(d.extras, []);
});

test("names with spaces, quotes or Chinese characters survive the grammar", () => {
  assert.equal(quote("陳大文"), "陳大文");
  assert.equal(quote("Ann Lee"), "'Ann Lee'");
  assert.equal(quote("O'Neil"), "'O'\"'\"'Neil'");
  assert.equal(quote("-x"), "'-x'");
  assert.equal(quote("a=b"), "'a=b'");
  assert.equal(quote("全形\u3000空格"), "'全形\u3000空格'");
  const seats = ["陳大文", "Ann Lee", "O'Neil", "Dan"];
  const d = typed(draft(EVERY, seats), "Ann Lee", [1, 2, 3]);
  d.toggle("assist", "O'Neil");
  d.setCount("twos", "陳大文", 1);
  assert.equal(d.line(), "陳大文=1 'Ann Lee'=0 'O'\"'\"'Neil'=2 Dan=3 --twos 陳大文=1 --assist 'O'\"'\"'Neil'");
  const p = draft([ORDER], seats);
  for (const n of seats) p.tapPlayer(n);
  assert.equal(p.line(), "--order 陳大文,'Ann Lee','O'\"'\"'Neil',Dan");
});

test("amend: the draft of a recorded deal from its stored facts writes it again", () => {
  const stored = { cards: { Ann: 1, Ben: 0, Cat: 7, Dan: 4 }, twos: { Cat: 2 }, bombs: { Dan: 1 },
    finish: "quads", assist: "Cat", missed_call: true };
  const d = DealDraft.fromFacts(stored, { seats: SEATS, handSize: 13, offers: EVERY });
  assert.equal(d.winner, "Ben");
  assert.equal(d.ready(), true);
  assert.equal(d.line(), "Ann=1 Ben=0 Cat=7 Dan=4 --twos Cat=2 --bombs Dan=1 --finish quads --assist Cat --missed-call");
  d.tapKey(0); // no target: nothing changes
  d.aim("Cat");
  d.tapKey(9);
  assert.equal(d.counts.Cat, 9);
  assert.deepEqual(stored.twos, { Cat: 2 }); // the stored facts are not changed by the draft
});

test("amend an immediate win and a places deal from their stored facts", () => {
  const win = DealDraft.fromFacts({ cards: { Ann: 13, Ben: 0, Cat: 13, Dan: 13 }, immediate: "four-twos", immediate_by: "Ben" },
    { seats: SEATS, handSize: 13, offers: EVERY });
  assert.equal(win.line(), "--four-twos Ben");
  const places = DealDraft.fromFacts({ order: ["Dan", "Ann", "Ben", "Cat"] }, { seats: SEATS, handSize: 13, offers: [ORDER] });
  assert.equal(places.line(), "--order Dan,Ann,Ben,Cat");
  // A fact the rules no longer offer is left out; a stored win they no longer offer leaves the cards.
  const old = DealDraft.fromFacts({ cards: { Ann: 0, Ben: 3, Cat: 2, Dan: 1 }, missed_call: true },
    { seats: SEATS, handSize: 13, offers: [FOUR_TWOS, BOMBS] });
  assert.equal(old.line(), "Ann=0 Ben=3 Cat=2 Dan=1");
});

test("clear: a new deal after Record starts empty", () => {
  const d = typed(draft(), "Ann", [1, 2, 3]);
  d.toggle("missed_call", true);
  d.clear();
  assert.deepEqual([d.winner, d.counts, d.facts, d.order], [null, {}, {}, []]);
  assert.equal(d.ready(), false);
});
