-- The same as sqlite/0009_interactions_by_id.sql.
DROP INDEX interactions_at
