"""Whether the ratings need computing again at start-up (:meth:`bot.host.ratings.Ratings.start`),
as a mixin of :class:`~bot.host.store_base.Store`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class RatingDue:
    """The start-up check of the ratings' tables (the store provides the query)."""

    async def _all(self, sql: str, args: Iterable[Any] = ()) -> list[tuple[Any, ...]]:
        raise NotImplementedError

    async def rating_due(self) -> bool:
        """True when a finished game has no recorded result, or a rated result changed no
        rating (its results were recorded but the rating that follows was cut short, e.g. by a
        stop during the first start's catch-up): everything must be rated again."""
        rows = await self._all(
            "SELECT 1 WHERE EXISTS (SELECT 1 FROM games WHERE status = 'finished' "
            "AND id NOT IN (SELECT game_id FROM game_results)) "
            "OR EXISTS (SELECT 1 FROM game_results g WHERE g.ladder <> 'unrated' "
            "AND NOT EXISTS (SELECT 1 FROM rating_changes c WHERE c.game_id = g.game_id))"
        )
        return bool(rows)
