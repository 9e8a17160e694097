"""What happens when someone uses a command or clicks a component: shared by the slash commands
(``commands.py``) and the persistent components (``components.py``).

Every flow acknowledges the interaction first (a deferral) so Discord's 3-second limit is never
at risk, then calls the service, then publishes. Refusals and rule errors become ephemeral
replies; anything unexpected is logged with the game id and answered with an apology.
"""
from __future__ import annotations

import logging
from contextlib import asynccontextmanager
from typing import Any, AsyncIterator, Callable, TypeVar

import discord

from engines import base
from engines.base import RuleError

from engines.prompt import Form, Pick, Prompt, PromptError

from . import components, controls, inputs, text
from .context import Bazaar, bazaar
from ..host.clock import BadDuration
from ..host.live import LiveGame, Refusal
from ..host.store import GameRow, StoreUnavailable


log = logging.getLogger(__name__)
T = TypeVar("T")
QUIET = discord.AllowedMentions.none()
THREADS = (discord.ChannelType.public_thread, discord.ChannelType.private_thread, discord.ChannelType.news_thread)


def bot_of(interaction: discord.Interaction) -> Bazaar:
    return bazaar(interaction.client)


async def reply(interaction: discord.Interaction, content: str, *, file: discord.File | None = None,
                view: discord.ui.View | None = None, ephemeral: bool = True) -> None:
    """Answer the interaction (or follow up if already answered); errors are logged."""
    kwargs: dict[str, Any] = {"content": text.clip(content), "ephemeral": ephemeral, "allowed_mentions": QUIET}
    if file is not None:
        kwargs["file"] = file
    if view is not None:
        kwargs["view"] = view
    try:
        if answered(interaction):
            await interaction.followup.send(**kwargs)
        else:
            await interaction.response.send_message(**kwargs)
    except Exception as err:  # an expired token, or a client shutting down
        log.warning("Could not answer interaction %s: %r", interaction.id, err)


def answered(interaction: discord.Interaction) -> bool:
    """Whether the interaction has its initial response (so answers are follow-ups)."""
    return interaction.response.is_done() or bool(interaction.extras.get("acknowledged"))


async def defer(interaction: discord.Interaction, *, component: bool = False) -> None:
    """Acknowledge at once: silently for a component, as an ephemeral "thinking" otherwise.

    When Discord took the acknowledgement but its answer was lost (a 5xx that discord.py
    retried, to hear 400 / 40060 "already acknowledged"), the interaction is acknowledged all
    the same: the flow goes on and answers with follow-ups."""
    if answered(interaction):
        return
    try:
        if component:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=True, thinking=True)
    except discord.HTTPException as err:
        if err.code != 40060:
            raise
        log.info("Interaction %s was acknowledged, though Discord's answer was lost", interaction.id)
        interaction.extras["acknowledged"] = True


def remember(interaction: discord.Interaction, game: LiveGame) -> LiveGame:
    """Note the game on the interaction (for error logs and seat names in reasons)."""
    interaction.extras["game_id"] = game.id
    interaction.extras["names"] = game.names
    return game


@asynccontextmanager
async def guard(interaction: discord.Interaction, what: str) -> AsyncIterator[None]:
    """Turn refusals into ephemeral replies, the database failing (:class:`StoreUnavailable`:
    nothing was changed) into the private "could not save" answer, and unexpected errors into a
    log line with the game id plus an apology. Counts the handler as in flight (the bot waits for
    those when closing)."""
    bot = bot_of(interaction)
    bot.inflight += 1
    try:
        yield
    except (Refusal, RuleError, BadDuration) as err:
        reason = getattr(err, "reason", None) or str(err)
        await reply(interaction, base.format_text(reason, interaction.extras.get("names")))
    except StoreUnavailable as err:
        log.warning("Database failure in %s (game %s, interaction %s): %s", what,
                    interaction.extras.get("game_id"), interaction.id, err)
        await reply(interaction, text.store_down(what))
    except Exception:
        gid = interaction.extras.get("game_id")
        log.exception("Error in %s (game %s, interaction %s)", what, gid, interaction.id)
        await reply(interaction, text.apology(gid))
    finally:
        bot.inflight -= 1


