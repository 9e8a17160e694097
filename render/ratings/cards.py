"""What the ratings' pictures show, as plain values the host fills (``bot.host.standings``) and
the renderer draws (:mod:`render.ratings.leaderboard`, :mod:`render.ratings.profile`)."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Line:
    """One player on a table: place (ties share), name, rating, games, wins; ``me``: the asker."""

    place: int
    name: str
    rating: int
    games: int
    wins: int
    me: bool = False


@dataclass(frozen=True)
class Board:
    """A table's top players and the asker's own line (None: not on it; else shown below the
    top when not among them), with how many are on it."""

    game: str
    where: str
    ladder: str
    top: tuple[Line, ...]
    mine: Line | None
    total: int


@dataclass(frozen=True)
class Standing:
    """A person's standing on one table of their profile."""

    game: str
    ladder: str
    rating: int
    place: int
    total: int
    games: int
    wins: int
    best: int
    best_game: int


@dataclass(frozen=True)
class Played:
    """One of a person's last rated games."""

    game_id: int
    game: str
    ladder: str
    place: int
    players: int
    was: int | None
    now: int
    at: float


@dataclass(frozen=True)
class Profile:
    """A person's card: their tables, the trend of their most played one (oldest first), their
    best rating reached (and where), and their last games."""

    name: str
    where: str
    standings: tuple[Standing, ...]
    trend_game: str
    trend: tuple[int, ...]
    best: Standing | None
    last: tuple[Played, ...]
