"""The store's error."""

from __future__ import annotations


class StoreError(Exception):
    """The store cannot be opened or used; the message names the store and the reason."""