def _name(interaction: discord.Interaction) -> str:
    user = interaction.user
    return (getattr(user, "display_name", None) or user.name)[:60]


def _can_manage(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    return bool(perms.manage_guild or perms.administrator)


def sees(interaction: discord.Interaction) -> Callable[[GameRow], bool] | None:
    """Whether the member of ``interaction`` may see where a game is played: its thread, else
    (an archived thread the bot no longer holds) its channel, by the member's permissions there.
    A place the bot cannot see at all counts as hidden. None outside a server (no channels)."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return None

    def can(row: GameRow) -> bool:
        for place in (row.thread_id, row.channel_id):
            channel = guild.get_channel_or_thread(place) if place else None
            if channel is not None:
                return bool(channel.permissions_for(member).view_channel)
        return False

    return can


async def resolve(interaction: discord.Interaction, game_id: int | None = None) -> LiveGame:
    """The game this interaction is about (see :meth:`GameService.find`), among the games the
    member may see."""
    svc = bot_of(interaction).service
    game = await svc.find(guild_id=interaction.guild_id, channel_id=interaction.channel_id or 0,
                          user_id=interaction.user.id, game_id=game_id, sees=sees(interaction))
    return remember(interaction, game)


async def target(interaction: discord.Interaction, game_id: int | None, *, component: bool) -> LiveGame:
    """The game a command (see :func:`resolve`) or a component click is about. A click names its
    game by number, and must come from where that game lives (its channel or thread): a button
    left on an old message whose number now belongs to another game (a lost and recreated
    database) is refused. Raises :class:`Refusal`."""
    if not component or game_id is None:
        return await resolve(interaction, game_id)
    bot = bot_of(interaction)
    game = remember(interaction, await bot.service.get(game_id))
    row = game.row
    if interaction.guild_id is None and row.guild_id is not None:
        # a click in a DM: only on a DM the bot sent this player for this very game
        seat = game.seat_of(interaction.user.id)
        msg = interaction.message
        sent = {m.message_id for m in await bot.store.messages(game.id, kind="dm")
                if seat is not None and m.seat == seat.seat}
        if seat is None or msg is None or msg.id not in sent:
            raise Refusal("This button belongs to a game that no longer exists here.")
        return game
    if interaction.guild_id != row.guild_id or interaction.channel_id not in (row.channel_id, row.thread_id):
        raise Refusal("This button belongs to a game that no longer exists here.")
    return game


# ---------------------------------------------------------------------- lobby


async def new_game(interaction: discord.Interaction, kind: str, options: str | None, clock: str | None) -> None:
    """/game new: open a lobby and post its message with the lobby buttons."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game new"):
        await defer(interaction)
        game = remember(interaction, await bot.service.create(
            kind=kind, options=options, clock=clock, guild_id=interaction.guild_id,
            channel_id=interaction.channel_id, user_id=interaction.user.id, name=_name(interaction)))
        channel = bot.get_partial_messageable(interaction.channel_id, guild_id=interaction.guild_id)
        try:
            msg = await channel.send(text.lobby(game), view=components.lobby_view(game.id), allowed_mentions=QUIET)
        except discord.HTTPException as err:
            log.warning("Posting the lobby of game %s failed: %s", game.id, err)
            await bot.store.update_game(game.id, status="ended")
            bot.service.forget(game.id)
            await reply(interaction, text.NO_POST)
            return
        try:
            await bot.store.add_message(game.id, kind="lobby", channel_id=msg.channel.id, message_id=msg.id,
                                        version=0, live=True)
        except StoreUnavailable:
            await _withdraw_lobby(bot, game, msg)
            raise
        warn = "" if interaction.app_permissions.attach_files else "\n" + text.NO_FILES
        await reply(interaction, f"Opened **{game.title}**: the lobby is below. Others press **Join**; "
                                 f"you press **Start** when everyone is in.{warn}")


