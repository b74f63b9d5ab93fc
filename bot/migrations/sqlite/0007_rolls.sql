-- A server's own settings (its GM role for now), one JSON document per server.
CREATE TABLE server_settings (
    guild_id       INTEGER PRIMARY KEY,
    settings_json  TEXT    NOT NULL
);

-- Saved rolls: a player's own (guild_id 0, theirs everywhere) or a server's shared ones (user_id 0).
CREATE TABLE saved_rolls (
    guild_id    INTEGER NOT NULL,
    user_id     INTEGER NOT NULL,
    name        TEXT    NOT NULL,
    roll_json   TEXT    NOT NULL,
    updated_at  REAL    NOT NULL,
    PRIMARY KEY (guild_id, user_id, name)
);

-- Every roll made, per place (guild_id 0: DMs and private channels) and player. n counts the
-- player's rolls there: history reads the newest n, pruning deletes the oldest, counting reads the
-- index alone.
CREATE TABLE rolls (
    id         INTEGER PRIMARY KEY,
    guild_id   INTEGER NOT NULL,
    user_id    INTEGER NOT NULL,
    n          INTEGER NOT NULL,
    hidden     INTEGER NOT NULL,
    revealed   INTEGER NOT NULL DEFAULT 0,
    at         REAL    NOT NULL,
    roll_json  TEXT    NOT NULL
);
CREATE INDEX rolls_player ON rolls (guild_id, user_id, n, hidden);

-- How often each face came up in each roll, for /rolls stats: summed from the index alone.
CREATE TABLE roll_faces (
    roll_id   INTEGER NOT NULL REFERENCES rolls (id) ON DELETE CASCADE,
    guild_id  INTEGER NOT NULL,
    user_id   INTEGER NOT NULL,
    hidden    INTEGER NOT NULL,
    sides     INTEGER NOT NULL,
    face      INTEGER NOT NULL,
    count     INTEGER NOT NULL,
    PRIMARY KEY (roll_id, sides, face)
);
CREATE INDEX roll_faces_player ON roll_faces (guild_id, user_id, hidden, sides, face, count)
