-- /game stats and the leaderboard read per-server totals, kept up to date in the same
-- transaction that writes a game's results, so they cost the same at 100 or 100,000 games.
-- Keyed by player first: forgetting a player finds their rows at once.
CREATE TABLE player_stats (
    user_id   INTEGER NOT NULL,
    guild_id  INTEGER NOT NULL,
    game      TEXT    NOT NULL,
    played    INTEGER NOT NULL,
    won       INTEGER NOT NULL,
    PRIMARY KEY (user_id, guild_id, game)
) WITHOUT ROWID;
-- a server's leaderboard reads each game's best players from here, first rows only
CREATE INDEX player_stats_board ON player_stats (guild_id, game, won DESC, played, user_id);
INSERT INTO player_stats (user_id, guild_id, game, played, won)
SELECT user_id, guild_id, game, COUNT(*), COALESCE(SUM(rank = 1), 0) FROM results
    WHERE user_id IS NOT NULL GROUP BY user_id, guild_id, game;

-- A player asking to be forgotten: their seats, their rolls and their saved rolls.
CREATE INDEX results_user ON results (user_id);
CREATE INDEX rolls_user ON rolls (user_id);
CREATE INDEX saved_rolls_user ON saved_rolls (user_id);

-- Pruning finds the games that ended long ago, and the metrics count games by status.
CREATE INDEX games_ended ON games (status, updated_at);
-- A server forgotten: its games.
CREATE INDEX games_guild ON games (guild_id);
-- The deadline loop asks for the next time to look, claimed or not, without reading every timer.
CREATE INDEX deadlines_next ON deadlines (MAX(due_at, COALESCE(claimed_until, 0)));

-- Servers the bot was removed from, and since when: their data goes after a grace period,
-- unless the bot comes back first.
CREATE TABLE guilds_left (
    guild_id  INTEGER PRIMARY KEY,
    left_at   REAL    NOT NULL
)
