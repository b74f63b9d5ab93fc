"""Numbered SQL migrations, one folder per database (sqlite/, postgres/) with the same numbers,
applied in order at start-up: SQLite records the last in PRAGMA user_version, PostgreSQL in the
boneyard_schema table."""
