"""The schema of a new ledger, in plain SQL: written by scripts/make_schema.py from what
the migrations (ledger/storage/schema.py) make of an empty database; do not edit (a test
fails when it is stale).  ledger/storage/fresh.py runs it."""

VERSION = 12

# The migrations this schema is the result of, in order (_sqlite_migrations).
MIGRATIONS = (
    "m001_initial",
    "m002_session_totals",
    "m003_history_stats",
    "m004_player_events",
    "m005_every_action_an_entry",
    "m006_seasons",
    "m007_payments",
    "m008_indexes_looked_up",
    "m009_pay_ids",
    "m010_imports",
    "m011_seat_entries",
    "m012_sessions_by_start",
)

STATEMENTS = (
    """CREATE TABLE "_sqlite_migrations" (
   "id" INTEGER PRIMARY KEY,
   "migration_set" TEXT,
   "name" TEXT,
   "applied_at" TEXT
) STRICT""",
    """CREATE TABLE "players" (
   "id" INTEGER PRIMARY KEY,
   "name" TEXT NOT NULL,
   "created_at" TEXT NOT NULL
) STRICT""",
    """CREATE TABLE "sessions" (
   "id" INTEGER PRIMARY KEY,
   "uuid" TEXT NOT NULL,
   "name" TEXT NOT NULL,
   "rules_name" TEXT NOT NULL,
   "rules" TEXT NOT NULL,
   "stake" TEXT NOT NULL,
   "currency" TEXT,
   "teams" INTEGER NOT NULL,
   "started_at" TEXT NOT NULL) STRICT""",
    """CREATE TABLE "seats" (
   "session_id" INTEGER REFERENCES "sessions"("id"),
   "seat" INTEGER,
   "player_id" INTEGER NOT NULL REFERENCES "players"("id"),
   PRIMARY KEY ("session_id", "seat")
) STRICT""",
    """CREATE TABLE "points" (
   "id" INTEGER PRIMARY KEY,
   "entry_id" INTEGER NOT NULL REFERENCES "entries"("id"),
   "session_id" INTEGER NOT NULL REFERENCES "sessions"("id"),
   "player_id" INTEGER NOT NULL REFERENCES "players"("id"),
   "deals" INTEGER NOT NULL,
   "wins" INTEGER NOT NULL,
   "fried" INTEGER NOT NULL,
   "cards" INTEGER NOT NULL,
   "penalty" INTEGER NOT NULL,
   "net" INTEGER NOT NULL,
   "payee_id" INTEGER REFERENCES "players"("id")
) STRICT""",
    """CREATE TABLE "audit" (
   "id" INTEGER PRIMARY KEY,
   "at" TEXT NOT NULL,
   "action" TEXT NOT NULL,
   "session_id" INTEGER,
   "entry_id" INTEGER,
   "detail" TEXT NOT NULL
) STRICT""",
    """CREATE TABLE "settings" (
   "key" TEXT PRIMARY KEY,
   "value" TEXT NOT NULL
) STRICT""",
    """CREATE TABLE session_totals (
                session_id INTEGER NOT NULL REFERENCES sessions(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                deals INTEGER NOT NULL, wins INTEGER NOT NULL, fried INTEGER NOT NULL, cards INTEGER NOT NULL, penalty INTEGER NOT NULL, net INTEGER NOT NULL, PRIMARY KEY (session_id, player_id)) STRICT""",
    """CREATE TABLE session_flows (
                session_id INTEGER NOT NULL REFERENCES sessions(id),
                player_id INTEGER NOT NULL REFERENCES players(id),
                payee_id INTEGER NOT NULL REFERENCES players(id),
                net INTEGER NOT NULL, PRIMARY KEY (session_id, player_id, payee_id)) STRICT""",
    """CREATE TABLE derived_marks (name TEXT PRIMARY KEY,
                last_entry_id INTEGER NOT NULL, version TEXT NOT NULL) STRICT""",
    """CREATE TABLE deal_stats (
                session_id INTEGER NOT NULL, player_id INTEGER NOT NULL,
                deals INTEGER NOT NULL, assists INTEGER NOT NULL,
                worst_net INTEGER, worst_deal INTEGER, win_lead INTEGER NOT NULL, win_tail INTEGER NOT NULL, win_max INTEGER NOT NULL, loss_lead INTEGER NOT NULL, loss_tail INTEGER NOT NULL, loss_max INTEGER NOT NULL,
                cards_hist TEXT NOT NULL, penalty_hist TEXT NOT NULL,
                PRIMARY KEY (session_id, player_id)) STRICT""",
    """CREATE TABLE ratings (player_id INTEGER PRIMARY KEY, mu REAL NOT NULL,
                sigma REAL NOT NULL, deals INTEGER NOT NULL) STRICT""",
    """CREATE TABLE player_events (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('rename', 'merge', 'undo')),
                player_id INTEGER NOT NULL REFERENCES players(id),
                into_id INTEGER REFERENCES players(id),
                name TEXT,
                undoes INTEGER UNIQUE REFERENCES player_events(id),
                CHECK ((kind = 'rename') = (name IS NOT NULL)),
                CHECK ((kind = 'merge') = (into_id IS NOT NULL)),
                CHECK ((kind = 'undo') = (undoes IS NOT NULL))) STRICT""",
    """CREATE TABLE seasons (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('add', 'remove')),
                name TEXT NOT NULL, key TEXT NOT NULL, since TEXT, until TEXT,
                CHECK (kind = 'remove' OR since IS NOT NULL OR until IS NOT NULL),
                CHECK (since IS NULL OR until IS NULL OR since <= until)) STRICT""",
    """CREATE TABLE payments (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
                kind TEXT NOT NULL CHECK (kind IN ('payment', 'undo')),
                payer_id INTEGER REFERENCES players(id),
                payee_id INTEGER REFERENCES players(id),
                amount TEXT, currency TEXT,
                session_id INTEGER REFERENCES sessions(id),
                note TEXT,
                undoes TEXT UNIQUE REFERENCES payments(uuid),
                CHECK ((kind = 'payment') = (payer_id IS NOT NULL AND payee_id IS NOT NULL
                                             AND amount IS NOT NULL AND currency IS NOT NULL)),
                CHECK (payer_id IS NULL OR payer_id != payee_id),
                CHECK ((kind = 'undo') = (undoes IS NOT NULL))) STRICT""",
    """CREATE TABLE pay_ids (
            id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, created_at TEXT NOT NULL,
            kind TEXT NOT NULL CHECK (kind IN ('set', 'remove')),
            player_id INTEGER NOT NULL REFERENCES players(id),
            scheme TEXT NOT NULL CHECK (scheme IN ('fps', 'paynow', 'promptpay', 'text')),
            value TEXT CHECK (value IS NULL OR length(value) BETWEEN 1 AND 500),
            CHECK ((kind = 'set') = (value IS NOT NULL))) STRICT""",
    """CREATE TABLE imports (
                id INTEGER PRIMARY KEY, uuid TEXT NOT NULL UNIQUE, at TEXT NOT NULL,
                digest TEXT NOT NULL, name TEXT NOT NULL) STRICT""",
    """CREATE TABLE "entries" (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    seq INTEGER,
    kind TEXT NOT NULL
        CHECK (kind IN ('deal', 'amend', 'void', 'start', 'end', 'reopen', 'undo', 'seat')),
    deal_no INTEGER,
    facts TEXT,
    created_at TEXT NOT NULL,
    undoes TEXT REFERENCES entries(uuid),
    CHECK ((kind IN ('deal', 'amend', 'void')) = (seq IS NOT NULL AND deal_no IS NOT NULL)),
    CHECK (kind NOT IN ('deal', 'amend', 'seat') OR facts IS NOT NULL),
    CHECK (kind IN ('deal', 'amend', 'seat') OR facts IS NULL),
    CHECK (kind != 'undo' OR undoes IS NOT NULL)) STRICT""",
    """CREATE UNIQUE INDEX "idx__sqlite_migrations_migration_set_name"
    ON "_sqlite_migrations" ("migration_set", "name")""",
    """CREATE UNIQUE INDEX "idx_players_name"
    ON "players" ("name")""",
    """CREATE UNIQUE INDEX "idx_sessions_uuid"
    ON "sessions" ("uuid")""",
    """CREATE UNIQUE INDEX "idx_seats_session_id_player_id"
    ON "seats" ("session_id", "player_id")""",
    """CREATE INDEX "idx_seats_player_id"
    ON "seats" ("player_id")""",
    """CREATE INDEX "idx_points_entry_id"
    ON "points" ("entry_id")""",
    """CREATE INDEX idx_points_session_id ON points (session_id)""",
    """CREATE INDEX idx_seasons_key ON seasons (key, created_at, uuid)""",
    """CREATE INDEX idx_payments_order ON payments (created_at, uuid)""",
    """CREATE INDEX idx_payments_session ON payments (session_id)""",
    """CREATE INDEX idx_pay_ids_player ON pay_ids (player_id, scheme, created_at, uuid)""",
    """CREATE INDEX idx_entries_deal_order ON entries (session_id, deal_no, created_at, uuid)""",
    """CREATE INDEX idx_entries_order ON entries (session_id, created_at, uuid)""",
    """CREATE INDEX idx_entries_session_actions ON entries (session_id, created_at, uuid) WHERE seq IS NULL""",
    """CREATE UNIQUE INDEX idx_entries_session_id_seq ON entries (session_id, seq)""",
    """CREATE UNIQUE INDEX idx_entries_undoes ON entries (undoes) WHERE undoes IS NOT NULL""",
    """CREATE UNIQUE INDEX idx_entries_uuid ON entries (uuid)""",
    """CREATE INDEX idx_sessions_started ON sessions (started_at)""",
    """CREATE TRIGGER points_no_update BEFORE UPDATE ON points BEGIN SELECT RAISE(ABORT, 'points are append-only'); END""",
    """CREATE TRIGGER points_no_delete BEFORE DELETE ON points BEGIN SELECT RAISE(ABORT, 'points are append-only'); END""",
    """CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'audit are append-only'); END""",
    """CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'audit are append-only'); END""",
    """CREATE TRIGGER points_into_totals AFTER INSERT ON points BEGIN
                INSERT INTO session_totals (session_id, player_id, deals, wins, fried, cards, penalty, net)
                VALUES (NEW.session_id, NEW.player_id, NEW.deals, NEW.wins, NEW.fried, NEW.cards, NEW.penalty, NEW.net)
                ON CONFLICT (session_id, player_id) DO UPDATE SET deals = deals + excluded.deals, wins = wins + excluded.wins, fried = fried + excluded.fried, cards = cards + excluded.cards, penalty = penalty + excluded.penalty, net = net + excluded.net;
            END""",
    """CREATE TRIGGER points_into_flows AFTER INSERT ON points
               WHEN NEW.payee_id IS NOT NULL BEGIN
                INSERT INTO session_flows (session_id, player_id, payee_id, net)
                VALUES (NEW.session_id, NEW.player_id, NEW.payee_id, NEW.net)
                ON CONFLICT (session_id, player_id, payee_id) DO UPDATE SET net = net + excluded.net;
            END""",
    """CREATE TRIGGER player_events_no_update BEFORE UPDATE ON player_events BEGIN SELECT RAISE(ABORT, 'player_events are append-only'); END""",
    """CREATE TRIGGER player_events_no_delete BEFORE DELETE ON player_events BEGIN SELECT RAISE(ABORT, 'player_events are append-only'); END""",
    """CREATE TRIGGER sessions_no_update BEFORE UPDATE ON sessions BEGIN SELECT RAISE(ABORT, 'sessions are append-only'); END""",
    """CREATE TRIGGER sessions_no_delete BEFORE DELETE ON sessions BEGIN SELECT RAISE(ABORT, 'sessions are append-only'); END""",
    """CREATE TRIGGER seats_no_update BEFORE UPDATE ON seats BEGIN SELECT RAISE(ABORT, 'seats are append-only'); END""",
    """CREATE TRIGGER seats_no_delete BEFORE DELETE ON seats BEGIN SELECT RAISE(ABORT, 'seats are append-only'); END""",
    """CREATE TRIGGER seasons_no_update BEFORE UPDATE ON seasons BEGIN SELECT RAISE(ABORT, 'seasons are append-only'); END""",
    """CREATE TRIGGER seasons_no_delete BEFORE DELETE ON seasons BEGIN SELECT RAISE(ABORT, 'seasons are append-only'); END""",
    """CREATE TRIGGER payments_no_update BEFORE UPDATE ON payments BEGIN SELECT RAISE(ABORT, 'payments are append-only'); END""",
    """CREATE TRIGGER payments_no_delete BEFORE DELETE ON payments BEGIN SELECT RAISE(ABORT, 'payments are append-only'); END""",
    """CREATE TRIGGER pay_ids_no_update BEFORE UPDATE ON pay_ids BEGIN SELECT RAISE(ABORT, 'pay_ids are append-only'); END""",
    """CREATE TRIGGER pay_ids_no_delete BEFORE DELETE ON pay_ids BEGIN SELECT RAISE(ABORT, 'pay_ids are append-only'); END""",
    """CREATE TRIGGER imports_no_update BEFORE UPDATE ON imports BEGIN SELECT RAISE(ABORT, 'imports are append-only'); END""",
    """CREATE TRIGGER imports_no_delete BEFORE DELETE ON imports BEGIN SELECT RAISE(ABORT, 'imports are append-only'); END""",
    """CREATE TRIGGER entries_no_update BEFORE UPDATE ON entries BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END""",
    """CREATE TRIGGER entries_no_delete BEFORE DELETE ON entries BEGIN SELECT RAISE(ABORT, 'entries are append-only'); END""",
    """CREATE VIEW player_names (id, name, canon_id, own_name, typed_name) AS
               WITH RECURSIVE live AS (
                   SELECT e.id, e.kind, e.player_id, e.into_id, e.name FROM player_events e
                   WHERE e.kind != 'undo' AND NOT EXISTS (
                       SELECT 1 FROM player_events u WHERE u.undoes = e.id)),
               own AS (
                   SELECT p.id, p.name AS typed_name, COALESCE((
                       SELECT l.name FROM live l WHERE l.kind = 'rename' AND l.player_id = p.id
                       ORDER BY l.id DESC LIMIT 1), p.name) AS name
                   FROM players p),
               chain (id, canon, depth) AS (
                   SELECT id, id, 0 FROM players
                   UNION ALL
                   SELECT c.id, l.into_id, c.depth + 1 FROM chain c
                   JOIN live l ON l.kind = 'merge' AND l.player_id = c.canon
                   WHERE c.depth < 64),
               canon AS (SELECT id, canon, MAX(depth) FROM chain GROUP BY id)
               SELECT o.id, t.name, c.canon, o.name, o.typed_name
               FROM own o JOIN canon c ON c.id = o.id JOIN own t ON t.id = c.canon""",
)
