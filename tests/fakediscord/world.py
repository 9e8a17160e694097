"""The fake Discord's world: users, guilds, roles, channels, threads, DMs, messages, commands.

``World`` holds the state and the synchronous set-up API (``add_guild``, ``add_user``…) and
computes permissions the way Discord does (roles, then @everyone/role/member overwrites).
Changes that a connected client would hear about go through ``_emit`` (a no-op here; the
server turns them into gateway dispatches).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from .records import (
    DM,
    PRIVATE_THREAD,
    PUBLIC_THREAD,
    TEXT,
    Attachment,
    Channel,
    Guild,
    Member,
    Message,
    Role,
    Snowflakes,
    User,
)

# Permission bits (https://discord.com/developers/docs/topics/permissions).
CREATE_INSTANT_INVITE = 1 << 0
ADMINISTRATOR = 1 << 3
MANAGE_CHANNELS = 1 << 4
MANAGE_GUILD = 1 << 5
ADD_REACTIONS = 1 << 6
VIEW_CHANNEL = 1 << 10
SEND_MESSAGES = 1 << 11
MANAGE_MESSAGES = 1 << 13
EMBED_LINKS = 1 << 14
ATTACH_FILES = 1 << 15
READ_MESSAGE_HISTORY = 1 << 16
MENTION_EVERYONE = 1 << 17
USE_EXTERNAL_EMOJIS = 1 << 18
USE_APPLICATION_COMMANDS = 1 << 31
MANAGE_THREADS = 1 << 34
CREATE_PUBLIC_THREADS = 1 << 35
CREATE_PRIVATE_THREADS = 1 << 36
SEND_MESSAGES_IN_THREADS = 1 << 38
ALL_PERMISSIONS = (1 << 53) - 1

DEFAULT_EVERYONE_PERMISSIONS = (
    CREATE_INSTANT_INVITE
    | ADD_REACTIONS
    | VIEW_CHANNEL
    | SEND_MESSAGES
    | EMBED_LINKS
    | ATTACH_FILES
    | READ_MESSAGE_HISTORY
    | USE_EXTERNAL_EMOJIS
    | USE_APPLICATION_COMMANDS
    | CREATE_PUBLIC_THREADS
    | SEND_MESSAGES_IN_THREADS
)
DEFAULT_BOT_PERMISSIONS = (
    DEFAULT_EVERYONE_PERMISSIONS
    | MANAGE_MESSAGES
    | MANAGE_THREADS
    | CREATE_PRIVATE_THREADS
    | MENTION_EVERYONE
)


def perm_value(value: Any) -> int:
    """Return an int permission mask from an int or a ``discord.Permissions``-like object (``.value``)."""
    if value is None:
        return 0
    if isinstance(value, int):
        return value
    if hasattr(value, "value"):
        return int(value.value)
    raise TypeError(f"expected an int or discord.Permissions, got {value!r}")


def overwrite_pair(value: Any) -> tuple[int, int]:
    """Return (allow, deny) from a ``discord.PermissionOverwrite`` or an (allow, deny) pair."""
    if hasattr(value, "pair"):
        allow, deny = value.pair()
        return allow.value, deny.value
    allow, deny = value
    return perm_value(allow), perm_value(deny)


class World:
    """State of the fake Discord and the synchronous API that builds it."""

    def __init__(
        self, *, bot_name: str = "Bazaar", application_id: int | None = None, token: str = "fake-bot-token"
    ) -> None:
        self.ids = Snowflakes()
        self.token = token
        self.bot_user = User(self.ids.next(), bot_name, bot=True)
        self.application_id: int = application_id or self.bot_user.id
        self.app_owner = User(self.ids.next(), "app-owner")
        self.users: dict[int, User] = {self.bot_user.id: self.bot_user, self.app_owner.id: self.app_owner}
        self.guilds: dict[int, Guild] = {}
        self.channels: dict[int, Channel] = {}
        self.message_store: dict[int, Message] = {}
        self.dm_channels: dict[int, Channel] = {}  # user id -> DM channel
        self.attachments: dict[int, Attachment] = {}
        #: (channel id, nonce) -> id of the bot's message made with that nonce (``enforce_nonce``).
        self.nonces: dict[tuple[int, str], int] = {}
        #: Synced application commands: key None for global, else the guild id; each a list of command dicts.
        self.commands: dict[int | None, list[dict[str, Any]]] = {}
        #: Interactions by id (filled by the driver; message payloads read it for interaction_metadata).
        self.interaction_records: dict[int, Any] = {}
        #: The application's own emojis by id (``{"id", "name", "animated"}``; see rest_emojis).
        self.app_emojis: dict[int, dict[str, Any]] = {}
        #: The image bytes of each application emoji, by id.
        self.app_emoji_images: dict[int, bytes] = {}
        #: Base URL of the fake (attachment URLs point here); set by the server when it starts.
        self.cdn_base = "http://127.0.0.1:0"

    # ----------------------------------------------------------------- hooks
    def _emit(
        self,
        event: str,
        data: dict[str, Any] | Callable[[Any], dict[str, Any]],
        *,
        guild_id: int | None = None,
    ) -> None:
        """Tell connected clients about a change (the server overrides this).

        ``data`` may be a function of the gateway session (for payloads that depend on its intents).
        """

    def _changed(self) -> None:
        """Wake whoever waits on the records (the server overrides this)."""

    # ----------------------------------------------------------------- set-up API
    def add_user(
        self,
        name: str,
        *,
        guild: Guild | Iterable[Guild] | None = None,
        permissions: Any = 0,
        roles: Iterable[Role] = (),
        dms_open: bool = True,
        bot: bool = False,
    ) -> User:
        """Create a user, optionally as a member of ``guild`` (one or several) with extra permissions.

        ``permissions`` (int or discord.Permissions) is granted through a personal role.
        Returns the User.
        """
        user = User(self.ids.next(), name, bot=bot, dms_open=dms_open)
        self.users[user.id] = user
        guilds = [] if guild is None else [guild] if isinstance(guild, Guild) else list(guild)
        for g in guilds:
            self.add_member(g, user, permissions=permissions, roles=roles)
        self._changed()
        return user

    def add_guild(
        self,
        name: str = "Test Guild",
        *,
        owner: User | None = None,
        everyone_permissions: Any = DEFAULT_EVERYONE_PERMISSIONS,
        bot_permissions: Any = DEFAULT_BOT_PERMISSIONS,
        channels: Iterable[str] = (),
        shard: tuple[int, int] | None = None,
    ) -> Guild:
        """Create a guild the bot is a member of (with a managed bot role) and text channels named
        in ``channels``.

        ``shard`` ``(id, count)``: give the guild an id Discord routes to that shard
        (``(guild_id >> 22) % count == id``). Returns the Guild. A connected bot (of its shard)
        receives GUILD_CREATE.
        """
        gid = self.ids.next()
        while shard is not None and (gid >> 22) % shard[1] != shard[0]:
            gid = self.ids.next_after(gid + (1 << 22))
        guild = Guild(gid, name, owner_id=owner.id if owner else self.app_owner.id)
        guild.roles[gid] = Role(gid, gid, "@everyone", perm_value(everyone_permissions), position=0)
        bot_role = Role(
            self.ids.next(), gid, self.bot_user.name, perm_value(bot_permissions), position=1, managed=True
        )
        guild.roles[bot_role.id] = bot_role
        guild.members[self.bot_user.id] = Member(self.bot_user, gid, [bot_role.id])
        self.guilds[gid] = guild
        if owner is not None and owner.id not in guild.members:
            guild.members[owner.id] = Member(owner, gid)
        for ch_name in channels:
            self._new_text_channel(guild, ch_name)
        from .payloads import guild_create_payload  # local import: payloads imports world's constants

        self._emit(
            "GUILD_CREATE",
            lambda session: guild_create_payload(self, guild, session.members_intent),
            guild_id=gid,
        )
        self._changed()
        return guild

    def add_role(self, guild: Guild, name: str, permissions: Any = 0) -> Role:
        """Create a role in ``guild``; returns it."""
        role = Role(self.ids.next(), guild.id, name, perm_value(permissions), position=len(guild.roles))
        guild.roles[role.id] = role
        from .payloads import role_payload

        self._emit(
            "GUILD_ROLE_CREATE", {"guild_id": str(guild.id), "role": role_payload(role)}, guild_id=guild.id
        )
        self._changed()
        return role

    def add_member(
        self,
        guild: Guild,
        user: User,
        *,
        permissions: Any = 0,
        roles: Iterable[Role] = (),
        nick: str | None = None,
    ) -> Member:
        """Make ``user`` a member of ``guild``; ``permissions`` are granted through a personal role.

        Returns the Member; a connected bot with the GUILD_MEMBERS intent hears GUILD_MEMBER_ADD/UPDATE.
        """
        is_new = user.id not in guild.members
        member = guild.members.get(user.id) or Member(user, guild.id, nick=nick)
        member.role_ids.extend(r.id for r in roles if r.id not in member.role_ids)
        mask = perm_value(permissions)
        if mask:
            role = self.add_role(guild, f"{user.name}-perms", mask)
            member.role_ids.append(role.id)
        guild.members[user.id] = member
        from .payloads import member_payload

        data = {**member_payload(self, member), "guild_id": str(guild.id)}
        self._emit("GUILD_MEMBER_ADD" if is_new else "GUILD_MEMBER_UPDATE", data, guild_id=guild.id)
        self._changed()
        return member

    def remove_member(self, guild: Guild, user: User) -> None:
        """``user`` leaves ``guild`` (a connected bot hears GUILD_MEMBER_REMOVE with the members
        intent). Once they share no guild with the bot, DMs to them fail with 403 / 50007."""
        guild.members.pop(user.id, None)
        from .payloads import user_payload

        self._emit(
            "GUILD_MEMBER_REMOVE", {"guild_id": str(guild.id), "user": user_payload(user)}, guild_id=guild.id
        )
        self._changed()

    def shares_guild(self, user: User) -> bool:
        """True when ``user`` is a member of a guild the bot is in (Discord's condition for DMs)."""
        return any(user.id in g.members for g in self.guilds.values())

    def add_text_channel(
        self, guild: Guild, name: str, *, topic: str | None = None, overwrites: dict[Any, Any] | None = None
    ) -> Channel:
        """Create a text channel. ``overwrites`` maps a User or Role to a discord.PermissionOverwrite
        or an (allow, deny) pair. Returns the Channel; a connected bot receives CHANNEL_CREATE."""
        ch = self._new_text_channel(guild, name, topic=topic, overwrites=overwrites)
        from .payloads import channel_payload

        self._emit("CHANNEL_CREATE", channel_payload(self, ch), guild_id=guild.id)
        self._changed()
        return ch

    def _new_text_channel(
        self, guild: Guild, name: str, *, topic: str | None = None, overwrites: dict[Any, Any] | None = None
    ) -> Channel:
        ch = Channel(
            self.ids.next(),
            TEXT,
            name=name,
            guild_id=guild.id,
            topic=topic,
            position=sum(1 for c in guild.channels.values() if c.type == TEXT),
        )
        for target, value in (overwrites or {}).items():
            allow, deny = overwrite_pair(value)
            kind = 0 if isinstance(target, Role) else 1
            ch.overwrites.append({"id": target.id, "type": kind, "allow": allow, "deny": deny})
        guild.channels[ch.id] = ch
        self.channels[ch.id] = ch
        return ch

    def close_dms(self, user: User) -> None:
        """From now on the bot's DMs to ``user`` fail with 403 / code 50007."""
        user.dms_open = False

    def open_dms(self, user: User) -> None:
        """Let the bot DM ``user`` again."""
        user.dms_open = True

    def age_messages(self, seconds: float, channel: Channel | None = None) -> None:
        """Make every message so far (or those of ``channel``) ``seconds`` older (``Message.aged``),
        as if that time had passed, for the refusal of edits of old messages."""
        for msg in self.message_store.values():
            if channel is None or msg.channel_id == channel.id:
                msg.aged += seconds

    # ----------------------------------------------------------------- lookups
    def guild_of(self, channel: Channel) -> Guild | None:
        """The guild of a channel or thread (None for DMs)."""
        return self.guilds.get(channel.guild_id) if channel.guild_id else None

    def user(self, ref: User | int | str) -> User:
        """Return a user by record, id or name; raises KeyError."""
        if isinstance(ref, User):
            return ref
        for u in self.users.values():
            if u.id == ref or u.name == ref:
                return u
        raise KeyError(f"unknown user {ref!r}")

    def channel(self, ref: Channel | int | str) -> Channel:
        """Return a channel/thread by record, id or name; raises KeyError."""
        if isinstance(ref, Channel):
            return ref
        for ch in self.channels.values():
            if ch.id == ref or (ch.name == ref and not ch.deleted):
                return ch
        raise KeyError(f"unknown channel {ref!r}")

    def dm_channel(self, user: User) -> Channel | None:
        """The DM channel between the bot and ``user`` if the bot opened one."""
        return self.dm_channels.get(user.id)

    def open_dm(self, user: User) -> Channel:
        """Return (creating if needed) the DM channel between the bot and ``user``."""
        ch = self.dm_channels.get(user.id)
        if ch is None:
            ch = Channel(self.ids.next(), DM, recipient_id=user.id)
            self.dm_channels[user.id] = ch
            self.channels[ch.id] = ch
        return ch

    def new_thread(
        self,
        parent: Channel,
        name: str,
        *,
        private: bool = False,
        owner: User | None = None,
        auto_archive_duration: int = 1440,
        invitable: bool = True,
        thread_id: int | None = None,
    ) -> Channel:
        """Create a thread under a text channel; returns it (no event is emitted)."""
        owner = owner or self.bot_user
        th = Channel(
            thread_id or self.ids.next(),
            PRIVATE_THREAD if private else PUBLIC_THREAD,
            name=name,
            guild_id=parent.guild_id,
            parent_id=parent.id,
            owner_id=owner.id,
            auto_archive_duration=auto_archive_duration,
            invitable=invitable,
            member_ids={owner.id},
        )
        self.channels[th.id] = th
        guild = self.guild_of(parent)
        if guild is not None:
            guild.channels[th.id] = th
        return th

    # ----------------------------------------------------------------- permissions
    def base_permissions(self, guild: Guild, user: User) -> int:
        """Guild-level permissions of ``user`` (owner and administrators get everything; 0 for
        non-members)."""
        if user.id == guild.owner_id:
            return ALL_PERMISSIONS
        member = guild.members.get(user.id)
        if member is None:
            return 0
        perms = guild.everyone.permissions
        for rid in member.role_ids:
            role = guild.roles.get(rid)
            if role is not None:
                perms |= role.permissions
        return ALL_PERMISSIONS if perms & ADMINISTRATOR else perms

    def permissions_in(self, channel: Channel, user: User) -> int:
        """Permissions of ``user`` in ``channel`` (threads use their parent's overwrites; DMs allow
        messaging)."""
        if channel.is_dm:
            return (
                VIEW_CHANNEL
                | SEND_MESSAGES
                | EMBED_LINKS
                | ATTACH_FILES
                | READ_MESSAGE_HISTORY
                | ADD_REACTIONS
            )
        guild = self.guild_of(channel)
        if guild is None:
            return 0
        perms = self.base_permissions(guild, user)
        if perms & ADMINISTRATOR or user.id == guild.owner_id:
            return ALL_PERMISSIONS
        parent = self.channels.get(channel.parent_id) if channel.parent_id is not None else None
        source = parent if channel.is_thread else channel
        overwrites = source.overwrites if source else []
        by_id = {o["id"]: o for o in overwrites}
        everyone = by_id.get(guild.id)
        if everyone:
            perms = (perms & ~everyone["deny"]) | everyone["allow"]
        member = guild.members.get(user.id)
        role_ids = member.role_ids if member else []
        allow = deny = 0
        for o in overwrites:
            if o["type"] == 0 and o["id"] in role_ids:
                allow |= o["allow"]
                deny |= o["deny"]
        perms = (perms & ~deny) | allow
        mine = by_id.get(user.id)
        if mine and mine["type"] == 1:
            perms = (perms & ~mine["deny"]) | mine["allow"]
        if not perms & VIEW_CHANNEL:
            return 0
        return perms

    def has_permissions(self, channel: Channel, user: User, mask: int) -> bool:
        """True when ``user`` has every bit of ``mask`` in ``channel``."""
        return self.permissions_in(channel, user) & mask == mask
