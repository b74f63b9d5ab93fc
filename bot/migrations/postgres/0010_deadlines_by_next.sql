-- The same as sqlite/0010_deadlines_by_next.sql.
DROP INDEX deadlines_due
