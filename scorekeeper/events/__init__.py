"""Club nights (EVENTS.md): several tables at once, seated again each round, one ranking."""
