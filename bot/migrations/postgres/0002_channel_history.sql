-- /game log and /game rules also answer for the game a channel finished last.
CREATE INDEX games_channel ON games (channel_id, id);
