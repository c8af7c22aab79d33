"""Changes at the table (RULES.md §7): arrivals, departures, sitting out, the plan of hand sizes,
the rules and the end of a game under way."""
