"""``/undo``: take back a slip (issue #27 item 4; the host's :mod:`bot.host.undoing`).

``/undo`` takes back the caller's own last move at once when nobody has played since and the
engine says it revealed nothing; the refusal says why otherwise (nothing to undo, what the move
showed, who has played since, the game is over). ``/undo ask:True`` (optionally ``move:<n>``, a
move number of ``/log``) asks every other person in the channel, with **Agree** and **Refuse**
buttons whose custom ids carry the game, the version asked at, the asking seat and the move
(``bzu:<game>:<version>:<seat>:<move>:<a|r>``), so they work after a restart; AI seats agree by
themselves, and a refusal or a move made meanwhile ends the request. A move that may be taken
back at once gets an **Undo** on its private answer (``bzb:<game>:<version>``) and an **Undo
(name)** on the public board that follows (``bzbu:<game>:<version>:<seat>``: anyone but that
seat's person is refused, privately).
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Callable
from typing import Any, Self

import discord
from discord import app_commands
from discord.ext import commands

from ..host import undoing as host_undoing
from ..host.live import LiveGame, Refusal
from ..host.outbox import Outbox
from ..host.undoing import Answer, Ask
from . import inputs, text
from .flood import Throttled
from .handling import bot_of, defer, guard, reply, target

log = logging.getLogger(__name__)


def answer_id(ask: Ask | tuple[int, int, int, int], agree: bool) -> str:
    game_id, version, seat, move = (
        (ask.game_id, ask.version, ask.seat, ask.target) if isinstance(ask, Ask) else ask
    )
    return f"bzu:{game_id}:{version}:{seat}:{move}:{'a' if agree else 'r'}"


def _taken_back(game: LiveGame, box: Outbox) -> str:
    """The line of the take-back ``box`` holds ("Asha took back 'bid 13'.")."""
    for step in reversed(box.steps):
        if step.action and step.action.startswith("undo "):
            return game.fmt(step.events[0].text)
    return "The move was taken back."


async def undo(interaction: discord.Interaction, game_id: int | None, ask: bool, move: object) -> None:
    """``/undo``: take back the caller's last move, or ask the others (``ask``) to agree to take
    back ``move`` (a move number; None: their own last move)."""
    bot = bot_of(interaction)
    async with guard(interaction, "/undo"):
        await defer(interaction)
        number = None if move is None else inputs.number(move, "move", lo=1, hi=10**9)
        game = await target(interaction, game_id, component=False)
        if not ask:  # move: names the caller's own last move, or is refused (it needs ask:True)
            box = await bot.service.undo(game.id, interaction.user.id, target=number)
            await bot.publisher.publish(box)
            await reply(interaction, "↩️ " + _taken_back(game, box))
            return
        asked = await bot.service.ask_undo(game.id, interaction.user.id, number)
        if isinstance(asked, Outbox):  # nobody to ask: every other seat is an AI
            await bot.publisher.publish(asked)
            await reply(interaction, "↩️ " + _taken_back(game, asked))
            return
        users = [game.seats[v].user_id for v in asked.voters]
        content = _ask_text(game, asked, ())
        channel = interaction.channel
        if not isinstance(channel, discord.abc.Messageable):
            return
        await channel.send(
            content,
            view=answer_view(asked),
            allowed_mentions=discord.AllowedMentions(
                users=[discord.Object(u) for u in users if u is not None], roles=False, everyone=False
            ),
        )
        await reply(interaction, "↩️ Asked: the move is taken back once everyone agrees.")


def _ask_text(game: LiveGame, ask: Ask, agreed: tuple[int, ...]) -> str:
    waiting = [v for v in ask.voters if v not in agreed]
    lines = [
        game.fmt("↩️ {s%d} asks to take back %s." % (ask.seat, ask.what)),
        " ".join(f"<@{game.seats[v].user_id}>" for v in waiting) + ": do you agree? Everyone must.",
    ]
    if agreed:
        lines.append("Agreed: " + ", ".join(game.text_names[v] for v in agreed) + ".")
    return text.clip("\n".join(lines))


def answer_view(ask: Ask) -> discord.ui.View:
    out = discord.ui.View(timeout=None)
    key = (ask.game_id, ask.version, ask.seat, ask.target)
    out.add_item(AnswerButton(*key, True))
    out.add_item(AnswerButton(*key, False))
    return out


async def on_answer(
    interaction: discord.Interaction, game_id: int, version: int, seat: int, move: int, agree: bool
) -> None:
    """An Agree or Refuse click: the request's message says where it stands (no buttons once it
    is decided); the game is published when the move is taken back."""
    bot = bot_of(interaction)
    async with guard(interaction, "undo answer"):
        await defer(interaction, component=True)
        game = await target(interaction, game_id, component=True)
        answer, box = await bot.service.answer_undo(
            game.id, interaction.user.id, version, seat, move, agree=agree
        )
        await bot.publisher.publish(box)
        content, view = _answered(game, Ask(game_id, version, seat, move, answer.what, ()), answer)
        try:
            await interaction.edit_original_response(content=content, view=view)
        except discord.HTTPException as err:
            log.info("Showing the answer to an undo request of game %s failed: %s", game.id, err)


def _answered(game: LiveGame, ask: Ask, answer: Answer) -> tuple[str, discord.ui.View | None]:
    who = game.fmt("{s%d}" % ask.seat)
    if answer.done:
        return f"↩️ {who} took back {game.fmt(ask.what)}: everyone agreed.", None
    if answer.refused:
        return f"↩️ {who} asked to take back {game.fmt(ask.what)}; it was refused.", None
    voters = tuple(s.seat for s in game.humans() if s.seat != ask.seat and not s.ai_takeover)
    full = Ask(ask.game_id, ask.version, ask.seat, ask.target, ask.what, voters)
    return _ask_text(game, full, answer.agreed), answer_view(full)


class AnswerButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzu:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<seat>[0-9]):(?P<move>[0-9]{1,9}):(?P<yes>[ar])",
):
    """Agree or Refuse to an undo request (see :func:`on_answer`)."""

    def __init__(self, game_id: int, version: int, seat: int, move: int, agree: bool) -> None:
        super().__init__(
            discord.ui.Button(
                label="Agree" if agree else "Refuse",
                style=discord.ButtonStyle.success if agree else discord.ButtonStyle.secondary,
                custom_id=answer_id((game_id, version, seat, move), agree),
            )
        )
        self.key = (game_id, version, seat, move, agree)

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(
            int(match["game"]),
            int(match["version"]),
            int(match["seat"]),
            int(match["move"]),
            match["yes"] == "a",
        )

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_answer(interaction, *self.key)


def undo_view(game: LiveGame, user_id: int) -> discord.ui.View | None:
    """An Undo button for ``user_id``'s move just played, when they may take it back now."""
    make = with_undo(None, game, user_id)
    return make() if make is not None else None


