-- The journal's schema after migration 8 (_8_sent_lines: the digests of sent mail's lines, issue 26).
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS inputs (
    id INTEGER PRIMARY KEY,
    source TEXT NOT NULL,                 -- 'mail', 'form' or 'cli' (an organiser's command, JSON)
    source_id TEXT NOT NULL UNIQUE,       -- maildir key, imap uid, form row key, cli:<time>:<n>
    message_id TEXT NOT NULL,             -- Message-ID (or the form row key): dedup across sources
    received_at TEXT NOT NULL,
    raw BLOB NOT NULL,
    status TEXT NOT NULL DEFAULT 'new',   -- new | used | ignored | unreadable | duplicate
    game TEXT, player TEXT, phase_key TEXT, note TEXT
);
CREATE INDEX IF NOT EXISTS inputs_message_id ON inputs (message_id);
-- The tick's hot queries never scan a table that grows with history (tests/test_journal_plan.py).
CREATE INDEX IF NOT EXISTS inputs_pending ON inputs (received_at, id) WHERE status = 'new';
CREATE TABLE IF NOT EXISTS games (
    id TEXT PRIMARY KEY,
    ruleset TEXT NOT NULL,
    seed TEXT NOT NULL,
    setup TEXT NOT NULL,                  -- JSON: players and options given to setup()
    state TEXT NOT NULL,                  -- JSON: the current state, immediates applied
    phase_key TEXT NOT NULL,
    opened_at TEXT NOT NULL,
    deadline TEXT,
    finished INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS submissions (
    id INTEGER PRIMARY KEY,
    game TEXT NOT NULL, phase_key TEXT NOT NULL, player TEXT NOT NULL,
    input_id INTEGER NOT NULL REFERENCES inputs (id),
    received_at TEXT NOT NULL,
    text TEXT NOT NULL,
    parsed TEXT NOT NULL,                 -- JSON Submission as parsed from this message
    standing TEXT NOT NULL,               -- JSON Submission that stands after it
    kind TEXT NOT NULL DEFAULT 'orders',  -- 'orders', 'join' (text = the role), 'amend' (JSON option)
    void INTEGER NOT NULL DEFAULT 0       -- 1: its phase was undone by a rollback
);
CREATE INDEX IF NOT EXISTS submissions_phase ON submissions (game, phase_key);
CREATE TABLE IF NOT EXISTS rounds (
    game TEXT NOT NULL, phase_key TEXT NOT NULL,
    resolved_at TEXT NOT NULL,
    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,
    events TEXT NOT NULL,
    PRIMARY KEY (game, phase_key)         -- a round is resolved at most once, ever
);
CREATE TABLE IF NOT EXISTS undone_rounds (  -- rounds a rollback took back, kept for the record
    game TEXT NOT NULL, phase_key TEXT NOT NULL,
    resolved_at TEXT NOT NULL, undone_at TEXT NOT NULL,
    state_before TEXT NOT NULL, submissions TEXT NOT NULL, state_after TEXT NOT NULL,
    events TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS outbox (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,             -- what this mail is: queued at most once
    message_id TEXT NOT NULL,
    game TEXT, kind TEXT NOT NULL, recipient TEXT NOT NULL,
    raw BLOB NOT NULL,
    created_at TEXT NOT NULL,
    status TEXT NOT NULL DEFAULT 'queued', -- queued | sent | failed
    attempts INTEGER NOT NULL DEFAULT 0,
    sent_at TEXT, error TEXT,
    tried_at TEXT                         -- the last failed attempt: the next waits (courier/send.py)
);
CREATE INDEX IF NOT EXISTS outbox_queued ON outbox (id) WHERE status = 'queued';
CREATE INDEX IF NOT EXISTS outbox_kept ON outbox (sent_at) WHERE status = 'sent' AND length(raw) > 0;
CREATE TABLE IF NOT EXISTS outbox_pictures (  -- each picture of unsent mail once (compose.journal_bytes)
    key TEXT PRIMARY KEY,
    data BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS sent_lines (  -- each sent mail's line digests (courier/mail/own_lines.py)
    id INTEGER PRIMARY KEY,
    message_id TEXT NOT NULL,
    recipient TEXT NOT NULL,             -- the address, lower case
    game TEXT NOT NULL,                  -- '' for a mail of no game
    created_at TEXT NOT NULL,
    prints BLOB NOT NULL                 -- SentLines.pack(): a kind byte and a digest per line
);
CREATE INDEX IF NOT EXISTS sent_lines_to ON sent_lines (recipient, game, id);
