"""gunicorn's settings for scorekeeper, read from the project folder (``make serve``, the
benchmarks).

Workers, address and logs are given on the command line; this file holds what a worker does.
"""

import gc
from typing import Any

#: Its access and error logs show a game's or group's token by its first characters only.
logger_class = "scorekeeper.web.logs.GunicornLogger"


def post_worker_init(worker: Any) -> None:
    """The app, its templates and the libraries a worker loads at start live as long as the worker:
    frozen, the garbage collector stops walking them again at every full collection (a pause of
    some 50 ms on a tap otherwise)."""
    gc.freeze()
