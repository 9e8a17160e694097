"""A fake Discord (gateway v10 + REST) on 127.0.0.1 for end-to-end tests of the real discord.py client.

Usage (the fixtures in tests/e2e/conftest.py do the start/patch/teardown)::

    async def test_new_game(fake_discord, run_bot):
        fake = fake_discord
        guild = fake.add_guild("Test", channels=["games"])
        chan = guild.channel("games")
        alice = fake.add_user("alice", guild=guild)
        mod = fake.add_user("mod", guild=guild, permissions=discord.Permissions(manage_guild=True))

        bot = await run_bot(make_bot())          # started and READY (small guild_ready_timeout)
        await bot.client.tree.sync()              # stored by the fake; survives restarts like on Discord

        # waits for the final response
        h = await fake.slash(alice, chan, "game new", game="pralaya", players=3)
        assert h.callback_type == 4 and not h.ephemeral and "Join" in h.response.button_labels
        # a deferred update (type 6) is final at once: ``await h.wait_edits()`` for the edit that follows
        join = await fake.click(alice, h.response, label="Join")                    # or custom_id=...
        choices = await fake.autocomplete(alice, chan, "move", focused="action", action="ta")
        board = await fake.wait_message(chan, lambda m: m.attachments, after=join)
        png = board.attachment("board.png").data
        assert fake.dms(alice)                                                       # private hand by DM

        await bot.kill()                          # died without cleanup; then run_bot(second client)

Faults (``fakediscord.faults``): ``fake.faults.fail(route, status=500, times=2, after=False)``,
``fake.faults.rate_limit(route, retry_after, global_=False)``, ``fake.faults.slow(route, seconds)``,
``fake.faults.disconnect(route)``, ``fake.faults.drop_gateway(code=None, resumable=True)``,
``fake.faults.reconnect()`` (op 7), ``fake.faults.invalid_session(resumable=False)`` (op 9).

Components V2 (``fakediscord.v2``): a message with flag 32768 has no content or embeds and
layout components (9 Section, 10 TextDisplay, 11 Thumbnail, 12 MediaGallery, 13 File, 14
Separator, 17 Container, 1 rows), at most 40 in all and 4000 characters of text; anything else
is refused with Discord's 400 / 50035. ``attachment://board.png`` media are resolved to the
message's attachments. Readers: ``msg.v2``, ``msg.text`` (content, embeds and every
TextDisplay), ``msg.text_displays``, ``msg.images`` (the attachments shown, in order),
``msg.accent_color``, ``msg.buttons``/``msg.selects``/``msg.component(...)`` wherever nested,
``msg.custom_emojis`` and ``fake.unknown_emojis(msg)``.

Modals (``fakediscord.modals``): ``h.modal`` is the modal the bot opened (labels, text inputs,
selects, radio groups, checkbox groups, checkboxes), ``sub = await fake.submit_modal(h,
{"custom_id": value, ...})`` fills and submits it (``sub`` is the MODAL_SUBMIT interaction).
Application emojis: ``/applications/{id}/emojis`` routes, stored in ``fake.app_emojis``; a
button or option showing an unknown custom emoji is refused. Discord's refusals, on request:
``fake.faults.refuse_v2_media_edits()`` (400, discord-api-docs#7529),
``fake.faults.refuse_old_edits(3600)`` with ``fake.age_messages(seconds)`` (429 / 30046),
``fake.faults.refuse_v2(channel)`` (400 on the flag in that channel).

Reading records: ``fake.messages(chan)``, ``fake.dms(user)``, ``fake.threads``, ``fake.requests``,
``fake.unknown_routes``, ``fake.interactions``, ``await fake.wait_for(predicate)``.
"""

from .errors import ApiError, FakeDiscordError, FakeDiscordTimeout
from .faults import Fault, Faults
from .gateway import Session
from .interactions import Interaction
from .records import Attachment, Channel, Choice, Guild, Member, Message, Request, Role, User
from .runner import BotRunner, RunBot
from .server import FakeDiscord
from .world import (
    ADMINISTRATOR,
    ATTACH_FILES,
    CREATE_PRIVATE_THREADS,
    CREATE_PUBLIC_THREADS,
    DEFAULT_BOT_PERMISSIONS,
    DEFAULT_EVERYONE_PERMISSIONS,
    MANAGE_GUILD,
    MANAGE_MESSAGES,
    MANAGE_THREADS,
    SEND_MESSAGES,
    SEND_MESSAGES_IN_THREADS,
    VIEW_CHANNEL,
)

__all__ = [
    "ADMINISTRATOR",
    "ATTACH_FILES",
    "ApiError",
    "Attachment",
    "BotRunner",
    "CREATE_PRIVATE_THREADS",
    "CREATE_PUBLIC_THREADS",
    "Channel",
    "Choice",
    "DEFAULT_BOT_PERMISSIONS",
    "DEFAULT_EVERYONE_PERMISSIONS",
    "FakeDiscord",
    "FakeDiscordError",
    "Fault",
    "Faults",
    "FakeDiscordTimeout",
    "Guild",
    "Interaction",
    "MANAGE_GUILD",
    "MANAGE_MESSAGES",
    "MANAGE_THREADS",
    "Member",
    "Message",
    "Request",
    "Role",
    "RunBot",
    "SEND_MESSAGES",
    "SEND_MESSAGES_IN_THREADS",
    "Session",
    "User",
    "VIEW_CHANNEL",
]
