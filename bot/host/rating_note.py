"""The line a finished game's final sheet shows of its ratings: each person's rating before and
after (this server's table, or the global one for a game outside a server), and a new best."""

from __future__ import annotations

from collections.abc import Sequence

from .store_ratings import ChangeRow

HEAD = "📈 Ratings"


def note(changes: Sequence[ChangeRow], guild_id: int | None) -> str:
    """``📈 Ratings (this server): {s0} 1000 → 1186 (+186, new best) · {s1} 1000 → 941 (-59)``,
    with ``{s<seat>}`` tokens for the names; "" when the game changed no rating."""
    scope = guild_id or 0
    shown = sorted((c for c in changes if c.scope == scope), key=lambda c: c.seat)
    if not shown:
        return ""
    table = " against the AI" if shown[0].ladder == "ai" else ""
    where = "this server" if scope else "all servers"
    parts = []
    for c in shown:
        who = "{s%d}" % c.seat if c.user_id is not None else c.player.replace("ai:", "AI ")
        was = c.was if c.was is not None else c.now
        best = ", new best" if c.new_best and c.user_id is not None else ""
        parts.append(f"{who} {was} → {c.now} ({c.now - was:+d}{best})")
    return f"{HEAD}{table} ({where}): " + " · ".join(parts)
