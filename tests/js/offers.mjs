// Offers in the registry's shape ({name, word, kind, values, label}), as the engine sends
// them with the board (ledger/core/registry.py, offered_facts). The words here are the
// test's data: the app's JavaScript has none (tests/web/test_js_model.py greps it).

const offer = (name, word, kind, values = []) => ({ name, word, kind, values, label: name });

export const TWOS = offer("twos", "--twos", "counts");
export const BOMBS = offer("bombs", "--bombs", "counts");
export const FINISH = offer("finish", "--finish", "choice", ["two", "quads", "straight-flush"]);
export const ASSIST = offer("assist", "--assist", "loser");
export const MISSED = offer("missed_call", "--missed-call", "flag");
export const SHOOTOUT = offer("shootout", "--shootout", "player");
export const DRAGON = offer("dragon", "--dragon", "win");
export const FOUR_TWOS = offer("four_twos", "--four-twos", "win");
export const ORDER = offer("order", "--order", "players");

export const SEATS = ["Ann", "Ben", "Cat", "Dan"];
export const EVERY = [TWOS, BOMBS, FINISH, ASSIST, MISSED, DRAGON, FOUR_TWOS];