async def _withdraw_lobby(bot: Bazaar, game: LiveGame, msg: discord.Message) -> None:
    """Take back a lobby whose message could not be recorded (the database failed): delete the
    message, and end the game if the database lets us (else it stays an empty lobby nobody sees)."""
    try:
        await msg.delete()
    except discord.HTTPException as err:
        log.warning("Deleting the unrecorded lobby of game %s failed: %s", game.id, err)
    try:
        await bot.store.update_game(game.id, status="ended")
    except StoreUnavailable:
        pass
    bot.service.forget(game.id)


async def lobby_op(interaction: discord.Interaction, op: str, game_id: int | None = None, *,
                   component: bool = False, level: str | None = None) -> None:
    """Join, leave, add an AI (at ``level``, else the default) or start (from a slash command or a
    lobby button)."""
    bot = bot_of(interaction)
    async with guard(interaction, f"lobby {op}"):
        await defer(interaction, component=component)
        game = await target(interaction, game_id, component=component)
        user = interaction.user.id
        if op == "join":
            await bot.service.join(game.id, user, _name(interaction))
            done = f"You joined **{game.title}**."
        elif op == "leave":
            await bot.service.leave(game.id, user)
            done = f"You left **{game.title}**."
        elif op == "addbot":
            await bot.service.add_ai(game.id, user, level)
            done = f"Added an AI{f' ({level})' if level else ''} to **{game.title}**."
        elif op == "start":
            await start(interaction, game)
            return
        else:
            raise Refusal("Unknown lobby action.")
        await bot.publisher.refresh_lobby(game)
        if not component:
            await reply(interaction, done)


async def start(interaction: discord.Interaction, game: LiveGame) -> None:
    """Start: check, open a thread where allowed (else play in the channel), deal, publish. The
    whole of it runs under the game's start lock, so a second Start click waits and is refused
    instead of opening a second thread (or dealing into the channel while a thread opens)."""
    bot = bot_of(interaction)
    svc = bot.service
    can_manage = _can_manage(interaction)
    async with game.start_lock:
        svc.check_start(game, interaction.user.id, can_manage=can_manage)
        thread_id = await _open_thread(interaction, game)
        await svc.start(game.id, interaction.user.id, can_manage=can_manage, thread_id=thread_id)
    await bot.publisher.publish(game)
    where = f"<#{thread_id}>" if thread_id else "this channel"
    await reply(interaction, f"**{game.title}** has started in {where}. Your private view comes by DM "
                             f"(or use **My hand**).")


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
    lobby = await bot.store.messages(game.id, kind="lobby")
    name = f"{game.title} — " + ", ".join(s.name for s in game.seats)
    try:
        if lobby and lobby[0].channel_id == game.row.channel_id:
            data = await bot.http.start_thread_with_message(
                game.row.channel_id, lobby[0].message_id, name=name[:100], auto_archive_duration=10080)
        else:
            data = await bot.http.start_thread_without_message(
                game.row.channel_id, name=name[:100], auto_archive_duration=10080,
                type=discord.ChannelType.public_thread.value)
    except discord.HTTPException as err:
        log.info("Game %s plays in the channel: opening a thread failed (%s)", game.id, err.status)
        return None
    return int(data["id"])


# ---------------------------------------------------------------------- moves


async def move(interaction: discord.Interaction, action: str, game_id: int | None = None, *,
               version: int | None = None, component: bool = False) -> None:
    """/move or an action button/select: apply, publish, confirm (ephemerally for /move)."""
    async with guard(interaction, "move"):
        await defer(interaction, component=component)
        game = await target(interaction, game_id, component=component)
        await _play(interaction, game, action, version=version, component=component)


async def _play(interaction: discord.Interaction, game: LiveGame, action: str, *, version: int | None,
                component: bool) -> None:
    """Apply ``action`` for the caller, publish, and confirm: ephemerally for ``/move``, by
    refreshing the caller's own answer when played from it."""
    bot = bot_of(interaction)
    seat = game.seat_of(interaction.user.id)
    await bot.service.move(game.id, interaction.user.id, action, expected_version=version)
    batch = await bot.publisher.publish(game)
    mine = [] if batch is None or seat is None else batch.private_lines(seat.seat)
    played = next((st.action for st in (batch.steps if batch else ()) if st.by == "player"
                   and seat is not None and st.seat == seat.seat and st.action), action)
    if not component:
        await reply(interaction, text.played(played, mine))
    elif interaction.message is not None and interaction.message.flags.ephemeral:
        await _refresh_hand(interaction, game, mine)  # played from the player's own answer


