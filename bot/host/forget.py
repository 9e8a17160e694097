"""``bazaar db forget-user USER_ID``: remove a person's identity from the database (see
docs/privacy.md), in one transaction.

- In a game that is over (``finished``, or ``ended`` early, or a lobby closed before it
  started), the person's seat stays (the game still replays: its seed, its number of seats and
  its moves are unchanged) but loses its user id and its name, which becomes "a former player"
  ("a former player 2" for a second forgotten person of the same game); the moves they sent lose
  their user id (the one change the append-only move log accepts, migration 0007); the DMs
  recorded for their seat (the DM channel is theirs) and their seat's form drafts are deleted.
- In an open lobby, their seat is removed as if they had left (later seats move up; a lobby left
  with no person is closed).
- A game they created has its creator set to :data:`FORMER_CREATOR` (0, never a Discord id).
- An active game they play, created, or moved in is left exactly as it is and reported: the
  bot holds it in memory and plays on. End it (``/game end``) or let it finish, then run the
  command again (it is idempotent).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .store import Store
from .store_base import Handle

FORMER_PLAYER = "a former player"
FORMER_CREATOR = 0
"""The ``creator_id`` of a game whose creator was forgotten (Discord ids are never 0)."""


@dataclass
class ForgetReport:
    """What :func:`forget_user` changed (counts of rows) and left alone."""

    user_id: int
    over: list[int] = field(default_factory=list)  # games over whose rows held the person
    seats: int = 0  # seats renamed in games that are over
    moves: int = 0  # moves whose sender was erased
    creators: int = 0  # games whose creator was erased
    messages: int = 0  # DM message records deleted
    drafts: int = 0  # form drafts deleted
    lobbies_left: list[int] = field(default_factory=list)  # open lobbies the person was taken out of
    lobbies_closed: list[int] = field(default_factory=list)  # ... of which closed, no person left
    active: list[int] = field(default_factory=list)  # active games left as they are

    @property
    def changed(self) -> bool:
        return bool(self.over or self.lobbies_left or self.creators)

    def summary(self) -> str:
        if not self.changed and not self.active:
            return f"user {self.user_id} is in no game: nothing to forget"
        line = (
            f"forgot user {self.user_id}: {self.seats} seat(s) in {len(self.over)} game(s) that are over "
            f"renamed {FORMER_PLAYER!r}, {self.moves} move(s) and {self.creators} game creator(s) "
            f"unlinked, {self.messages} DM record(s) and {self.drafts} draft(s) deleted; "
            f"taken out of {len(self.lobbies_left)} open lobby(ies) ({len(self.lobbies_closed)} closed)"
        )
        if self.active:
            line += (
                f"; {len(self.active)} active game(s) left as they are ("
                + ", ".join(f"#{g}" for g in self.active[:10])
                + "): end them with /game end or let them finish, then run forget-user again"
            )
        return line


async def forget_user(store: Store, user_id: int) -> ForgetReport:
    """Remove ``user_id`` from every game of ``store`` that is over and every open lobby, in one
    transaction (see the module's description); returns what changed."""
    report = ForgetReport(user_id)
    async with store._tx() as h:
        for gid, status in await _games_of(store, h, user_id):
            if status == "active":
                report.active.append(gid)
            elif status == "lobby":
                await _leave_lobby(store, h, gid, user_id, report)
            else:
                await _forget_in_game(h, gid, user_id, report)
    return report


async def _games_of(store: Store, h: Handle, user_id: int) -> list[tuple[int, str]]:
    """``(id, status)`` of every game whose rows hold ``user_id`` (locked on PostgreSQL, so no game
    starts or ends under the command)."""
    lock = " FOR UPDATE" if store.dialect == "postgres" else ""
    rows = await h.sql_rows(
        "SELECT id, status FROM games g WHERE creator_id = ? "
        "OR EXISTS (SELECT 1 FROM seats s WHERE s.game_id = g.id AND s.user_id = ?) "
        "OR EXISTS (SELECT 1 FROM moves m WHERE m.game_id = g.id AND m.user_id = ?) ORDER BY id" + lock,
        (user_id, user_id, user_id),
    )
    return [(int(r[0]), str(r[1])) for r in rows]


def _former_name(taken: set[str]) -> str:
    """ "a former player", else "a former player 2", 3… : the first not among ``taken``."""
    n = 1
    while (name := FORMER_PLAYER if n == 1 else f"{FORMER_PLAYER} {n}") in taken:
        n += 1
    return name


async def _unlink_creator(h: Handle, gid: int, user_id: int, report: ForgetReport) -> None:
    report.creators += await h.sql_run(
        "UPDATE games SET creator_id = ? WHERE id = ? AND creator_id = ?", (FORMER_CREATOR, gid, user_id)
    )


async def _forget_in_game(h: Handle, gid: int, user_id: int, report: ForgetReport) -> None:
    """A game that is over: the seat renamed and unlinked, the moves unlinked, DMs and drafts gone."""
    report.over.append(gid)
    seat = await h.sql_row("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (gid, user_id))
    if seat is not None:
        taken = {r[0] for r in await h.sql_rows("SELECT name FROM seats WHERE game_id = ?", (gid,))}
        report.seats += await h.sql_run(
            "UPDATE seats SET user_id = NULL, name = ?, dm_hash = NULL, dm_closed = 0"
            " WHERE game_id = ? AND seat = ?",
            (_former_name(taken), gid, seat[0]),
        )
        report.messages += await h.sql_run(
            "DELETE FROM messages WHERE game_id = ? AND kind = 'dm' AND seat = ?", (gid, seat[0])
        )
        report.drafts += await h.sql_run("DELETE FROM drafts WHERE game_id = ? AND seat = ?", (gid, seat[0]))
    report.moves += await h.sql_run(
        "UPDATE moves SET user_id = NULL WHERE game_id = ? AND user_id = ?", (gid, user_id)
    )
    await _unlink_creator(h, gid, user_id, report)


async def _leave_lobby(store: Store, h: Handle, gid: int, user_id: int, report: ForgetReport) -> None:
    """An open lobby: the person's seat removed as :meth:`Store.remove_seat` does (later seats move
    up; closed when no person is left), with the drafts and DM records of the seats that moved."""
    seat = await h.sql_row("SELECT seat FROM seats WHERE game_id = ? AND user_id = ?", (gid, user_id))
    if seat is not None:
        s0 = int(seat[0])
        report.lobbies_left.append(gid)
        await h.sql_run("DELETE FROM seats WHERE game_id = ? AND seat = ?", (gid, s0))
        later = await h.sql_rows(
            "SELECT seat FROM seats WHERE game_id = ? AND seat > ? ORDER BY seat", (gid, s0)
        )
        for (s,) in later:
            await h.sql_run("UPDATE seats SET seat = ? WHERE game_id = ? AND seat = ?", (s - 1, gid, s))
        report.drafts += await h.sql_run("DELETE FROM drafts WHERE game_id = ? AND seat >= ?", (gid, s0))
        report.messages += await h.sql_run(
            "DELETE FROM messages WHERE game_id = ? AND kind = 'dm' AND seat >= ?", (gid, s0)
        )
        people = await h.sql_row(
            "SELECT COUNT(*) FROM seats WHERE game_id = ? AND is_ai = 0 AND user_id IS NOT NULL", (gid,)
        )
        closed = int(people[0]) == 0 if people else True
        if closed:
            report.lobbies_closed.append(gid)
        await h.sql_run(
            "UPDATE games SET updated_at = ?"
            + (", status = 'ended', deadline = NULL" if closed else "")
            + " WHERE id = ?",
            (store.now(), gid),
        )
    await _unlink_creator(h, gid, user_id, report)
