"""A server's figures for one game (``/stats``): the games finished, their average length in moves
and in minutes (first move to last), how often each seat position wins at each player count, and
how each AI level fared against the people it played with. Results come from
:meth:`~bot.host.archive.Archive.results` (each finished game rebuilt once, then kept)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from engines.outcome import Outcome

from .archive import Archive
from .guides import GUIDE
from .store import SeatRow
from .store_archive import Timed

DEFAULT_LEVEL = "default"
"""How an AI seat added without a level is counted (the host's default level)."""


@dataclass
class Record:
    """An AI level's results against people: ahead of a person, behind one, level with one."""

    games: int = 0
    ahead: int = 0
    behind: int = 0
    level: int = 0


@dataclass
class Stats:
    """The figures of one game on one server (see the module docstring)."""

    kind: str
    games: int = 0
    moves: int = 0
    minutes: float = 0.0
    timed: int = 0  # games with a first and a last move time
    counted: int = 0  # games whose result is known (a log that still replays)
    by_players: dict[int, int] = field(default_factory=dict)  # player count -> games
    wins: dict[int, Counter[int]] = field(default_factory=dict)  # player count -> seat -> wins
    ai: dict[str, Record] = field(default_factory=dict)

    @property
    def average_moves(self) -> float:
        return self.moves / self.games if self.games else 0.0

    @property
    def average_minutes(self) -> float:
        return self.minutes / self.timed if self.timed else 0.0


async def stats(archive: Archive, guild_id: int | None, kind: str) -> Stats:
    """The figures of ``kind`` on server ``guild_id``. Guided games (``/learn``: a scripted
    lesson against the guide's AI seats) are left out: they are not games the server played."""
    found = await archive.store.finished_of_kind(guild_id, kind)
    seats = await archive.store.seats_of(t.row.id for t in found)
    found = [t for t in found if not any(s.ai_level == GUIDE for s in seats.get(t.row.id, []))]
    results = await archive.results([(t.row, len(seats.get(t.row.id, []))) for t in found])
    out = Stats(kind)
    for t in found:
        add_game(out, t, seats.get(t.row.id, []), results[t.row.id])
    return out


def add_game(out: Stats, t: Timed, seats: Sequence[SeatRow], outcome: Outcome | None) -> None:
    """Count the finished game ``t`` into ``out``."""
    out.games += 1
    out.moves += t.row.version
    if t.first is not None and t.last is not None:
        out.timed += 1
        out.minutes += (t.last - t.first) / 60
    if outcome is None:
        return
    n = len(outcome.ranks)
    out.counted += 1
    out.by_players[n] = out.by_players.get(n, 0) + 1
    out.wins.setdefault(n, Counter()).update(outcome.winners)
    people = [s.seat for s in seats if s.user_id is not None]
    for s in seats:
        if s.user_id is not None or not people or s.seat >= n:
            continue
        rec = out.ai.setdefault(s.ai_level or DEFAULT_LEVEL, Record())
        rec.games += 1
        for p in people:
            if p >= n:
                continue
            mine, theirs = outcome.ranks[s.seat], outcome.ranks[p]
            if mine < theirs:
                rec.ahead += 1
            elif mine > theirs:
                rec.behind += 1
            else:
                rec.level += 1


def counts(s: Stats) -> list[tuple[int, int, list[int]]]:
    """``(players, games, wins of each seat position)`` per player count (the picture's bars)."""
    return [(n, s.by_players[n], [s.wins[n][p] for p in range(n)]) for n in sorted(s.by_players)]


def levels(s: Stats) -> list[tuple[str, int, int, int, int]]:
    """``(level, seats, ahead, behind, level with)`` per AI level (the picture's bars)."""
    return [(k, r.games, r.ahead, r.behind, r.level) for k, r in sorted(s.ai.items())]
