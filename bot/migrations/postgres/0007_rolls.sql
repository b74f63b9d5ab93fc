-- The same as sqlite/0007_rolls.sql.
CREATE TABLE server_settings (
    guild_id       BIGINT  PRIMARY KEY,
    settings_json  TEXT    NOT NULL
);

CREATE TABLE saved_rolls (
    guild_id    BIGINT           NOT NULL,
    user_id     BIGINT           NOT NULL,
    name        TEXT             NOT NULL,
    roll_json   TEXT             NOT NULL,
    updated_at  DOUBLE PRECISION NOT NULL,
    PRIMARY KEY (guild_id, user_id, name)
);

CREATE TABLE rolls (
    id         BIGSERIAL        PRIMARY KEY,
    guild_id   BIGINT           NOT NULL,
    user_id    BIGINT           NOT NULL,
    n          BIGINT           NOT NULL,
    hidden     BOOLEAN          NOT NULL,
    revealed   BOOLEAN          NOT NULL DEFAULT FALSE,
    at         DOUBLE PRECISION NOT NULL,
    roll_json  TEXT             NOT NULL
);
CREATE INDEX rolls_player ON rolls (guild_id, user_id, n, hidden);

CREATE TABLE roll_faces (
    roll_id   BIGINT   NOT NULL REFERENCES rolls (id) ON DELETE CASCADE,
    guild_id  BIGINT   NOT NULL,
    user_id   BIGINT   NOT NULL,
    hidden    BOOLEAN  NOT NULL,
    sides     INTEGER  NOT NULL,
    face      INTEGER  NOT NULL,
    count     INTEGER  NOT NULL,
    PRIMARY KEY (roll_id, sides, face)
);
CREATE INDEX roll_faces_player ON roll_faces (guild_id, user_id, hidden, sides, face, count)
