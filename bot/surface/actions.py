"""What happens when someone uses a command or clicks a component: shared by the slash commands
(``commands.py``) and the persistent components (``components.py``). This module has the moves
(``/move``, the prompts' menus and forms, "My hand", resigning and ending) and the reading
commands; the lobby is :mod:`lobby`, and how every flow answers is :mod:`handling`.

Every flow acknowledges the interaction first (a deferral) so Discord's 3-second limit is never
at risk, then calls the service, then publishes. Refusals and rule errors become ephemeral
replies; anything unexpected is logged with the game id and answered with an apology.
"""

from __future__ import annotations

import logging
from typing import Any

import discord

import render

from ..host.live import LiveGame, Refusal
from . import coaching, components, confirm, controls, drawn, inputs, layout, text, undoing
from .handling import QUIET, bot_of, can_manage, checked, defer, guard, reply_shown, resolve, sees, target
from .handling import reply as reply  # re-exported: app.py answers stray components with it
from .lobby import lobby_op
from .playing import play_and_publish

log = logging.getLogger(__name__)


# ---------------------------------------------------------------------- moves


async def move(
    interaction: discord.Interaction,
    action: str,
    game_id: int | None = None,
    *,
    version: int | None = None,
    component: bool = False,
) -> None:
    """/move or an action button/select: apply, publish, confirm (ephemerally for /move)."""
    async with guard(interaction, "move"):
        await defer(interaction, component=component)
        game = await target(interaction, game_id, component=component)
        await _play(interaction, game, action, version=version, component=component)


async def _play(
    interaction: discord.Interaction, game: LiveGame, action: str, *, version: int | None, component: bool
) -> None:
    """Apply ``action`` for the caller, publish, and confirm: ephemerally for ``/move``, by
    refreshing the caller's own answer when played from it. A move the engine names
    irreversible is first put to the caller as a private Confirm/Cancel (:mod:`confirm`)."""
    if await confirm.ask(interaction, game, action, version=version):
        return
    played, mine = await play_and_publish(interaction, game, action, version=version)
    if not component:
        await reply(interaction, text.played(played, mine), view=undoing.undo_view(game, interaction.user.id))
    elif interaction.message is not None and interaction.message.flags.ephemeral:
        await _refresh_hand(interaction, game, mine)  # played from the player's own answer


async def on_pick(
    interaction: discord.Interaction, game_id: int, version: int, key: str | None, values: object
) -> None:
    """A menu of the caller's prompt (``bzs:<game>:<version>:<key>``): the pick builds the action
    from the values chosen, which is then played like any move. Without a key
    (``bzs:<game>:<version>``) its one value is the action text."""
    sent = await checked(interaction, lambda: (*inputs.ids(game_id, version), inputs.values(values)))
    if sent is None:
        return
    game_id, version, values = sent
    if key is None:
        if len(values) != 1:
            await reply(interaction, "That menu sent something it does not offer: use the latest message.")
            return
        await move(interaction, values[0], game_id, version=version, component=True)
        return
    interaction.extras["game_id"] = game_id
    async with guard(interaction, "menu"):
        await defer(interaction, component=True)
        game = await target(interaction, game_id, component=True)
        action = await bot_of(interaction).service.clicks.pick_action(
            game, interaction.user.id, version, key, values
        )
        await _play(interaction, game, action, version=version, component=True)


async def on_form(
    interaction: discord.Interaction, game_id: int, version: int, form: str, pick: str | None, values: object
) -> None:
    """A form's menu (``pick`` given: the values go into the caller's stored draft and the message
    shows them) or its Send button (``pick`` None: the draft builds the action, which is played)."""
    sent = await checked(interaction, lambda: (*inputs.ids(game_id, version), inputs.values(values)))
    if sent is None:
        return
    game_id, version, values = sent
    interaction.extras["game_id"] = game_id
    bot = bot_of(interaction)
    async with guard(interaction, "form"):
        if pick is not None:
            game = await target(interaction, game_id, component=True)
            p, drafts = await bot.service.clicks.save_draft(
                game, interaction.user.id, version, form, pick, values
            )
            hand = (
                not (interaction.message and interaction.message.flags.ephemeral)
                and interaction.guild_id is not None
            )

            def made() -> discord.ui.View:
                return controls.view(game.id, version, p, hand=hand, drafts=drafts)

            hinted = await coaching.hint_allowed(interaction, game)  # the Hint button stays
            try:
                await interaction.response.edit_message(
                    view=coaching.with_hint(made, game.id, version)() if hinted else made()
                )
            except discord.HTTPException as err:
                log.info("Showing the draft of game %s failed: %s", game.id, err)
            return
        await defer(interaction, component=True)
        game = await target(interaction, game_id, component=True)
        action = await bot.service.clicks.form_action(game, interaction.user.id, version, form)
        await _play(interaction, game, action, version=version, component=True)


async def hand(
    interaction: discord.Interaction, game_id: int | None = None, *, component: bool = False
) -> None:
    """/hand or "My hand": the caller's private view, ephemerally."""
    async with guard(interaction, "hand"):
        await defer(interaction)
        game = await target(interaction, game_id, component=component)
        await reply_shown(interaction, await _hand_answer(interaction, game))


