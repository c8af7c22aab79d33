"""The games of a device: the home page, a new game, importing a game file, backups, deleting,
and removing the games nobody played."""
