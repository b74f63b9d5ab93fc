-- The same as sqlite/0005_books.sql, in PostgreSQL's JSON functions.
CREATE TABLE books (
    game_id    BIGINT  PRIMARY KEY REFERENCES games (id),
    book_json  TEXT    NOT NULL
);
INSERT INTO books (game_id, book_json)
SELECT id, jsonb_build_object(
    'message_id', table_json::jsonb -> 'message_id',
    'shown', version,
    'chapter', COALESCE(table_json::jsonb ->> 'chapter', ''),
    'turn_events', COALESCE(table_json::jsonb -> 'turn_events', '[]'::jsonb),
    'dm_copies', COALESCE(table_json::jsonb -> 'dm_copies', '{}'::jsonb)
)::text FROM games WHERE status IN ('lobby', 'active');
CREATE INDEX interactions_at ON interactions (at)
