"""Looking back at stored games: a game's public board at any move (``/replay``), a person's last
games (``/history``) and a server's figures per game (``/stats``, in :mod:`bot.host.gamestats`).

A replay shows what a spectator saw: ``engine.view(state, None)`` and the public twin of each
event, never a state, a hand or the bag. The states come from the host's one rebuild of a game
(:func:`engines.base.replay_steps`, as loading uses it), kept along the log for the last
:data:`KEPT` games looked at (:class:`Timeline`), so stepping through a game costs a view, not a
replay; a running game's timeline is rebuilt only once someone asks for a move it does not
hold yet. A finished game's result is rebuilt once and kept in the store (the table
``outcomes``: :meth:`Archive.results`).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from engines import base
from engines.outcome import Outcome
from render import caption

from .live import Refusal
from .replay import Missing, engine_of
from .store import GameRow, MoveRow, SeatRow, Store

KEPT = 8
"""How many games' timelines (every state along the log) are kept."""
HELD = 20_000
"""How many games' results are held in memory (all are kept in the store)."""
JUMPS = 25
"""The most moves the jump menu offers (Discord's limit of options)."""
NEAR = 6
"""The moves on either side of the one shown that the jump menu always offers."""

Sees = Callable[[GameRow], bool] | None


@dataclass(frozen=True)
class Timeline:
    """A game rebuilt along its log: ``states[k]`` after move ``k`` (0: the setup), and the
    events of each move (``events[0]``: the setup's)."""

    moves: tuple[tuple[int, str], ...]
    states: tuple[Any, ...]
    events: tuple[tuple[base.Event, ...], ...]


@dataclass(frozen=True)
class Frame:
    """What a replay shows at one move: the public ``view`` (and ``previous``, the one before,
    for the marks), the public ``lines`` of that move, the moves the jump menu offers with their
    labels, and the result once the last move of a finished game is shown."""

    game_id: int
    kind: str
    title: str
    names: tuple[str, ...]
    status: str
    move: int
    last: int
    view: dict[str, Any]
    previous: dict[str, Any] | None
    lines: tuple[caption.Line, ...]
    jumps: tuple[tuple[int, str], ...]
    result: str


@dataclass(frozen=True)
class Past:
    """One game of a person's history: its row, its seats' names, and how it went for them."""

    row: GameRow
    title: str
    names: tuple[str, ...]
    result: str


HISTORY = 10
"""How many games ``/history`` lists (two rows of replay buttons)."""


