-- A deadline is claimed by the process that fires it (kept for symmetry with PostgreSQL, where
-- several processes look at the same deadlines).
ALTER TABLE deadlines ADD COLUMN claimed_until REAL
