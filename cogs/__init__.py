"""Game cogs: each module is one game, loaded automatically."""