def with_undo(
    make: Callable[[], discord.ui.View] | None, game: LiveGame, user_id: int
) -> Callable[[], discord.ui.View] | None:
    """``make`` (a private answer's controls), with an Undo button added while ``user_id`` may
    take back their last move (:func:`bot.host.undoing.offer`)."""
    if host_undoing.offer(game, user_id) is None:
        return make
    version = game.row.version

    def both() -> discord.ui.View:
        view = make() if make is not None else discord.ui.View(timeout=None)
        with contextlib.suppress(ValueError):  # no room left among the controls: /undo still works
            view.add_item(UndoButton(game.id, version))
        return view

    return both


async def on_undo_click(
    interaction: discord.Interaction, game_id: int, version: int, seat: int | None = None
) -> None:
    """The Undo button: the caller's last move is taken back if the game is still where it was.
    A board's "Undo (name)" names its ``seat``: anyone else who clicks it is told, privately, that
    it is not theirs."""
    bot = bot_of(interaction)
    async with guard(interaction, "undo"):
        await defer(interaction, component=True)
        game = await target(interaction, game_id, component=True)
        mine = game.seat_of(interaction.user.id)
        if seat is not None and (mine is None or mine.seat != seat):
            raise Refusal(
                "Only {s%d} can use this Undo: it takes back their own move. To take back a move "
                "of yours, use `/undo` (or `/undo ask:True` once others have played)." % seat
            )
        box = await bot.service.undo(game.id, interaction.user.id, expected_version=version)
        await bot.publisher.publish(box)
        await reply(interaction, "↩️ " + _taken_back(game, box))


class UndoButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzb:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9})",
):
    """Undo: takes back the clicker's last move (see :func:`on_undo_click`)."""

    def __init__(self, game_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="Undo",
                emoji="↩️",
                style=discord.ButtonStyle.secondary,
                custom_id=undo_id(game_id, version),
            )
        )
        self.game_id, self.version = game_id, version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_undo_click(interaction, self.game_id, self.version)


def undo_id(game_id: int, version: int) -> str:
    return f"bzb:{game_id}:{version}"


def with_board_undo(
    make: Callable[[], discord.ui.View], game: LiveGame, version: int
) -> Callable[[], discord.ui.View]:
    """``make`` (a public board's controls), with an "Undo (name)" button when the move that
    made ``version`` is a person's that they may take back now (:func:`bot.host.undoing.board_offer`)."""
    seat = host_undoing.board_offer(game, version)
    if seat is None:
        return make
    name = game.names[seat]

    def both() -> discord.ui.View:
        view = make()
        # after the last control (My hand, Hint): on its row if it has room, else the row below
        last = max((getattr(i, "_rendered_row", None) or 0 for i in view.children), default=0)
        for row in (last, last + 1, None):
            try:
                view.add_item(BoardUndoButton(game.id, version, seat, name, row=row))
                break
            except ValueError:  # that row is full (None: no room at all, /undo still works)
                continue
        return view

    return both


class BoardUndoButton(
    Throttled,
    discord.ui.DynamicItem[discord.ui.Button[discord.ui.View]],
    template=r"bzbu:(?P<game>[0-9]{1,19}):(?P<version>[0-9]{1,9}):(?P<seat>[0-9])",
):
    """ "Undo (name)" on a public board: takes back that seat's move just played (see
    :func:`on_undo_click`)."""

    def __init__(
        self, game_id: int, version: int, seat: int, name: str = "", *, row: int | None = None
    ) -> None:
        label = f"Undo ({name[:60]})" if name else "Undo"
        super().__init__(
            discord.ui.Button(
                label=label,
                emoji="↩️",
                style=discord.ButtonStyle.secondary,
                custom_id=board_undo_id(game_id, version, seat),
                row=row,
            )
        )
        self.game_id, self.version, self.seat = game_id, version, seat

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str], /
    ) -> Self:
        return cls(int(match["game"]), int(match["version"]), int(match["seat"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await on_undo_click(interaction, self.game_id, self.version, self.seat)


def board_undo_id(game_id: int, version: int, seat: int) -> str:
    return f"bzbu:{game_id}:{version}:{seat}"


ITEMS = (AnswerButton, UndoButton, BoardUndoButton)
"""The persistent components of this module (registered by the bot at start-up)."""


class Undoing(commands.Cog):
    """``/undo``."""

    def __init__(self, bot: commands.Bot) -> None:
        self.bot = bot

    @app_commands.command(name="undo", description="Take back your last move (or ask the others to agree)")
    @app_commands.describe(
        ask="ask everyone else to agree (needed once another seat has played since)",
        move="the number of the move to take back, as /log shows it (with ask; default: your last)",
        game="the game's number (see /game list); needed only where several games run",
    )
    @app_commands.guild_only()
    async def undo(
        self,
        interaction: discord.Interaction,
        ask: bool = False,
        move: int | None = None,
        game: int | None = None,
    ) -> None:
        number = None if move is None else inputs.number(move, "move", lo=1, hi=10**9)
        await undo(interaction, inputs.game_ref(game), ask is True, number)


async def setup(bot: commands.Bot) -> None:
    """Add ``/undo`` to ``bot``."""
    await bot.add_cog(Undoing(bot))
