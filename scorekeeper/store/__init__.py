"""Storage: the tables (games, their taps, groups), each request's connection, and the caches
kept by a game's version."""