class Archive:
    """Replays, histories and outcomes of stored games (see the module docstring)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.timelines: OrderedDict[int, Timeline] = OrderedDict()
        self.outcomes: dict[int, Outcome | None] = {}

    async def row(self, game_id: int, guild_id: int | None, sees: Sees = None) -> GameRow:
        """The started game ``game_id`` of this server that the asker may see. Raises
        :class:`Refusal` for another server's, a hidden place's, or a lobby."""
        row = await self.store.game(game_id)
        if row is None or row.guild_id != guild_id or (sees is not None and not sees(row)):
            raise Refusal(f"There is no game #{game_id} on this server.")
        if row.version == 0:
            raise Refusal(f"Game #{game_id} has no move yet: there is nothing to replay.")
        return row

    async def frame(self, game_id: int, move: int | None, guild_id: int | None, sees: Sees = None) -> Frame:
        """The replay of ``game_id`` at ``move`` (clamped to the moves stored; None: the
        last). Raises :class:`Refusal`."""
        row = await self.row(game_id, guild_id, sees)
        engine = engine_of(row.kind)
        if isinstance(engine, Missing):
            raise Refusal(f"Game #{game_id} is a game of {row.kind}, which this bot no longer has.")
        seats = await self.store.seats(game_id)
        last = row.version
        k = last if move is None else max(0, min(move, last))
        line = await self.timeline(row, seats, k)
        names = tuple(s.name for s in seats)
        state = line.states[k]
        outcome = engine.outcome(state) if k == last and row.status == "finished" else None
        if outcome is not None:
            self.outcomes[game_id] = outcome
        return Frame(
            game_id=game_id,
            kind=engine.name,
            title=f"{engine.title} #{game_id}",
            names=names,
            status=row.status,
            move=k,
            last=last,
            view=dict(engine.view(state, None)),
            previous=dict(engine.view(line.states[k - 1], None)) if k > 0 else None,
            lines=tuple(caption.step_lines(line.moves[k - 1][0] if k else None, line.events[k], names)),
            jumps=tuple((j, label_of(line, j, names)) for j in jumps(k, last)),
            result=result_text(outcome, names) if outcome is not None else "",
        )

    async def timeline(self, row: GameRow, seats: Sequence[SeatRow], upto: int) -> Timeline:
        """The timeline of ``row``'s game holding at least ``upto`` moves: the kept one, or
        rebuilt from the stored log (in a worker thread). Raises :class:`Refusal` when the log no
        longer replays."""
        kept = self.timelines.get(row.id)
        if kept is not None and len(kept.moves) >= upto:
            self.timelines.move_to_end(row.id)
            return kept
        moves = await self.store.moves(row.id)
        try:
            line = await asyncio.to_thread(rebuild, row, len(seats), moves)
        except Exception as err:  # a rules change or an engine bug: say so, show nothing
            raise Refusal(f"Game #{row.id} no longer replays, so it cannot be shown.") from err
        self.timelines[row.id] = line
        while len(self.timelines) > KEPT:
            self.timelines.popitem(last=False)
        return line

    async def history(
        self, guild_id: int | None, user_id: int, sees: Sees = None, *, limit: int = HISTORY
    ) -> list[Past]:
        """``user_id``'s last ``limit`` started games on this server that the asker may see."""
        rows = [
            r
            for r in await self.store.games_of_user(guild_id, user_id, limit=limit * 2)
            if sees is None or sees(r)
        ]
        rows = rows[:limit]
        seats = await self.store.seats_of(r.id for r in rows)
        results = await self.results([(r, len(seats.get(r.id, []))) for r in rows])
        out = []
        for r in rows:
            mine = seats.get(r.id, [])
            engine = engine_of(r.kind)
            outcome = results[r.id]
            seat = next((s.seat for s in mine if s.user_id == user_id), None)
            out.append(
                Past(r, f"{engine.title} #{r.id}", tuple(s.name for s in mine), how_it_went(r, outcome, seat))
            )
        return out

    async def outcome(self, row: GameRow, players: int) -> Outcome | None:
        """The result of the finished game ``row`` (see :meth:`results`)."""
        return (await self.results([(row, players)]))[row.id]

    async def results(self, games: Sequence[tuple[GameRow, int]]) -> dict[int, Outcome | None]:
        """The result of each game ``(row, players)``: None for a game not finished, or whose
        log no longer replays; else the one held, or kept in the store, or rebuilt from the log
        (in a worker thread) and kept there, so each game is rebuilt for its result once."""
        wanted = [(r, n) for r, n in games if r.status == "finished" and r.id not in self.outcomes]
        kept = await self.store.outcomes_of(r.id for r, _ in wanted) if wanted else {}
        for r, n in wanted:
            if r.id in kept:
                self.outcomes[r.id] = outcome_of(kept[r.id])
                continue
            moves = await self.store.moves(r.id)
            try:
                found = await asyncio.to_thread(final_outcome, r, n, moves)
            except Exception:  # not kept: the engine of a later version may replay it
                found = None
            self.outcomes[r.id] = found
            if len(self.outcomes) > HELD:  # the store keeps them all: hold the newest
                del self.outcomes[next(iter(self.outcomes))]
            if found is not None:
                await self.store.keep_outcome(r.id, found.as_dict())
        return {r.id: self.outcomes.get(r.id) if r.status == "finished" else None for r, _ in games}


