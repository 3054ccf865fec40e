"""The columns of the Dip Pouch results and DCI matches tables (INTERFACES.md), in a module of
their own so that what only needs to recognise a table (``xlrating ingest`` judging a file by its
columns) does not load the rating engines."""

from __future__ import annotations

from xlrating.core.tables import Column

DIPPOUCH_RESULT_COLUMNS = (
    Column("event", "text"),
    Column("date", "date"),
    Column("players", "whole"),
    Column("rounds", "whole"),
    Column("player", "text"),
    Column("place", "whole"),
    Column("world_championship", "flag", required=False),
)

DIPPOUCH_SHOWN_COLUMNS = (
    # What the store keeps for the public pages beside the rating (``ingest`` checks and stores them;
    # the ratings, ``rank`` and the table functions ignore them): the player's nationality and
    # tournament score, and where the event was played (the same on each of its rows).
    Column("country", "country", required=False, aliases=("nationality",)),
    Column("score", "score", required=False),
    Column("location", "text", required=False),
)

DCI_MATCH_COLUMNS = (
    Column("date", "date"),
    Column("round", "whole"),
    Column("player", "text"),
    Column("opponent", "text", required=False),
    Column("result", "result"),
    Column("event", "text", required=False),
    Column("k", "number", required=False),
    Column("tier", "k", required=False),
    Column("category", "text", required=False),
)

DCI_SHOWN_COLUMNS = (
    # What the store keeps for the public pages beside the matches (``ingest`` checks and stores
    # them; the ratings, ``rank`` and the table functions ignore them): the nationality of the
    # player and of the opponent of the row, as in the Dip Pouch table's ``country``.
    Column("player_country", "country", required=False, aliases=("player_nationality",)),
    Column("opponent_country", "country", required=False, aliases=("opponent_nationality",)),
)
