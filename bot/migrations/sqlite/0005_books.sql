-- What the channel shows of a game (its live message, DM copies, the history being gathered) is
-- kept apart from the game, written after delivery without the game's version.
CREATE TABLE books (
    game_id    INTEGER PRIMARY KEY REFERENCES games (id),
    book_json  TEXT    NOT NULL
);
INSERT INTO books (game_id, book_json)
SELECT id, json_object(
    'message_id', json_extract(table_json, '$.message_id'),
    'shown', version,
    'chapter', COALESCE(json_extract(table_json, '$.chapter'), ''),
    'turn_events', json(COALESCE(json_extract(table_json, '$.turn_events'), '[]')),
    'dm_copies', json(COALESCE(json_extract(table_json, '$.dm_copies'), '{}'))
) FROM games WHERE status IN ('lobby', 'active');
-- the clean-up at start-up deletes old interaction ids by time
CREATE INDEX interactions_at ON interactions (at)