def rebuild(row: GameRow, players: int, moves: Sequence[MoveRow]) -> Timeline:
    """``row``'s game along its ``moves`` by the host's one rebuild (CPU only)."""
    engine = base.get(row.kind)
    states: list[Any] = []
    events: list[tuple[base.Event, ...]] = []
    log = tuple((m.seat, m.action) for m in moves)
    for state, played in base.replay_steps(engine, row.seed, players, row.options, log):
        states.append(state)
        events.append(tuple(engine.events_on_setup(state)) if played is None else tuple(played.events))
    return Timeline(log, tuple(states), tuple(events))


def final_outcome(row: GameRow, players: int, moves: Sequence[MoveRow]) -> Outcome | None:
    """The outcome of ``row``'s game after its whole log (CPU only)."""
    engine = base.get(row.kind)
    state = base.replay(engine, row.seed, players, row.options, [(m.seat, m.action) for m in moves])
    return engine.outcome(state)


def outcome_of(kept: dict[str, Any]) -> Outcome:
    """An :class:`Outcome` from what ``Outcome.as_dict()`` gave (as the store keeps it)."""
    return Outcome(
        tuple(kept["ranks"]),
        tuple(kept["scores"]),
        tuple(kept["categories"]),
        tuple(kept["breakdown"]),
        tuple(kept["winners"]),
        tuple(kept.get("notes", ())),
    )


def jumps(move: int, last: int) -> list[int]:
    """The moves the jump menu offers at ``move`` of ``last``: every one when they fit, else
    those within :data:`NEAR` of it and the rest spread evenly over the game."""
    if last < JUMPS:
        return list(range(last + 1))
    near = set(range(max(0, move - NEAR), min(last, move + NEAR) + 1))
    spread = JUMPS - len(near)
    picks = near | {round(i * last / (spread - 1)) for i in range(spread)}
    while len(picks) > JUMPS:  # spread points that fell into the near ones' place
        far = max((p for p in picks if p not in near and p not in (0, last)), key=lambda p: abs(p - move))
        picks.discard(far)
    return sorted(picks)


def label_of(line: Timeline, move: int, names: Sequence[str]) -> str:
    """A jump menu's label for ``move``: its number and what a spectator read of it."""
    if move == 0:
        return "Start: the setup"
    seen = caption.step_lines(line.moves[move - 1][0], line.events[move], names)
    said = seen[0].text if seen else base.format_text(f"{{s{line.moves[move - 1][0]}}} moved", names)
    return f"Move {move}: {said}"[:100]


def result_text(outcome: Outcome, names: Sequence[str]) -> str:
    """The result of a finished game in one line: each seat by rank, with its score."""
    order = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
    parts = []
    for s in order:
        score = outcome.scores[s] if s < len(outcome.scores) else None
        shown = f" ({score})" if score is not None else ""
        parts.append(f"{ordinal(outcome.ranks[s])} {names[s] if s < len(names) else f'Seat {s + 1}'}{shown}")
    return "Result: " + ", ".join(parts)


def how_it_went(row: GameRow, outcome: Outcome | None, seat: int | None) -> str:
    """How game ``row`` went for ``seat``: its rank and score, or why there is none."""
    if row.status == "active":
        return f"running (move {row.version})"
    if row.status == "ended":
        return f"ended early at move {row.version}"
    if outcome is None or seat is None or seat >= len(outcome.ranks):
        return "finished"
    rank = outcome.ranks[seat]
    tied = sum(1 for r in outcome.ranks if r == rank) > 1
    score = outcome.scores[seat] if seat < len(outcome.scores) else None
    place = ("won" if not tied else "tied 1st") if rank == 1 else ("tied " if tied else "") + ordinal(rank)
    return place + (f" with {score}" if score is not None else "")


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th…"""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"
