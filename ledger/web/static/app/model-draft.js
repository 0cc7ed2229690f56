// The model of a deal being entered: who won, every other player's cards left, and the
// deal facts the engine offers under the session's rules. Pure: no DOM, no engine, no
// storage; the board screen draws it, node --test (tests/js) checks it.
//
// The facts come from the engine as the registry offers them (ledger/core/registry.py,
// `offered_facts`): {name, word, kind, values, label}. The draft writes each one on the
// deal line with the offer's own `word`, by its `kind`:
//   counts   WORD NAME=K, once per player holding any (twos, bombs)
//   choice   WORD VALUE, one of `values` (finish)
//   player   WORD NAME, any seated player (shootout)
//   loser    WORD NAME, a player other than the winner (assist)
//   flag     WORD (missed call)
//   win      WORD NAME alone: that player won at once, no cards left (dragon, four twos)
//   players  WORD A,B,C,D: the finishing order, in places mode
// so this file knows the grammar's shape (NAME=CARDS, quoting) and no option word: the
// engine's deal grammar (ledger/core/deal_line.py) stays the one parser of every line.

/** Quote a name as a shell would, so names with spaces or quotes survive the grammar. */
export function quote(text) {
  return /^[^\s'"\\#=,-][^\s'"\\#=,]*$/.test(text) ? text : "'" + text.replace(/'/g, "'\"'\"'") + "'";
}

export class DealDraft {
  /** `seats` in seat order, `handSize` the most cards a loser holds, `offers` the
   * engine's offered facts; a `players` offer makes this a deal by finishing order. */
  constructor({ seats, handSize, offers }) {
    this.seats = seats.slice();
    this.handSize = handSize;
    // An offer without a word or kind (an answer kept from an older engine) is left out.
    this.offers = (offers || []).filter((o) => o && o.word && o.kind);
    this.clear();
  }

  clear() {
    this.winner = null;
    this.counts = {};   // loser -> cards left
    this.target = null; // the loser the keypad types for
    this.order = [];    // places mode: first out first
    this.facts = {};    // offer name -> {player: k} | value | player | true
  }

  offer(name) { return this.offers.find((o) => o.name === name) || null; }
  get orderOffer() { return this.offers.find((o) => o.kind === "players") || null; }
  get byOrder() { return this.orderOffer !== null; }
  /** The offers drawn beside the keypad (all but the finishing order). */
  get extras() { return this.offers.filter((o) => o.kind !== "players"); }
  /** The immediate win chosen (an offer of kind `win`), or null. */
  get win() { return this.offers.find((o) => o.kind === "win" && this.facts[o.name]) || null; }
  get losers() { return this.seats.filter((n) => n !== this.winner); }
  /** The most a loser can hold of a counted fact (four twos; a bomb takes four cards). */
  most() { return Math.min(4, this.handSize); }

  /** A tap on a player: the winner, or (places mode) the next place, a second tap
   * taking that player out of the order. */
  tapPlayer(name) {
    if (this.byOrder) {
      this.order = this.order.includes(name) ? this.order.filter((x) => x !== name) : this.order.concat([name]);
      return;
    }
    this.winner = name;
    delete this.counts[name];
    this.target = this.losers.find((x) => !Number.isInteger(this.counts[x])) || null;
  }

  /** A key of the keypad: the target's cards left, then on to the next player in seat
   * order still without a count (as a paper sheet's columns are filled in). */
  tapKey(k) {
    if (!this.target) return;
    this.counts[this.target] = k;
    const order = this.losers;
    const at = order.indexOf(this.target);
    const rest = order.slice(at + 1).concat(order.slice(0, at));
    this.target = rest.find((x) => !Number.isInteger(this.counts[x])) || null;
  }

  aim(name) { if (this.losers.includes(name)) this.target = name; }

  /** A counted fact (twos, bombs) of one player. */
  setCount(name, player, k) {
    this.facts[name] = { ...(this.facts[name] || {}), [player]: k };
  }

  countOf(name, player) { return (this.facts[name] || {})[player] || 0; }

  /** The players a `player` or `loser` fact may name. */
  named(offer) { return offer.kind === "loser" ? (this.winner ? this.losers : []) : this.seats; }

  /** A choice, player or win fact set to `value`, or cleared by a second tap on it; a
   * flag switched. One immediate win at a time. */
  toggle(name, value) {
    const o = this.offer(name);
    if (!o) return;
    if (o.kind === "flag" || o.kind === "win") {
      const on = !this.facts[name];
      if (o.kind === "win") for (const w of this.offers) if (w.kind === "win") delete this.facts[w.name];
      if (on) this.facts[name] = true; else delete this.facts[name];
      return;
    }
    if (this.facts[name] === value) delete this.facts[name]; else this.facts[name] = value;
  }

  ready() {
    if (this.byOrder) return this.order.length === this.seats.length;
    if (!this.winner) return false;
    if (this.win) return true;
    return this.losers.every((n) => Number.isInteger(this.counts[n]));
  }

  /** What the entry asks for next: a key of the page's words. */
  hint() {
    if (this.byOrder) return "tap_order";
    return this.winner ? "tap_counts" : "tap_winner";
  }

  /** The deal line, in the command line's grammar, of a ready draft. */
  line() {
    if (this.byOrder) return this.orderOffer.word + " " + this.order.map(quote).join(",");
    const win = this.win;
    if (win) return win.word + " " + quote(this.winner);
    const words = this.seats.map((n) => quote(n) + "=" + (n === this.winner ? 0 : this.counts[n]));
    for (const o of this.extras) {
      const value = this.facts[o.name];
      if (value === undefined || value === null || value === "" || value === false) continue;
      if (o.kind === "counts") {
        for (const n of this.losers) {
          const k = value[n] || 0;
          if (k > 0) words.push(o.word, quote(n) + "=" + k);
        }
      } else if (o.kind === "choice") {
        if ((o.values || []).includes(value)) words.push(o.word, quote(value));
      } else if (o.kind === "player" || o.kind === "loser") {
        if (this.named(o).includes(value)) words.push(o.word, quote(value));
      } else if (o.kind === "flag") {
        words.push(o.word);
      }
    }
    return words.join(" ");
  }

  /** The draft of a recorded deal, from its stored facts (to amend it): the keys are
   * the offers' names; an immediate win is stored as `immediate` (its name, with
   * dashes) and `immediate_by`. */
  static fromFacts(stored, options) {
    const d = new DealDraft(options);
    const facts = stored || {};
    if (d.byOrder) {
      d.order = (facts[d.orderOffer.name] || []).filter((n) => d.seats.includes(n));
      return d;
    }
    const win = facts.immediate && d.offers.find((o) => o.kind === "win" && o.name === facts.immediate.replace(/-/g, "_"));
    if (win) {
      d.winner = facts.immediate_by || null;
      d.facts[win.name] = true;
    } else {
      const cards = facts.cards || {};
      d.winner = d.seats.find((n) => cards[n] === 0) || null;
      for (const n of d.losers) if (Number.isInteger(cards[n])) d.counts[n] = cards[n];
    }
    for (const o of d.extras) {
      const value = facts[o.name];
      if (value === undefined || value === null || value === false) continue;
      if (o.kind === "counts" && typeof value === "object") d.facts[o.name] = { ...value };
      else if (o.kind === "flag") d.facts[o.name] = true;
      else if (o.kind === "choice" || o.kind === "player" || o.kind === "loser") d.facts[o.name] = value;
    }
    return d;
  }
}
