// The engine's ops, written by scripts/make_ops.py from their declarations in
// ledger/engine/ops.py: do not edit (a test fails when this file is stale).
// Each op: its name, GET (a read) or POST (a write), and its arguments in
// order (the idempotency key of a write travels apart).
export const OPS = [
  {"name": "sessions", "method": "GET", "write": false, "args": [{"name": "q", "kind": "text", "required": false, "limit": 200}, {"name": "before", "kind": "text", "required": false, "limit": 100}, {"name": "limit", "kind": "int", "required": false, "limit": null}]},
  {"name": "session", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "board", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "standings", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "log", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "deals", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "settle", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "round", "kind": "text", "required": false, "limit": 20}, {"name": "pay_codes", "kind": "bool", "required": false, "limit": null}]},
  {"name": "history", "method": "GET", "write": false, "args": [{"name": "player", "kind": "text", "required": false, "limit": 200}]},
  {"name": "presets", "method": "GET", "write": false, "args": []},
  {"name": "last_setup", "method": "GET", "write": false, "args": []},
  {"name": "preview", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "line", "kind": "text", "required": true, "limit": 2000}]},
  {"name": "undo_preview", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "export", "method": "GET", "write": false, "args": [{"name": "session", "kind": "session", "required": false, "limit": null}, {"name": "pay_ids", "kind": "bool", "required": false, "limit": null}]},
  {"name": "record", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "line", "kind": "text", "required": true, "limit": 2000}]},
  {"name": "amend", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "line", "kind": "text", "required": true, "limit": 2000}, {"name": "deal", "kind": "int", "required": false, "limit": null}, {"name": "deal_uuid", "kind": "text", "required": false, "limit": 100}]},
  {"name": "void", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "deal", "kind": "int", "required": false, "limit": null}, {"name": "deal_uuid", "kind": "text", "required": false, "limit": 100}]},
  {"name": "undo", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "seat", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "action", "kind": "text", "required": true, "limit": 20}, {"name": "players", "kind": "names", "required": true, "limit": 2000}, {"name": "sit_out", "kind": "bool", "required": false, "limit": null}, {"name": "from_deal", "kind": "int", "required": false, "limit": null}]},
  {"name": "start", "method": "POST", "write": true, "args": [{"name": "players", "kind": "names", "required": true, "limit": 2000}, {"name": "rules", "kind": "text", "required": false, "limit": 100}, {"name": "house", "kind": "object", "required": false, "limit": null}, {"name": "rule_set", "kind": "object", "required": false, "limit": null}, {"name": "stake", "kind": "text", "required": false, "limit": 40}, {"name": "currency", "kind": "text", "required": false, "limit": 20}, {"name": "name", "kind": "text", "required": false, "limit": 2000}, {"name": "teams", "kind": "bool", "required": false, "limit": null}]},
  {"name": "end", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "reopen", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}]},
  {"name": "import", "method": "POST", "write": true, "args": [{"name": "text", "kind": "text", "required": true, "limit": null}, {"name": "name", "kind": "text", "required": false, "limit": 200}]},
  {"name": "pay", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "from", "kind": "text", "required": true, "limit": 200}, {"name": "to", "kind": "text", "required": true, "limit": 200}, {"name": "amount", "kind": "text", "required": true, "limit": 40}, {"name": "currency", "kind": "text", "required": false, "limit": 20}, {"name": "note", "kind": "text", "required": false, "limit": 400}]},
  {"name": "unpay", "method": "POST", "write": true, "args": [{"name": "session", "kind": "session", "required": true, "limit": null}, {"name": "payment", "kind": "text", "required": true, "limit": 100}]},
  {"name": "set_pay_id", "method": "POST", "write": true, "args": [{"name": "player", "kind": "text", "required": true, "limit": 200}, {"name": "scheme", "kind": "text", "required": true, "limit": 20}, {"name": "id", "kind": "text", "required": true, "limit": 400}]},
];
