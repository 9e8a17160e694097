"""``/game new … form:true``: the game's options in a dialog (a Discord modal) instead of typed
``name=value`` pairs.

The modal is built from the game's option declarations (:mod:`engines.options`): every ``bool``
option is a checkbox of one group ("Turned on"), an option with a few values (a ``str`` option's
choices, an ``int`` option whose bounds allow at most ten numbers: :meth:`Option.few_values`) a
radio group, any other ``int`` option a short text field. Each starts at the value the command's
``options:`` gave, else the default. A modal holds five fields: options beyond them keep their
values. On submit the answers become the same ``name=value`` text ``options:`` takes and go
through the same path (:func:`lobby.new_game`, which the host checks with
:func:`bot.host.parsing.parse_options`), so a value is accepted or refused with the same reason
either way. The modal is the first answer to the command (nothing is deferred before it); its
custom id (``bzn:<game>:<clock>``) carries what the command said besides, and the bot keeps no
copy of it (a submit after a restart is served the same).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

import discord

from engines import base
from engines.options import Option

from ..host.parsing import parse_options
from . import inputs, lobby
from .handling import checked, guard

MAX_FIELDS = 5  # labelled components a modal holds
MAX_BOXES = 10  # options of a checkbox group
SWITCHES = "switches"  # the custom id of the checkbox group
MODAL_ID = re.compile(r"bzn:(?P<game>[a-z0-9_]+):(?P<clock>.*)", re.DOTALL)
"""The custom id of the modal: the game, and the ``clock:`` the command got (empty: none)."""


def _shown(value: Any) -> str:
    """An option value as ``options:`` text takes it (``true``, ``-1``, ``pair``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


def _laid_out(engine: base.Engine) -> tuple[list[Option], list[Option]]:
    """The options the dialog shows: the ``bool`` ones (one checkbox group) and the others (a
    field each), within a modal's limits."""
    bools = [o for o in engine.options if o.kind is bool][:MAX_BOXES]
    room = MAX_FIELDS - (1 if bools else 0)
    return bools, [o for o in engine.options if o.kind is not bool][:room]


def modal(engine: base.Engine, values: Mapping[str, Any], clock: str | None) -> discord.ui.Modal:
    """The dialog of ``engine``'s options at ``values`` (resolved: every option has one), sent
    stopped so that discord.py keeps no copy (:func:`submit` reads the answers)."""
    out = discord.ui.Modal(
        title=f"New {engine.title} game"[:45], custom_id=f"bzn:{engine.name}:{clock or ''}"
    )
    bools, others = _laid_out(engine)
    if bools:
        boxes: discord.ui.CheckboxGroup[discord.ui.Modal] = discord.ui.CheckboxGroup(
            custom_id=SWITCHES,
            required=False,
            min_values=0,
            max_values=len(bools),
            options=[
                discord.CheckboxGroupOption(
                    label=o.name, value=o.name, description=o.help[:100], default=bool(values[o.name])
                )
                for o in bools
            ],
        )
        out.add_item(discord.ui.Label(text="Turned on", component=boxes))
    for o in others:
        out.add_item(
            discord.ui.Label(
                text=o.name[:45], description=o.help[:100], component=_field(o, _shown(values[o.name]))
            )
        )
    out.stop()
    return out


def _field(o: Option, current: str) -> discord.ui.Item[discord.ui.Modal]:
    """A radio group of ``o``'s few values, else a short text field; ``current`` chosen."""
    few = o.few_values()
    if len(few) >= 2:
        return discord.ui.RadioGroup(
            custom_id=o.name,
            options=[discord.RadioGroupOption(label=v, value=v, default=v == current) for v in few],
        )
    return discord.ui.TextInput(custom_id=o.name, default=current, max_length=20)


def options_text(engine: base.Engine, answers: Mapping[str, object]) -> str:
    """The answers as ``name=value`` pairs, as ``/game new options:`` takes them: every option
    of the checkbox group true or false, each other field's value as sent (an answer that is not
    text is left out: the option keeps its default)."""
    bools, others = _laid_out(engine)
    parts: list[str] = []
    if bools:
        on = set(inputs.values(answers.get(SWITCHES) or []))
        parts += [f"{o.name}={'true' if o.name in on else 'false'}" for o in bools]
    for o in others:
        value = answers.get(o.name)
        if isinstance(value, str) and value.strip():
            parts.append(f"{o.name}={value.strip()[:40]}")
    return " ".join(parts)


async def ask(interaction: discord.Interaction, kind: str, options: str | None, clock: str | None) -> None:
    """Open the options dialog of game ``kind``, starting from ``options`` (checked as
    ``/game new`` checks them: a bad one is refused with its reason, and no dialog opens). A game
    without options opens its lobby at once."""
    engine = base.get(kind)
    if not engine.options:
        await lobby.new_game(interaction, kind, options, clock)
        return
    async with guard(interaction, "/game new"):
        values = parse_options(engine, options)
        await interaction.response.send_modal(modal(engine, values, clock))


async def submit(
    interaction: discord.Interaction, kind: str, clock: str, answers: Mapping[str, object]
) -> None:
    """The dialog sent: open the lobby with its options (see :func:`options_text`)."""
    sent = await checked(
        interaction,
        lambda: (
            inputs.game_kind(kind),
            options_text(base.get(inputs.game_kind(kind)), answers),
            inputs.text(clock or None, "clock", limit=inputs.MAX_CLOCK),
        ),
    )
    if sent is not None:
        await lobby.new_game(interaction, *sent)
