-- The same as sqlite/0008_bounded_data.sql.
CREATE TABLE player_stats (
    user_id   BIGINT   NOT NULL,
    guild_id  BIGINT   NOT NULL,
    game      TEXT     NOT NULL,
    played    INTEGER  NOT NULL,
    won       INTEGER  NOT NULL,
    PRIMARY KEY (user_id, guild_id, game)
);
CREATE INDEX player_stats_board ON player_stats (guild_id, game, won DESC, played, user_id);
INSERT INTO player_stats (user_id, guild_id, game, played, won)
SELECT user_id, guild_id, game, COUNT(*), SUM(CASE WHEN rank = 1 THEN 1 ELSE 0 END) FROM results
    WHERE user_id IS NOT NULL GROUP BY user_id, guild_id, game;

CREATE INDEX results_user ON results (user_id);
CREATE INDEX rolls_user ON rolls (user_id);
CREATE INDEX saved_rolls_user ON saved_rolls (user_id);

CREATE INDEX games_ended ON games (status, updated_at);
CREATE INDEX games_guild ON games (guild_id);
CREATE INDEX deadlines_next ON deadlines (GREATEST(due_at, COALESCE(claimed_until, 0)));

CREATE TABLE guilds_left (
    guild_id  BIGINT            PRIMARY KEY,
    left_at   DOUBLE PRECISION  NOT NULL
)
