"""The lobby: ``/game new`` opens one, its buttons (or ``/game join|leave|addbot|start``) fill
it, and Start deals the game into a thread of its own where the bot may open one."""

from __future__ import annotations

import logging

import discord

from ..host.live import LiveGame, Refusal
from ..host.store import StoreUnavailable
from . import components, text
from .context import Bazaar
from .handling import QUIET, bot_of, can_manage, defer, display_name, guard, remember, reply, target

log = logging.getLogger(__name__)
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


async def new_game(
    interaction: discord.Interaction,
    kind: str,
    options: str | None,
    clock: str | None,
    *,
    hints: bool = True,
    rated: bool = True,
) -> None:
    """/game new: open a lobby and post its message with the lobby buttons; ``hints`` off: the
    game gives no hints (:mod:`.coaching`)."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game new"):
        await defer(interaction)
        channel_id = interaction.channel_id
        if channel_id is None:  # Discord sends every slash command from a channel
            raise Refusal("A game is opened in a channel.")
        game = remember(
            interaction,
            await bot.service.create(
                kind=kind,
                options=options,
                clock=clock,
                guild_id=interaction.guild_id,
                channel_id=channel_id,
                user_id=interaction.user.id,
                name=display_name(interaction),
                rated=rated,
            ),
        )
        if not hints:
            await bot.service.coaching.set_hints(game.id, False)
        channel = bot.get_partial_messageable(channel_id, guild_id=interaction.guild_id)
        try:
            msg = await channel.send(
                text.lobby(game), view=components.lobby_view(game.id), allowed_mentions=QUIET
            )
        except discord.HTTPException as err:
            log.warning("Posting the lobby of game %s failed: %s", game.id, err)
            await bot.service.posts.withdraw_lobby(game.id)
            await reply(interaction, text.NO_POST)
            return
        try:
            await bot.service.posts.record_posted(
                game.id, kind="lobby", channel_id=msg.channel.id, message_id=msg.id, version=0, live=True
            )
        except StoreUnavailable:
            await _withdraw_lobby(bot, game, msg)
            raise
        warn = "" if interaction.app_permissions.attach_files else "\n" + text.NO_FILES
        await reply(
            interaction,
            f"Opened **{game.title}**: the lobby is below. Others press **Join**; "
            f"you press **Start** when everyone is in.{warn}",
        )


async def _withdraw_lobby(bot: Bazaar, game: LiveGame, msg: discord.Message) -> None:
    """Take back a lobby whose message could not be recorded (the database failed): delete the
    message, and end the game if the database lets us (else it stays an empty lobby nobody sees)."""
    try:
        await msg.delete()
    except discord.HTTPException as err:
        log.warning("Deleting the unrecorded lobby of game %s failed: %s", game.id, err)
    await bot.service.posts.withdraw_lobby(game.id, quiet=True)


async def lobby_op(
    interaction: discord.Interaction,
    op: str,
    game_id: int | None = None,
    *,
    component: bool = False,
    level: str | None = None,
) -> None:
    """Join, leave, add an AI (at ``level``, else the default) or start (from a slash command or a
    lobby button)."""
    bot = bot_of(interaction)
    async with guard(interaction, f"lobby {op}"):
        await defer(interaction, component=component)
        game = await target(interaction, game_id, component=component)
        user = interaction.user.id
        if op == "join":
            box = await bot.service.join(game.id, user, display_name(interaction))
            done = f"You joined **{game.title}**."
        elif op == "leave":
            box = await bot.service.leave(game.id, user)
            done = f"You left **{game.title}**."
        elif op == "addbot":
            box = await bot.service.add_ai(game.id, user, level)
            done = f"Added an AI{f' ({level})' if level else ''} to **{game.title}**."
        elif op == "start":
            await start(interaction, game)
            return
        else:
            raise Refusal("Unknown lobby action.")
        await bot.publisher.publish(box)  # the lobby message shows the seats
        if not component:
            await reply(interaction, done)


async def start(interaction: discord.Interaction, game: LiveGame) -> None:
    """Start: check, open a thread where allowed (else play in the channel), deal, publish. The
    host runs the check, the thread's opening and the deal under the game's start lock
    (``service.start_in``), so a second Start click waits and is refused instead of opening a
    second thread (or dealing into the channel while a thread opens)."""
    bot = bot_of(interaction)
    box = await bot.service.start_in(
        game,
        interaction.user.id,
        lambda: _open_thread(interaction, game),
        can_manage=can_manage(interaction),
    )
    await bot.publisher.publish(box)
    thread_id = box.batch.row.thread_id
    where = f"<#{thread_id}>" if thread_id else "this channel"
    await reply(
        interaction,
        f"**{game.title}** has started in {where}. Your private view comes by DM (or use **My hand**).",
    )


async def _open_thread(interaction: discord.Interaction, game: LiveGame) -> int | None:
    """Open a public thread for the game from its lobby message when the bot may; None if not."""
    bot = bot_of(interaction)
    here = interaction.channel_id == game.row.channel_id
    channel = bot.get_channel(game.row.channel_id) or (interaction.channel if here else None)
    ctype = getattr(channel, "type", None)
    if interaction.guild_id is None or isinstance(channel, discord.Thread) or ctype in THREADS:
        return None  # the lobby is already in a thread: play there
    if ctype not in (discord.ChannelType.text, discord.ChannelType.news, None):
        return None
    perms = interaction.app_permissions
    if here and perms.value and not (perms.create_public_threads and perms.send_messages_in_threads):
        return None
    lobby = await bot.service.posts.posted_messages(game.id, kind="lobby")
    name = f"{game.title} — " + ", ".join(s.name for s in game.seats)
    try:
        if lobby and lobby[0].channel_id == game.row.channel_id:
            data = await bot.http.start_thread_with_message(
                game.row.channel_id, lobby[0].message_id, name=name[:100], auto_archive_duration=10080
            )
        else:
            data = await bot.http.start_thread_without_message(
                game.row.channel_id,
                name=name[:100],
                auto_archive_duration=10080,
                type=discord.ChannelType.public_thread.value,
            )
    except discord.HTTPException as err:
        log.info("Game %s plays in the channel: opening a thread failed (%s)", game.id, err.status)
        return None
    return int(data["id"])
