-- /game log groups moves by the turn or round they belong to.
ALTER TABLE actions ADD COLUMN chapter TEXT NOT NULL DEFAULT ''
