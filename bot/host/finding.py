"""Finding games for a command: the game a command in a channel or thread is about (by number,
or the one open there, preferring the caller's), and the open games of a guild to list; both
only where the member can see (:data:`Sees`)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from . import replay
from .live import Listing, LiveGame, Refusal
from .parsing import game_number, no_game_here
from .store import GameRow, Store

Sees = Callable[[GameRow], bool]
"""Whether the member asking may see where a game is played (its thread, else its channel)."""


async def find(
    store: Store,
    get: Callable[[int], Awaitable[LiveGame]],
    *,
    guild_id: int | None,
    channel_id: int,
    user_id: int,
    game_id: int | None = None,
    sees: Sees | None = None,
) -> LiveGame:
    """The game a command in ``channel_id`` is about: ``game_id`` if given (it must belong to
    the guild and be played where the member can see, by ``sees``), else the open game
    played in this channel or thread, preferring games the user sits in. Raises
    :class:`Refusal` when none or several match; for a number, one refusal whether the game
    exists elsewhere or not, said before anything of the game is loaded."""
    if game_id is not None:
        number = game_number(game_id)
        row = await store.game(number)
        if row is None or row.guild_id != guild_id or (sees is not None and not sees(row)):
            raise Refusal(no_game_here(number))
        return await get(number)
    rows = [
        r
        for r in await store.games(place_id=channel_id)
        if r.status in ("lobby", "active") or r.thread_id == channel_id
    ]
    if not rows:
        raise Refusal(
            "There is no game in this channel. Start one with `/game new`, or pass "
            "`game:` with its number (see `/game list`)."
        )
    games = [await get(r.id) for r in rows]
    if len(games) > 1:
        mine = [g for g in games if g.seat_of(user_id)]
        games = mine or games
    if len(games) > 1:
        active = [g for g in games if g.row.status == "active"]
        games = active if len(active) == 1 else games
    if len(games) > 1:
        ids = ", ".join(f"#{g.id}" for g in games)
        raise Refusal(f"Several games are running here ({ids}): add `game:` with the number.")
    return games[0]


async def listings(store: Store, guild_id: int | None, sees: Sees | None = None) -> list[Listing]:
    """Open (lobby or active) games of a guild played where the member can see (``sees``),
    by id: two reads (the rows, then every listed game's seats at once); no game is loaded
    or replayed for it."""
    rows = await store.games(statuses=["lobby", "active"], guild_id=guild_id)
    if sees is not None:
        rows = [r for r in rows if sees(r)]
    seats = await store.seats_of([r.id for r in rows])
    return [Listing(r, seats.get(r.id, []), replay.engine_of(r.kind)) for r in rows]
