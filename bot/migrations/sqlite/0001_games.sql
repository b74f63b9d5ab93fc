CREATE TABLE games (
    id          INTEGER PRIMARY KEY,
    guild_id    INTEGER NOT NULL,
    channel_id  INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    status      TEXT    NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
    version     INTEGER NOT NULL,
    table_json  TEXT    NOT NULL,
    created_at  REAL    NOT NULL,
    updated_at  REAL    NOT NULL
);
-- One live game per channel, enforced by the store itself, not only by the code that asks.
CREATE UNIQUE INDEX games_live_channel ON games (channel_id) WHERE status IN ('lobby', 'active');

CREATE TABLE actions (
    game_id  INTEGER NOT NULL REFERENCES games (id),
    version  INTEGER NOT NULL,
    seat     INTEGER,
    user_id  INTEGER,
    action   TEXT    NOT NULL,
    events   TEXT    NOT NULL,
    at       REAL    NOT NULL,
    PRIMARY KEY (game_id, version)
);

CREATE TABLE interactions (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL,
    at       REAL    NOT NULL
);

CREATE TABLE deadlines (
    game_id  INTEGER PRIMARY KEY REFERENCES games (id),
    version  INTEGER NOT NULL,
    due_at   REAL    NOT NULL
);
CREATE INDEX deadlines_due ON deadlines (due_at);

CREATE TABLE results (
    game_id     INTEGER NOT NULL REFERENCES games (id),
    guild_id    INTEGER NOT NULL,
    game        TEXT    NOT NULL,
    seat        INTEGER NOT NULL,
    user_id     INTEGER,
    rank        INTEGER NOT NULL,
    score       INTEGER,
    finished_at REAL    NOT NULL,
    PRIMARY KEY (game_id, seat)
);
CREATE INDEX results_player ON results (guild_id, user_id);
