"""A modal's submit, read from the interaction alone: the bot keeps no copy of the modals it
opens (they are sent stopped), so a dialog sent after a restart of the bot, or after any time,
is served like any other. The custom id says what the modal was opened for: a prompt's dialog
(``bzdm:…``, :mod:`dialogs`) or ``/game new``'s options (``bzn:…``, :mod:`newgame`)."""

from __future__ import annotations

import discord

from . import dialog_flow, inputs, newgame
from .dialogs import MODAL_ID, answers
from .flood import admitted
from .handling import reply


async def on_modal(interaction: discord.Interaction) -> None:
    """Serve a modal submit (after the flood guard); one of an unknown shape is answered as an
    old control."""
    data: object = interaction.data or {}
    cid = data.get("custom_id") if isinstance(data, dict) else None
    if not isinstance(cid, str) or not await admitted(interaction):
        return
    if found := MODAL_ID.fullmatch(cid):
        await dialog_flow.submit_dialog(
            interaction, int(found["game"]), int(found["version"]), found["key"], answers(interaction)
        )
    elif found := newgame.MODAL_ID.fullmatch(cid):
        await newgame.submit(interaction, found["game"], found["clock"], answers(interaction))
    else:
        await reply(interaction, inputs.OLD_CONTROL)
