"""The rules of Oh Hell in pure Python: schedules, bidding, scoring, games, stakes, game files."""
