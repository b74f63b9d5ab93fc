-- A deadline is claimed by the one process that fires it; another takes it over only once the
-- claim has run out (its process died while applying it).
ALTER TABLE deadlines ADD COLUMN claimed_until DOUBLE PRECISION
