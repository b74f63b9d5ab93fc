-- Every question the deadline loop asks of the timers is one of deadlines_next's expression:
-- "due and claimed by nobody" is MAX(due_at, COALESCE(claimed_until, 0)) up to a time. An
-- index on due_at alone cost every timed click one more tree to write, for nothing.
DROP INDEX deadlines_due
