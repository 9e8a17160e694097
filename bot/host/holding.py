"""How many games stay in memory: the least recently used game that nothing is using is dropped
once more than the quota are held (a running one goes back to the dormant rows its turn clock is
kept from), and any of them is loaded again on use."""

from __future__ import annotations

from .live import LiveGame
from .store import GameRow


def trim(games: dict[int, LiveGame], dormant: dict[int, GameRow], limit: int) -> None:
    """Keep at most ``limit`` (0: no limit) of ``games`` (least recently used first): drop the
    oldest that are :func:`idle`, never the one just held; a running game's row goes to
    ``dormant``."""
    if not limit or len(games) <= limit:
        return
    for gid, game in list(games.items())[:-1]:  # never the one just held
        if len(games) <= limit:
            break
        if idle(game):
            del games[gid]
            if game.row.status == "active":
                dormant[gid] = game.row


def idle(game: LiveGame) -> bool:
    """Whether nothing is using a held game (it may be dropped from memory and loaded again)."""
    return not (
        game.lock.locked()
        or game.publish_lock.locked()
        or game.start_lock.locked()
        or game.pending
        or game.outboxes
        or game.notes
        or game.started
        or game.closed
        or game.relist
        or game.thinking
    )