async def _hand_answer(
    interaction: discord.Interaction, game: LiveGame, notes: list[str] | None = None
) -> layout.Shown:
    """The caller's private answer: their view (text and image) and, when the rules await them,
    the buttons or menu of their legal moves (stamped with the current version, so a click after
    the game moved on is refused as stale), accented with their seat's colour. Raises
    :class:`Refusal` if the caller has no seat or the game no state."""
    bot = bot_of(interaction)
    user = interaction.user.id
    seat, view = bot.service.private_view(game, user)
    version = game.row.version  # read with the view: same state, same version
    p = bot.service.prompt_for(game, seat) if bot.service.awaited_seat(game, user) is not None else None
    drafts = await bot.service.clicks.drafts(game.id, seat, version, p)
    content, png, filename = await bot.publisher.hand(game, seat, dict(view))
    if notes:
        content = text.clip("\n".join(f"• {n}" for n in notes) + "\n" + content)
    fits = controls.fits(p, hand=False)
    made = (lambda: controls.view(game.id, version, p, hand=False, drafts=drafts)) if fits else None
    if p is not None and p.controls and not fits:
        content = text.clip(content + "\nYour move: use `/move` (it lists your moves).")
    elif p is not None and fits:
        content = text.clip("\n".join([content, *controls.groups_text(p)]))
    return layout.Shown(
        content,
        footer=f"{game.engine.name.capitalize()} — move {version} — only you see this",
        accent=render.seat_colour(seat),
        pngs=[png] if png is not None else [],
        filename=filename,
        controls=undoing.with_undo(
            (
                coaching.with_hint(made, game.id, version)
                if p is not None and await coaching.hint_allowed(interaction, game)
                else made
            ),
            game,
            user,
        ),
    )


async def _refresh_hand(interaction: discord.Interaction, game: LiveGame, notes: list[str]) -> None:
    """After a move played from the caller's own (ephemeral) answer, show them the new view and
    their next moves in that same message; where Discord refuses the edit (new pictures in a V2
    message) the answer is sent anew; errors are logged."""
    try:
        shown = await _hand_answer(interaction, game, notes)
    except Refusal as err:
        log.info("Refreshing the private answer of game %s failed: %r", game.id, err)
        return
    try:
        kwargs = layout.v2(shown)
        await interaction.edit_original_response(
            attachments=kwargs.pop("files", []), allowed_mentions=QUIET, **kwargs
        )
    except discord.HTTPException as err:
        log.info("Editing the private answer of game %s failed (%r): sending it anew", game.id, err)
        await reply_shown(interaction, await _hand_answer(interaction, game, notes))
        await _outdated_hand(interaction, game)


async def _outdated_hand(interaction: discord.Interaction, game: LiveGame) -> None:
    """Take the controls and the picture off the answer whose edit Discord refused (an edit that
    uploads nothing and drops the attachments is one it takes), saying the new one is below;
    errors are logged (its controls are then only refused as stale)."""
    said: discord.ui.Container[Any] = discord.ui.Container()
    said.add_item(discord.ui.TextDisplay(text.hand_outdated(game.title)))
    view = discord.ui.LayoutView(timeout=None)
    view.add_item(said)
    try:
        await interaction.edit_original_response(attachments=[], view=view, allowed_mentions=QUIET)
    except discord.HTTPException as err:
        log.info("Clearing the outdated private answer of game %s failed: %r", game.id, err)


async def on_button(interaction: discord.Interaction, game_id: int, version: int, action: str) -> None:
    """Dispatch a persistent component click."""
    sent = await checked(interaction, lambda: (*inputs.ids(game_id, version), inputs.action(action)))
    if sent is None:
        return
    game_id, version, action = sent
    interaction.extras["game_id"] = game_id
    if action == "!hand":
        await hand(interaction, game_id, component=True)
    elif action in components.CONTROLS:
        await lobby_op(interaction, action[1:], game_id, component=True)
    else:
        await move(interaction, action, game_id, version=version, component=True)


async def resign(interaction: discord.Interaction, game_id: int | None) -> None:
    """/resign: the AI takes the caller's seat for the rest of the game."""
    bot = bot_of(interaction)
    async with guard(interaction, "/resign"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        await bot.publisher.publish(await bot.service.resign(game.id, interaction.user.id))
        await reply(interaction, f"You resigned from **{game.title}**; the AI plays your seat now.")


async def end(interaction: discord.Interaction, game_id: int | None) -> None:
    """/game end: end a game early (creator or Manage Server)."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game end"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        await bot.publisher.publish(
            await bot.service.end(game.id, interaction.user.id, can_manage=can_manage(interaction))
        )
        await reply(interaction, f"**{game.title}** has been ended.")


# ---------------------------------------------------------------------- reading


async def status(interaction: discord.Interaction, game_id: int | None) -> None:
    """/game status: seats, whose turn, the clock, and the public board."""
    async with guard(interaction, "/game status"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        view = bot_of(interaction).service.public_view(game)
        file = None
        if view is not None:
            file = await drawn.image(
                interaction.client,
                game.id,
                game.engine.name,
                "board",
                dict(view),  # drawn.image takes a dict
                game.names,
                f"{game.engine.name}-{game.id}-status.png",
            )
        await reply(interaction, text.status(game, view), file=file)


async def game_list(interaction: discord.Interaction) -> None:
    """/game list: the open games of this server."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game list"):
        await reply(
            interaction, text.game_list(await bot.service.list_games(interaction.guild_id, sees(interaction)))
        )


async def move_log(interaction: discord.Interaction, game_id: int | None, count: int) -> None:
    """/log: the last moves in readable form."""
    bot = bot_of(interaction)
    async with guard(interaction, "/log"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        await reply(
            interaction, text.log(game, await bot.service.history(game.id, last=max(1, min(count, 50))))
        )


play_move = _play  # a move from a dialog (dialog_flow) is played as any other
