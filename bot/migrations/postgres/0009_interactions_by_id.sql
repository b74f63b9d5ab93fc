-- An interaction's id is a Discord snowflake, which counts milliseconds: the old ones are the
-- ids below a time's first id, found by the primary key. The index on their time cost every
-- click one more tree to write, for a deletion once in six hours.
DROP INDEX interactions_at
