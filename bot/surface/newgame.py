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
either way. The modal is the first answer to the command (nothing is deferred before it).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeAlias

import discord

from engines import base
from engines.options import Option

from ..host.parsing import parse_options
from . import lobby
from .handling import guard

MAX_FIELDS = 5  # labelled components a modal holds
MAX_BOXES = 10  # options of a checkbox group
MODAL_TIMEOUT = 900.0  # seconds an unanswered dialog is kept

Field: TypeAlias = "discord.ui.RadioGroup[OptionsModal] | discord.ui.TextInput[OptionsModal]"
"""One option's field: a radio group, or a short text."""


def _shown(value: Any) -> str:
    """An option value as ``options:`` text takes it (``true``, ``-1``, ``pair``)."""
    return str(value).lower() if isinstance(value, bool) else str(value)


class OptionsModal(discord.ui.Modal):
    """The options of ``engine`` at ``values`` (resolved: every option has one); ``clock`` is
    passed on as ``/game new`` got it; ``opened_by`` is the id of the interaction that opens it."""

    def __init__(
        self, engine: base.Engine, values: Mapping[str, Any], clock: str | None, opened_by: int
    ) -> None:
        # discord.py finds an open modal by its custom id alone: one per opening interaction
        super().__init__(
            title=f"New {engine.title} game"[:45],
            timeout=MODAL_TIMEOUT,
            custom_id=f"bzn:{engine.name}:{opened_by}",
        )
        self.kind, self.clock = engine.name, clock
        self.switches: list[str] = []
        self.boxes: discord.ui.CheckboxGroup[OptionsModal] | None = None
        self.fields: dict[str, Field] = {}
        bools = [o for o in engine.options if o.kind is bool][:MAX_BOXES]
        if bools:
            self.switches = [o.name for o in bools]
            self.boxes = discord.ui.CheckboxGroup(
                custom_id="switches",
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
            self.add_item(discord.ui.Label(text="Turned on", component=self.boxes))
        for o in engine.options:
            if o.kind is bool or len(self.children) >= MAX_FIELDS:
                continue
            field = _field(o, _shown(values[o.name]))
            self.fields[o.name] = field
            self.add_item(discord.ui.Label(text=o.name[:45], description=o.help[:100], component=field))

    def options_text(self) -> str:
        """The answers as ``name=value`` pairs, as ``/game new options:`` takes them."""
        on = set(self.boxes.values) if self.boxes is not None else set()
        parts = [f"{name}={'true' if name in on else 'false'}" for name in self.switches]
        for name, field in self.fields.items():
            value = field.value
            if value is not None and value.strip():
                parts.append(f"{name}={value.strip()}")
        return " ".join(parts)

    async def on_submit(self, interaction: discord.Interaction, /) -> None:
        await lobby.new_game(interaction, self.kind, self.options_text(), self.clock)


def _field(
    o: Option, current: str
) -> discord.ui.RadioGroup[OptionsModal] | discord.ui.TextInput[OptionsModal]:
    """A radio group of ``o``'s few values, else a short text field; ``current`` chosen."""
    few = o.few_values()
    if len(few) >= 2:
        return discord.ui.RadioGroup(
            custom_id=o.name,
            options=[discord.RadioGroupOption(label=v, value=v, default=v == current) for v in few],
        )
    return discord.ui.TextInput(custom_id=o.name, default=current, max_length=20)


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
        await interaction.response.send_modal(OptionsModal(engine, values, clock, interaction.id))
