"""The surface's words: Discord's length limit and how a message is fitted to it, what the bot
says when Discord or the database refuses (no pictures, no access, an error), how a message
says to play with the controls drawn under it. Pure functions.

The words of a game's messages are the host's (:mod:`bot.host.wording`): an outbox carries
them as :class:`~bot.host.wording.Words` (its turn's board, final sheet, end notice, DMs, the
footer), and :func:`message`, :func:`turn` and :func:`dm` make them one message's text here:
the pieces' emojis put in the body lines (:func:`.emojis.in_text`), how to play added, the
whole fitted to :data:`LIMIT`. The answers to commands (``/game status``, ``/game list``,
``/rules``, ``/log``, a move played) are worded there too and fitted here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from engines.base import Engine

from ..host import wording
from ..host.live import Entry, Listing, LiveGame
from ..host.wording import Words
from . import emojis, levels

LIMIT = 2000  # Discord's message length

APOLOGY = (
    "Sorry, something went wrong on my side while doing that{where}. It has been logged; "
    "nothing was changed unless a board was posted. Please try again."
)
NO_POST = (
    "I cannot post in this channel. Give me View Channel, Send Messages, Attach Files and "
    "Read Message History here (and Create Public Threads + Send Messages in Threads for a "
    "thread per game)."
)

NO_FILES = (
    "🖼️ I may not attach pictures here (give me **Attach Files**); `/game status` shows you the "
    "board picture privately."
)


STORE_DOWN = (
    "⚠️ Could not save {what}: the bot's database is not answering just now. Nothing "
    "changed; try again in a moment."
)


def store_down(what: str) -> str:
    """The private answer when the database refused a write (or a read): nothing changed."""
    moves = ("move", "menu", "form")
    return STORE_DOWN.format(what="your move" if what in moves else "that")


def slow_down(wait: float) -> str:
    """The answer to a user who sends commands faster than the flood guard allows."""
    return f"Slow down: too many commands at once. Try again in {max(1, round(wait + 0.5))} s."


def apology(game_id: int | None) -> str:
    """The message for an unexpected error, naming the game if known."""
    return APOLOGY.format(where=f" in game #{game_id}" if game_id else "")


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_lines(head: Sequence[str], body: Sequence[str], tail: Sequence[str], limit: int = LIMIT) -> str:
    """Join ``head``, ``body`` and ``tail`` lines; when too long, drop the oldest body lines first
    (replaced by "…"), so the newest events and the tail always show."""
    body = list(body)
    dropped = False
    while body:
        text = "\n".join([*head, *(["…"] if dropped else []), *body, *tail])
        if len(text) <= limit:
            return text
        body.pop(0)
        dropped = True
    return clip("\n".join([*head, *(["…"] if dropped else []), *tail]), limit)


def lobby(game: LiveGame) -> str:
    """The lobby message (the host's words, with the AI levels' measured rates while open)."""
    return clip(wording.lobby(game, levels.lobby_line(game.engine.name)))


HOW = {
    "buttons": "the buttons below or `/move`",
    "menu": "the menu below or `/move`",
    None: "`/move` (it lists your moves)",
    "private": "your moves are in your DM and under **My hand** (only you see them), or use `/move`",
}
"""How a turn message says to play, by :func:`bot.surface.controls.kind` ("private": the
moves depend on what the player hides, so only their own My hand answer offers them)."""


def message(
    words: Words,
    game: str,
    names: Sequence[str],
    *,
    earlier: Sequence[str] = (),
    middle: Sequence[str] = (),
    end: Sequence[str] = (),
) -> str:
    """The text of ``words`` (a message of ``game``, whose seats are called ``names``): its head,
    then the ``earlier`` lines of the same turn (a board edited in place) and its body, each
    with the pieces' emojis, then ``middle``, its tail and ``end``; the oldest body lines are
    dropped first when the whole is too long."""
    body = [emojis.in_text(game, line, names) for line in [*earlier, *words.body]]
    return fit_lines(words.head, body, [*middle, *words.tail, *end])


def turn(
    words: Words,
    game: str,
    names: Sequence[str],
    controls: str | None = None,
    earlier: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> str:
    """A turn message from the host's ``words``: the call of who must act ends with how to play
    (``controls`` is what the message carries: "buttons", "menu", None, or "private" for moves
    offered only in the player's My hand answer), then ``extra`` (what each row of controls is
    for). ``earlier`` are lines of the same turn already shown (when the board is edited in
    place), put before this batch's."""
    how = []
    if words.call:
        hint = "" if controls == "private" else "; **My hand** shows your view"
        how.append(f"{words.call} — {HOW.get(controls, HOW[None])}{hint}.")
    return message(words, game, names, earlier=earlier, end=[*how, *extra])


def dm(words: Words, game: str, names: Sequence[str], link: str, view: str, *, fits: bool = True) -> str:
    """A seat's DM from the host's ``words`` (see :func:`bot.host.wording.dm`): ``link`` (to the
    game's board) ends its head, the seat's ``view`` as text (with the pieces' emojis) follows
    its private events; when the controls of the prompt awaiting it do not fit (``fits``), the
    DM says to use ``/move``."""
    middle = [emojis.in_text(game, view, names)] if view else []
    end = [] if fits else ["Use `/move` in the game (it lists your moves)."]
    return message(words.linked(link), game, names, middle=middle, end=end)


def dm_closed(user_id: int, title: str) -> str:
    """The one-time notice that DMs to a player fail."""
    return (
        f"<@{user_id}>, I cannot send you direct messages for **{title}** (your DMs are closed "
        f"to me). Use the **My hand** button or `/hand` to see your private view."
    )


def hand_outdated(title: str) -> str:
    """What a private answer says once a newer one replaced it (Discord refused its edit)."""
    return f"-# 🎴 **{title}**: this view is outdated; your current one is below."


def status(game: LiveGame, view: Mapping[str, Any] | None) -> str:
    """/game status (:func:`bot.host.wording.status`), cut to one message."""
    return clip(wording.status(game, view))


def game_list(games: Sequence[Listing]) -> str:
    """/game list (:func:`bot.host.wording.game_list`): the oldest games left out when too many."""
    if not games:
        return wording.NO_GAMES
    words = wording.game_list(games)
    return fit_lines(words.head, words.body, words.tail)


def rules(engine: Engine) -> str:
    """/rules (:func:`bot.host.wording.rules`): every option described, or by name only when the
    whole would not fit one message (the autocomplete of `/game new options:` describes them)."""
    full = wording.rules(engine)
    return clip(full if len(full) <= LIMIT else wording.rules(engine, short=True))


def log(game: LiveGame, history: Sequence[Entry]) -> str:
    """/log (:func:`bot.host.wording.log`): the oldest moves left out when too long."""
    if not history:
        return wording.no_moves(game)
    words = wording.log(game, history)
    return fit_lines(words.head, words.body, words.tail)


def played(action: str, private_events: Sequence[str]) -> str:
    """The ephemeral confirmation of the caller's move (:func:`bot.host.wording.played`)."""
    return clip(wording.played(action, private_events))
