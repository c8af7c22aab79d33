"""Storage: the tables (games, their taps, groups), each request's connection, the changes to a
game's input document, and the caches kept by a game's version."""
