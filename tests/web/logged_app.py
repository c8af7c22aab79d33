"""The app as a server runs it, for the log tests: one more route, which fails in the database.

``/g/<token>/crash`` stores the game of that link a second time under the same tokens, as a bug
might: the INSERT is refused (UNIQUE), and the error's message and traceback go to the server's log.
"""

from __future__ import annotations

from flask import Flask

from scorekeeper import create_app as create_scorekeeper
from scorekeeper.store.games import StoredGame, find_game


def create_app(database: str) -> Flask:
    """The app on this database, with the failing route."""
    app = create_scorekeeper({"SECRET_KEY": "logs", "SQLALCHEMY_DATABASE_URI": database})

    @app.get("/g/<token>/crash")
    def crash(token: str) -> str:
        game, _editable = find_game(token)
        assert game is not None
        StoredGame.create(game.load(), (game.token, game.view_token))
        return "stored twice"

    return app
