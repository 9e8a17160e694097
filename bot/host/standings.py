"""What ``/leaderboard`` and ``/profile`` show, read from the ratings' tables (see
:mod:`bot.host.ratings`): plain values for the renderer (``render/ratings``) and the text answers.
"""

from __future__ import annotations

from engines import base
from render.ratings.cards import Board, Line, Played, Profile, Standing

from .names import shown
from .store import Store
from .store_ratings import AI, GLOBAL, PEOPLE, ChangeRow, RatingRow

TOP = 10
TREND = 30  # points of a profile's trend line
LAST = 5  # a profile's last games


def title(kind: str) -> str:
    try:
        return base.get(kind).title or kind
    except base.BadOption:
        return kind


def _line(r: RatingRow, place: int, me: bool) -> Line:
    return Line(place, r.name, r.rating, r.games, r.wins, me)


async def board(
    store: Store, kind: str, scope: int, user_id: int, *, ladder: str = PEOPLE, where: str = ""
) -> Board:
    """The top :data:`TOP` of a game's table in ``scope`` and the asker's place."""
    rows = await store.top_ratings(kind, scope, ladder, TOP)
    me = f"u{user_id}"
    top: list[Line] = []
    for i, r in enumerate(rows):
        place = top[-1].place if top and top[-1].rating == r.rating else i + 1
        top.append(_line(r, place, r.player == me))
    found = await store.rating_place(kind, scope, ladder, me)
    mine = _line(found[0], found[1], True) if found else None
    total = found[2] if found else (await _count(store, kind, scope, ladder, rows))
    return Board(title(kind), where or ("all servers" if scope == GLOBAL else "this server"), ladder,
                 tuple(top), mine, total)  # fmt: skip


async def _count(store: Store, kind: str, scope: int, ladder: str, top: list[RatingRow]) -> int:
    if len(top) < TOP:
        return len(top)
    last = await store.rating_place(kind, scope, ladder, top[-1].player)
    return last[2] if last else len(top)


async def profile(store: Store, user_id: int, scope: int, name: str, *, where: str = "") -> Profile:
    """A person's card in ``scope``."""
    standings: list[Standing] = []
    for r in await store.ratings_of(user_id, scope):
        found = await store.rating_place(r.kind, scope, r.ladder, r.player)
        place, total = (found[1], found[2]) if found else (0, 0)
        standings.append(
            Standing(title(r.kind), r.ladder, r.rating, place, total, r.games, r.wins, r.best, r.best_game)
        )
    standings.sort(key=lambda s: (s.ladder != PEOPLE, -s.games, s.game))
    changes = await store.changes_of(user_id, scope, 200)
    main = standings[0] if standings else None
    trend: list[int] = []
    if main is not None:
        picked = [c for c in changes if title(c.kind) == main.game and c.ladder == main.ladder][:TREND]
        trend = [c.now for c in reversed(picked)]
        if picked and picked[-1].was is not None:
            trend.insert(0, picked[-1].was)
    best = max(standings, key=lambda s: (s.best, s.ladder == PEOPLE), default=None)
    last = tuple(_played(c) for c in changes[:LAST])
    return Profile(
        name,
        where or ("all servers" if scope == GLOBAL else "this server"),
        tuple(standings),
        f"{main.game}{' vs AI' if main.ladder == AI else ''}" if main else "",
        tuple(trend),
        best,
        last,
    )


def _played(c: ChangeRow) -> Played:
    return Played(c.game_id, title(c.kind), c.ladder, c.place, c.players, c.was, c.now, c.at)


def board_text(b: Board) -> str:
    """The leaderboard as text (the picture's twin)."""
    table = "people" if b.ladder == PEOPLE else "against the AI"
    head = f"🏆 **{b.game}** leaderboard, {table}, {b.where} ({b.total} rated)"
    if not b.top:
        return f"{head}\nNobody is rated here yet: finish a rated game to be the first."
    lines = [head]
    for ln in b.top:
        lines.append(_text_line(ln))
    if b.mine is not None and not any(ln.me for ln in b.top):
        lines.append("…\n" + _text_line(b.mine))
    elif b.mine is None:
        lines.append("You have no rating on this table yet.")
    return "\n".join(lines)


def counted(n: int, what: str) -> str:
    """1 game, 2 games."""
    return f"{n} {what}{'' if n == 1 else 's'}"


def _text_line(ln: Line) -> str:
    mark = " ← you" if ln.me else ""
    stats = f"{counted(ln.games, 'game')} · {counted(ln.wins, 'win')}"
    return f"{ln.place}. {shown(ln.name)} — **{ln.rating}** · {stats}{mark}"


def profile_text(p: Profile) -> str:
    """The profile as text (the picture's twin)."""
    head = f"👤 **{shown(p.name)}** — ratings, {p.where}"
    if not p.standings:
        return f"{head}\nNo rated games yet."
    lines = [head]
    for s in p.standings:
        vs = " vs AI" if s.ladder == AI else ""
        lines.append(
            f"{s.game}{vs}: **{s.rating}** (#{s.place} of {s.total}) · {counted(s.games, 'game')} · "
            f"{counted(s.wins, 'win')} · best {s.best}"
        )
    if p.last:
        games = [
            f"#{g.game_id} {g.game} {g.place}/{g.players} ({g.now - (g.was or g.now):+d})" for g in p.last
        ]
        lines.append("Last games: " + "; ".join(games))
    return "\n".join(lines)
