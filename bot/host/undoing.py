"""Taking a move back (issue #27 item 4), a part of the game service (see :mod:`bot.host.core`).

A player may take back their own last move at once while no other seat has played since, the
game runs and the engine says the move revealed nothing (:meth:`Engine.reveals`). Anything
else (an older move, another seat's move) needs every other person's consent: :meth:`Undos.ask`
opens a request, each person answers with :meth:`Undos.answer`, AI seats (and seats the AI
plays for someone away) agree by themselves; a refusal or any move made meanwhile cancels it.

The undo is an entry of the append-only move log, ``undo <version>`` by the asking seat
(:mod:`engines.takeback`), replayed by every rebuild of the game. A request and its answers are
kept as drafts (form ``undo``) of the game's version, so they survive a restart and a move
(a new version) ends them.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass

from engines import base, takeback

from . import coaching, outbox, reading
from .core import Core
from .duties import Duties
from .live import LiveGame, Refusal
from .loading import Games
from .outbox import Outbox

FORM = "undo"
"""The draft form that holds undo requests and answers."""


@dataclass(frozen=True)
class Ask:
    """An open request to take back move ``target``, asked by ``seat`` at game ``version``, of
    the people of ``voters`` (their seats); ``what`` names it for people ("'bid 13'")."""

    game_id: int
    version: int
    seat: int
    target: int
    what: str
    voters: tuple[int, ...]


@dataclass(frozen=True)
class Answer:
    """Where a request stands after an answer: the seats that agreed so far, whether the move
    was taken back (everyone agreed) or the request refused, and what it takes back."""

    agreed: tuple[int, ...]
    done: bool
    refused: bool
    what: str


class NeedsConsent(Refusal):
    """An undo the player may not do alone (another seat played since): they may ask."""


def note_move(game: LiveGame, before: object, seat: int, action: str) -> None:
    """After a person's move just written (``before``: the state it was played in), remember
    whether its player may take it back with one click (:func:`offer`)."""
    running = game.row.status == "active"
    said = game.engine.reveals(before, seat, action) if running else "over"
    game.undoable = (game.row.version, seat, action) if said is None else None


def offer(game: LiveGame, user_id: int) -> str | None:
    """The move ``user_id`` may take back now (theirs, the last one played, revealing nothing),
    for an Undo button; None when there is none (or this run does not know: ``/undo`` still
    checks the log)."""
    seat, last = game.seat_of(user_id), game.undoable
    if seat is None or last is None or game.row.status != "active":
        return None
    return last[2] if last[:2] == (game.row.version, seat.seat) else None


def board_offer(game: LiveGame, version: int) -> int | None:
    """The seat whose person may take back, with one click, the move that made ``version`` (the
    game's version now, a person's move revealing nothing), for an "Undo (name)" button on the
    public board of that version; None when there is none."""
    last = game.undoable
    if last is None or game.row.status != "active" or not last[0] == version == game.row.version:
        return None
    return last[1]


class Undos:
    """Taking moves back (see the module docstring)."""

    def __init__(self, core: Core, games: Games, duties: Duties) -> None:
        self.core = core
        self.games = games
        self.duties = duties

    async def _log(self, game: LiveGame) -> list[tuple[int, str]]:
        return [(m.seat, m.action) for m in await self.core.store.moves(game.id)]

    async def _check(self, game: LiveGame, log: list[tuple[int, str]], seat: int, target: int) -> base.Played:
        """The undo entry of ``seat`` taking back ``target`` (raises why it cannot be); the game
        is replayed in a worker thread, so the event loop stays free."""
        state, event, text = await asyncio.to_thread(
            takeback.take_back,
            game.engine,
            game.row.seed,
            len(game.seats),
            game.row.options,
            log,
            seat,
            target,
        )
        return base.Played(state, [event], text)

    async def undo(
        self, game_id: int, user_id: int, *, expected_version: int | None = None, target: int | None = None
    ) -> Outbox:
        """Take back the caller's own last move (``target``, its move number, when given: it must
        be that move). Raises :class:`NeedsConsent` when another seat has played since or
        ``target`` is an earlier move, :class:`Refusal` or a ``RuleError`` (with what the move
        revealed); nothing changes then. Returns the outbox of the take-back."""
        game = await self.games.get(game_id)
        async with game.lock:
            reading.check_playable(game)
            since = game.row.version
            seat = reading.seat_for(game, user_id).seat
            if expected_version is not None and expected_version != game.row.version:
                raise base.StaleState()
            rows = await self.core.store.moves(game.id)
            log = [(m.seat, m.action) for m in rows]
            kept = takeback.in_play(log)
            mine = [k for k in kept if k[1] == seat]
            if not mine:
                raise Refusal("You have no move to take back.")
            if target is not None and target != mine[-1][0]:
                if target not in [k[0] for k in kept]:
                    raise Refusal(
                        f"There is no move {target} in play to take back (see /log for the move numbers)."
                    )
                raise NeedsConsent(
                    f"Move {target} is not your last move, so the others must agree to take it back: "
                    f"ask them with `/undo ask:True move:{target}`."
                )
            if kept[-1][1] != seat:
                raise NeedsConsent(
                    "{s%d} has played since your move, so the others must agree to take it back: "
                    "ask them with `/undo ask:True`." % kept[-1][1]
                )
            if rows[mine[-1][0] - 1].by != "player":
                raise NeedsConsent(
                    "Your last move was played for you when your time ran out, so the others must "
                    "agree to take it back: ask them with `/undo ask:True`."
                )
            played = await self._check(game, log, seat, mine[-1][0])
            await self.core.commit(game, seat, played, by="player", user_id=user_id)
            await self.duties.advance_ai(game)
            box = outbox.sealed(game, since=since)
        self.core.on_clock_change()
        return box

    async def ask(self, game_id: int, user_id: int, target: int | None = None) -> Ask | Outbox:
        """Ask the other people to agree to take back move ``target`` (default: the caller's own
        last move in play) and every move after it. Returns the request, or the take-back's
        outbox when nobody is left to ask (every other seat is an AI: done at once). Raises as
        :meth:`undo`."""
        game = await self.games.get(game_id)
        async with game.lock:
            reading.check_playable(game)
            since = game.row.version
            seat = reading.seat_for(game, user_id).seat
            log = await self._log(game)
            kept = takeback.in_play(log)
            if target is None:
                mine = [k for k in kept if k[1] == seat]
                if not mine:
                    raise Refusal("You have no move to take back.")
                target = mine[-1][0]
            played = await self._check(game, log, seat, target)
            voters = tuple(s.seat for s in game.humans() if s.seat != seat and not s.ai_takeover)
            if not voters and coaching.rated(game):
                raise Refusal(
                    f"{game.title} is rated: the AI seats do not agree to take back a move that "
                    "your own undo cannot (only your last move, while nobody has played since)."
                )
            if not voters:
                await self.core.commit(game, seat, played, by="player", user_id=user_id)
                await self.duties.advance_ai(game)
                box = outbox.sealed(game, since=since)
                self.core.on_clock_change()
                return box
            version = game.row.version
            await self.core.store.save_draft(game.id, seat, FORM, version, {"ask": [str(target)]})
            for v in voters:
                await self.core.store.save_draft(game.id, v, FORM, version, {"agree": [], "refuse": []})
            what = str(played.events[0].data["what"])
            await self.core.store.save_draft(game.id, seat, FORM, version, {"what": [what]})
            return Ask(game.id, version, seat, target, what, voters)

    async def answer(
        self, game_id: int, user_id: int, version: int, asker: int, target: int, *, agree: bool
    ) -> tuple[Answer, Outbox]:
        """The caller's answer to the request of ``asker`` (seat) for ``target`` made at
        ``version``, and the outbox: once everyone has agreed, the move is taken back (published
        like a move); a refusal ends the request and changes nothing in the game (an empty
        outbox). Raises
        :class:`Refusal` when the request is over (a move made since, a refusal, a newer
        request) or the caller is not asked."""
        game = await self.games.get(game_id)
        async with game.lock:
            reading.check_playable(game)
            since = game.row.version
            store, key = self.core.store, f"{asker}:{target}"
            if game.row.version != version:
                raise Refusal("A move was made since this request, so it is cancelled.")
            ask = await store.draft(game.id, asker, FORM, version)
            if ask.get("ask") != [str(target)]:
                raise Refusal("This request is no longer open.")
            voters = [s.seat for s in game.humans() if s.seat != asker and not s.ai_takeover]
            seat = game.seat_of(user_id)
            if seat is None or seat.seat not in voters:
                raise Refusal("Only the other players answer this request.")
            answers = {v: await store.draft(game.id, v, FORM, version) for v in voters}
            refused = [v for v, a in answers.items() if key in a.get("refuse", [])]
            if refused:
                raise Refusal("{s%d} refused, so this request is cancelled." % refused[0])
            await store.save_draft(game.id, seat.seat, FORM, version, {"agree" if agree else "refuse": [key]})
            what = (ask.get("what") or [f"move {target}"])[0]
            if not agree:
                await store.save_draft(game.id, asker, FORM, version, {"ask": []})
                return Answer((), False, True, what), outbox.sealed(game)
            agreed = tuple(v for v in voters if v == seat.seat or key in answers[v].get("agree", []))
            if len(agreed) < len(voters):
                return Answer(agreed, False, False, what), outbox.sealed(game)
            played = await self._check(game, await self._log(game), asker, target)
            await self.core.commit(game, asker, played, by="player")
            await self.duties.advance_ai(game)
            box = outbox.sealed(game, since=since)
        self.core.on_clock_change()
        return Answer(agreed, True, False, what), box