def _awaited_prompt(interaction: discord.Interaction, game: LiveGame, version: int) -> tuple[int, Prompt]:
    """The caller's seat and prompt now, for a click on controls made at ``version``. Raises
    ``StaleState`` for an old version, :class:`Refusal` when the caller is not awaited."""
    svc = bot_of(interaction).service
    if version != game.row.version:
        raise base.StaleState()
    seat = game.seat_of(interaction.user.id)
    if seat is None:
        raise Refusal(f"You are not playing in {game.title}.")
    if svc.awaited_seat(game, interaction.user.id) is None:
        svc.check_playable(game)  # over, not started or needing attention: its own reason
        raise base.NotYourTurn(base.not_your_turn_reason(game.awaited()))
    p = svc.prompt_for(game, seat.seat)
    assert p is not None
    return seat.seat, p


def _awaited_form(interaction: discord.Interaction, game: LiveGame, version: int,
                  key: str) -> tuple[int, Prompt, Form]:
    """The caller's seat, prompt and its form ``key`` (see :func:`_awaited_prompt`); raises
    :class:`Refusal` when the prompt has no such form any more."""
    seat, p = _awaited_prompt(interaction, game, version)
    f = p.find(key)
    if not isinstance(f, Form):
        raise Refusal("That form is out of date: use the latest message.")
    return seat, p, f


async def checked(interaction: discord.Interaction, check: Callable[[], T]) -> T | None:
    """``check()`` (one of :mod:`inputs`' checks of what the interaction sent), or None once its
    refusal has been answered privately."""
    try:
        return check()
    except (Refusal, RuleError) as err:
        await reply(interaction, getattr(err, "reason", None) or str(err))
        return None


async def on_pick(interaction: discord.Interaction, game_id: int, version: int, key: str | None,
                  values: Any) -> None:
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
        async with game.lock:
            _, p = _awaited_prompt(interaction, game, version)
            pick = p.find(key)
            if not isinstance(pick, Pick):
                raise Refusal("That menu is out of date: use the latest message.")
            try:
                action = pick.build(values)
            except PromptError as err:
                raise Refusal(str(err)) from None
        await _play(interaction, game, action, version=version, component=True)


async def on_form(interaction: discord.Interaction, game_id: int, version: int, form: str,
                  pick: str | None, values: Any) -> None:
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
            async with game.lock:
                seat, p, f = _awaited_form(interaction, game, version, form)
                part = f.pick(pick)
                if part is None:
                    raise Refusal("That form is out of date: use the latest message.")
                try:
                    part.joined(values)
                except PromptError as err:
                    raise Refusal(str(err)) from None
                await bot.store.save_draft(game.id, seat, form, version, {pick: values})
                drafts = await bot.publisher.drafts(game.id, seat, version, p)
            hand = not (interaction.message and interaction.message.flags.ephemeral) and interaction.guild_id is not None
            try:
                await interaction.response.edit_message(view=controls.view(game.id, version, p, hand=hand,
                                                                           drafts=drafts))
            except discord.HTTPException as err:
                log.info("Showing the draft of game %s failed: %s", game.id, err)
            return
        await defer(interaction, component=True)
        game = await target(interaction, game_id, component=True)
        async with game.lock:
            seat, _, f = _awaited_form(interaction, game, version, form)
            try:
                action = f.build(await bot.store.draft(game.id, seat, form, version))
            except PromptError as err:
                raise Refusal(str(err)) from None
        await _play(interaction, game, action, version=version, component=True)


