"""Numbered SQL migrations, applied in order at start-up; PRAGMA user_version records the last."""
