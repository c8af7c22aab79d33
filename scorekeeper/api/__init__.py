"""The JSON API (GAME-FILE.md): the game file in, the export out."""
