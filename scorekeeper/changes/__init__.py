"""Changes to a game: the edits of its input document (``edits``)."""