async def hand(interaction: discord.Interaction, game_id: int | None = None, *, component: bool = False) -> None:
    """/hand or "My hand": the caller's private view, ephemerally."""
    async with guard(interaction, "hand"):
        await defer(interaction)
        game = await target(interaction, game_id, component=component)
        content, file, controls = await _hand_answer(interaction, game)
        await reply(interaction, content, file=file, view=controls)


async def _hand_answer(interaction: discord.Interaction, game: LiveGame, notes: list[str] | None = None
                       ) -> tuple[str, discord.File | None, discord.ui.View | None]:
    """The caller's private answer: their view (text and image) and, when the rules await them,
    the buttons or menu of their legal moves (stamped with the current version, so a click after
    the game moved on is refused as stale). Returns ``(content, file, view or None)``. Raises
    :class:`Refusal` if the caller has no seat or the game no state."""
    bot = bot_of(interaction)
    user = interaction.user.id
    seat, view = bot.service.private_view(game, user)
    version = game.row.version  # read with the view: same state, same version
    p = bot.service.prompt_for(game, seat) if bot.service.awaited_seat(game, user) is not None else None
    drafts = await bot.publisher.drafts(game.id, seat, version, p)
    content, file = await bot.publisher.hand(game, seat, view)
    if notes:
        content = text.clip("\n".join(f"• {n}" for n in notes) + "\n" + content)
    fits = controls.fits(p, hand=False)
    if p is not None and p.controls and not fits:
        content = text.clip(content + "\nYour move: use `/move` (it lists your moves).")
    elif p is not None and fits:
        content = text.clip("\n".join([content, *controls.groups_text(p)]))
    comps = controls.view(game.id, version, p, hand=False, drafts=drafts) if fits else None
    return content, file, comps


async def _refresh_hand(interaction: discord.Interaction, game: LiveGame, notes: list[str]) -> None:
    """After a move played from the caller's own (ephemeral) answer, show them the new view and
    their next moves in that same message; errors are logged."""
    try:
        content, file, controls = await _hand_answer(interaction, game, notes)
        await interaction.edit_original_response(content=content, attachments=[file] if file else [],
                                                 view=controls, allowed_mentions=QUIET)
    except (Refusal, discord.HTTPException) as err:
        log.info("Refreshing the private answer of game %s failed: %r", game.id, err)


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
        await bot.service.resign(game.id, interaction.user.id)
        await bot.publisher.publish(game)
        await reply(interaction, f"You resigned from **{game.title}**; the AI plays your seat now.")


async def end(interaction: discord.Interaction, game_id: int | None) -> None:
    """/game end: end a game early (creator or Manage Server)."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game end"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        await bot.service.end(game.id, interaction.user.id, can_manage=_can_manage(interaction))
        await bot.publisher.publish(game)
        await reply(interaction, f"**{game.title}** has been ended.")


# ---------------------------------------------------------------------- reading


async def status(interaction: discord.Interaction, game_id: int | None) -> None:
    """/game status: seats, whose turn, the clock, and the public board."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game status"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        view = game.engine.view(game.state, None) if game.state is not None else None
        file = None
        if view is not None:
            file = await bot.publisher.image(game.id, game.engine.name, "board", view, game.names,
                                             f"{game.engine.name}-{game.id}-status.png")
        await reply(interaction, text.status(game, view), file=file)


async def game_list(interaction: discord.Interaction) -> None:
    """/game list: the open games of this server."""
    bot = bot_of(interaction)
    async with guard(interaction, "/game list"):
        await reply(interaction, text.game_list(await bot.service.list_games(interaction.guild_id,
                                                                             sees(interaction))))


async def rules(interaction: discord.Interaction, kind: str) -> None:
    """/rules: a game's summary and options."""
    async with guard(interaction, "/rules"):
        await reply(interaction, text.rules(base.get(kind)))


async def move_log(interaction: discord.Interaction, game_id: int | None, count: int) -> None:
    """/log: the last moves in readable form."""
    bot = bot_of(interaction)
    async with guard(interaction, "/log"):
        await defer(interaction)
        game = await resolve(interaction, game_id)
        await reply(interaction, text.log(game, await bot.service.history(game.id, last=max(1, min(count, 50)))))
