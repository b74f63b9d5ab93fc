-- The servers the slash commands were last synced to one by one (DEV_GUILD_ID). A later start
-- without that server clears its copies, so no command shows there twice once the global ones
-- reach it.
CREATE TABLE command_guilds (
    guild_id  BIGINT  PRIMARY KEY
);
