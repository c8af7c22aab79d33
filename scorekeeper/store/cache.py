"""A small in-process cache: each worker keeps what it rendered or replayed most recently."""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable, Hashable
from threading import Lock
from typing import Generic, TypeVar

V = TypeVar("V")


class LRU(Generic[V]):
    """A small least-recently-used map, safe to share between a worker's threads."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._items: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = Lock()

    def find(self, key: Hashable) -> V | None:
        """The value kept for ``key``, or None."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        return None

    def put(self, key: Hashable, value: V) -> None:
        """Keep ``value`` for ``key``."""
        with self._lock:
            self._items[key] = value
            self._items.move_to_end(key)
            while len(self._items) > self.size:
                self._items.popitem(last=False)

    def get(self, key: Hashable, make: Callable[[], V]) -> V:
        """The value kept for ``key``, made (outside the lock) and kept when missing."""
        with self._lock:
            if key in self._items:
                self._items.move_to_end(key)
                return self._items[key]
        value = make()
        self.put(key, value)
        return value
