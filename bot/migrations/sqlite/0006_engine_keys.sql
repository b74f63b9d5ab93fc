-- Every game's key is its package's name: Roll the Bones was stored as "roll-the-bones".
UPDATE games SET game = 'roll_the_bones',
    table_json = replace(table_json, '"game":"roll-the-bones"', '"game":"roll_the_bones"')
    WHERE game = 'roll-the-bones';
UPDATE results SET game = 'roll_the_bones' WHERE game = 'roll-the-bones'
