"""Records of the fake Discord's world and of everything the bot did.

Plain mutable dataclasses compared by identity (``eq=False``) so they can be used as
dict keys. Ids are Discord snowflakes (ints); ``mention`` helpers give ``<@id>``-style text.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

DISCORD_EPOCH_MS = 1420070400000

#: A custom emoji in message text: ``<:name:id>`` or animated ``<a:name:id>``.
CUSTOM_EMOJI = re.compile(r"<(a?):(\w{2,32}):(\d+)>")
#: Channel types used by the fake.
TEXT, DM, PUBLIC_THREAD, PRIVATE_THREAD = 0, 1, 11, 12
#: Message flags.
EPHEMERAL, LOADING, COMPONENTS_V2 = 1 << 6, 1 << 7, 1 << 15


class Snowflakes:
    """Strictly increasing snowflake ids whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        """Return a new id, larger than every id returned before."""
        now = int(time.time() * 1000) - DISCORD_EPOCH_MS
        value = (now << 22) | (1 << 17)
        if value <= self._last:
            value = self._last + 1
        self._last = value
        return value

    def next_after(self, floor: int) -> int:
        """Return a new id, at least ``floor`` and larger than every id returned before."""
        value = max(self.next(), floor)
        self._last = value
        return value


def snowflake_iso(snowflake: int) -> str:
    """Return the ISO-8601 timestamp encoded in a snowflake."""
    ms = (snowflake >> 22) + DISCORD_EPOCH_MS
    return datetime.fromtimestamp(ms / 1000, tz=UTC).isoformat()


def now_iso() -> str:
    """Return the current UTC time in ISO-8601."""
    return datetime.now(tz=UTC).isoformat()


class Choice(NamedTuple):
    """One autocomplete choice the bot returned."""

    name: str
    value: Any


@dataclass(eq=False)
class User:
    """A Discord user (a person, or the bot itself when ``bot`` is true)."""

    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    #: When set, ``(status, code, message)`` of the error every DM to this user fails with (e.g. a
    #: 403 that is not 50007); ``dms_open=False`` is the usual 403 / 50007.
    dm_error: tuple[int, int, str] | None = None
    global_name: str | None = None

    @property
    def mention(self) -> str:
        """The ``<@id>`` text that pings this user."""
        return f"<@{self.id}>"

    def __repr__(self) -> str:
        return f"User({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Role:
    """A guild role; the @everyone role has the guild's id."""

    id: int
    guild_id: int
    name: str
    permissions: int
    position: int = 0
    managed: bool = False

    @property
    def mention(self) -> str:
        """The ``<@&id>`` text that pings this role."""
        return f"<@&{self.id}>"

    def __repr__(self) -> str:
        return f"Role({self.name!r}, id={self.id}, permissions={self.permissions:#x})"


@dataclass(eq=False)
class Member:
    """A user's membership of a guild."""

    user: User
    guild_id: int
    role_ids: list[int] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=now_iso)

    def __repr__(self) -> str:
        return f"Member({self.user.name!r}, guild={self.guild_id}, roles={self.role_ids})"


@dataclass(eq=False)
class Channel:
    """A guild text channel, a thread (type 11/12) or a DM channel (type 1)."""

    id: int
    type: int
    name: str | None = None
    guild_id: int | None = None
    parent_id: int | None = None
    position: int = 0
    topic: str | None = None
    #: Raw permission overwrites: ``{"id", "type" (0 role, 1 member), "allow", "deny"}`` with int masks.
    overwrites: list[dict[str, int]] = field(default_factory=list)
    recipient_id: int | None = None
    owner_id: int | None = None
    archived: bool = False
    locked: bool = False
    invitable: bool = True
    auto_archive_duration: int = 1440
    archive_timestamp: str = field(default_factory=now_iso)
    created_at: str = field(default_factory=now_iso)
    member_ids: set[int] = field(default_factory=set)
    last_message_id: int | None = None
    message_count: int = 0
    deleted: bool = False
    #: Messages with the IS_COMPONENTS_V2 flag are refused here (400), as where V2 is not available.
    refuses_v2: bool = False

    @property
    def is_thread(self) -> bool:
        """True for public and private threads."""
        return self.type in (PUBLIC_THREAD, PRIVATE_THREAD)

    @property
    def is_dm(self) -> bool:
        """True for a DM channel between the bot and one user."""
        return self.type == DM

    @property
    def mention(self) -> str:
        """The ``<#id>`` text that links this channel."""
        return f"<#{self.id}>"

    def __repr__(self) -> str:
        kinds = {TEXT: "text", DM: "dm", PUBLIC_THREAD: "thread", PRIVATE_THREAD: "private-thread"}
        kind = kinds.get(self.type, self.type)
        extra = " archived" if self.archived else ""
        return f"Channel({self.name!r}, {kind}, id={self.id}{extra})"


@dataclass(eq=False)
class Guild:
    """A guild (server) the bot is in."""

    id: int
    name: str
    owner_id: int
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    channels: dict[int, Channel] = field(default_factory=dict)
    locale: str = "en-US"

    @property
    def everyone(self) -> Role:
        """The @everyone role."""
        return self.roles[self.id]

    def channel(self, name: str) -> Channel:
        """Return the channel or thread called ``name``; raises KeyError when there is none."""
        for ch in self.channels.values():
            if ch.name == name and not ch.deleted:
                return ch
        raise KeyError(f"no channel named {name!r} in guild {self.name!r}")

    @property
    def threads(self) -> list[Channel]:
        """All threads of this guild, oldest first."""
        return [c for c in self.channels.values() if c.is_thread and not c.deleted]

    def __repr__(self) -> str:
        return f"Guild({self.name!r}, id={self.id})"


@dataclass(eq=False)
class Attachment:
    """A file attached to a message (its bytes are kept)."""

    id: int
    filename: str
    data: bytes
    content_type: str | None = None
    description: str | None = None
    url: str = ""

    @property
    def size(self) -> int:
        """Size in bytes."""
        return len(self.data)

    def __repr__(self) -> str:
        return f"Attachment({self.filename!r}, {self.size} bytes)"


def walk_components(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Yield every component dict, depth first (action rows, v2 containers and sections included)."""
    for comp in components:
        yield comp
        yield from walk_components(comp.get("components", []))
        if isinstance(comp.get("accessory"), dict):
            yield comp["accessory"]
        if isinstance(comp.get("component"), dict):
            yield comp["component"]


@dataclass(eq=False)
class Message:
    """A message as Discord stores it: sent by the bot, an interaction response, or a user's message."""

    id: int
    channel_id: int
    author: User
    guild_id: int | None = None
    content: str = ""
    embeds: list[dict[str, Any]] = field(default_factory=list)
    components: list[dict[str, Any]] = field(default_factory=list)
    attachments: list[Attachment] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    tts: bool = False
    created_at: str = ""
    edited_at: str | None = None
    deleted: bool = False
    webhook_id: int | None = None
    application_id: int | None = None
    #: Id of the interaction this message answers (response or follow-up), if any.
    interaction_id: int | None = None
    #: For ephemeral messages: the only user who can see (and click) it.
    visible_to: int | None = None
    mention_ids: list[int] = field(default_factory=list)
    #: Users actually notified (mentions filtered by allowed_mentions).
    pinged_ids: list[int] = field(default_factory=list)
    mention_role_ids: list[int] = field(default_factory=list)
    mention_everyone: bool = False
    message_reference: dict[str, Any] | None = None
    thread_id: int | None = None
    #: Earlier versions (content/embeds/components/attachment names and ids/flags) before each edit;
    #: an id finds the attachment (with its data) in ``World.attachments``.
    versions: list[dict[str, Any]] = field(default_factory=list)
    #: Seconds added to the message's real age (its snowflake's time), to test edits of old messages.
    aged: float = 0.0

    @property
    def age(self) -> float:
        """Seconds since the message was created (by its id's timestamp), plus ``aged``."""
        created_ms = (self.id >> 22) + DISCORD_EPOCH_MS
        return time.time() - created_ms / 1000 + self.aged

    @property
    def v2(self) -> bool:
        """True for a Components V2 message (flag IS_COMPONENTS_V2)."""
        return bool(self.flags & COMPONENTS_V2)

    @property
    def ephemeral(self) -> bool:
        """True when only the interacting user sees this message."""
        return bool(self.flags & EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred ("Bot is thinking…") placeholder."""
        return bool(self.flags & LOADING)

    @property
    def files(self) -> list[Attachment]:
        """Alias of ``attachments``."""
        return self.attachments

    def attachment(self, filename: str) -> Attachment:
        """Return the attachment called ``filename``; raises KeyError with the names present."""
        for att in self.attachments:
            if att.filename == filename:
                return att
        raise KeyError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def all_components(self) -> list[dict[str, Any]]:
        """Every component (rows flattened)."""
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """All button components (type 2)."""
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[dict[str, Any]]:
        """All select menus (types 3, 5, 6, 7, 8)."""
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    @property
    def custom_ids(self) -> list[str]:
        """custom_id of every interactive component, in display order."""
        return [c["custom_id"] for c in walk_components(self.components) if "custom_id" in c]

    @property
    def button_labels(self) -> list[str]:
        """Label of every button, in display order."""
        return [b.get("label", "") for b in self.buttons]

    def component(self, custom_id: str | None = None, *, label: str | None = None) -> dict[str, Any]:
        """Return the component with this custom_id (or the button with this label).

        Raises KeyError listing what the message has when nothing matches.
        """
        for comp in walk_components(self.components):
            if custom_id is not None and comp.get("custom_id") == custom_id:
                return comp
            if (
                custom_id is None
                and label is not None
                and comp.get("type") == 2
                and comp.get("label") == label
            ):
                return comp
        raise KeyError(
            f"message {self.id} has no component {custom_id or label!r}; "
            f"custom_ids={self.custom_ids}, labels={self.button_labels}"
        )

    @property
    def text_displays(self) -> list[str]:
        """The content of every TextDisplay (type 10), wherever nested, in display order."""
        return [c.get("content", "") for c in walk_components(self.components) if c.get("type") == 10]

    @property
    def images(self) -> list[Attachment]:
        """The attachments the message shows as images, in display order: for a V2 message those
        its media galleries and thumbnails show (resolved ``attachment://`` references); for any
        other, its image attachments."""
        if not self.flags & COMPONENTS_V2:
            return [a for a in self.attachments if (a.content_type or "").startswith("image/")]
        by_id = {a.id: a for a in self.attachments}
        out = []
        for comp in walk_components(self.components):
            medias = [comp.get("media")] if comp.get("type") == 11 else []
            if comp.get("type") == 12:
                medias = [item.get("media") for item in comp.get("items") or []]
            for media in medias:
                att = by_id.get(int((media or {}).get("attachment_id") or 0))
                if att is not None:
                    out.append(att)
        return out

    @property
    def custom_emojis(self) -> list[tuple[str, int]]:
        """(name, id) of every custom emoji the message shows, in order: ``<:name:id>`` (or
        ``<a:name:id>``) in its text, then the ``emoji`` of its buttons and select options."""
        found = [(m[1], int(m[2])) for m in CUSTOM_EMOJI.findall(self.text)]
        for comp in walk_components(self.components):
            for emoji in [comp.get("emoji")] + [o.get("emoji") for o in comp.get("options") or []]:
                if isinstance(emoji, dict) and emoji.get("id") is not None:
                    found.append((str(emoji.get("name") or ""), int(emoji["id"])))
        return found

    @property
    def accent_color(self) -> int | None:
        """The accent colour of the message's first container (V2), None without one."""
        for comp in walk_components(self.components):
            if comp.get("type") == 17:
                return comp.get("accent_color")
        return None

    @property
    def text(self) -> str:
        """Content, the text of every embed (title, description, fields, footer) and every
        TextDisplay (wherever nested), for searching."""
        parts = [self.content, *self.text_displays]
        for e in self.embeds:
            parts += [e.get("title", ""), e.get("description", "")]
            for f in e.get("fields", []):
                parts += [f.get("name", ""), f.get("value", "")]
            parts.append((e.get("footer") or {}).get("text", ""))
            parts.append((e.get("author") or {}).get("name", ""))
        return "\n".join(p for p in parts if p)

    def snapshot(self) -> dict[str, Any]:
        """A copy of the editable parts, as stored in ``versions``."""
        return {
            "content": self.content,
            "embeds": list(self.embeds),
            "components": list(self.components),
            "attachments": [a.filename for a in self.attachments],
            "attachment_ids": [a.id for a in self.attachments],
            "flags": self.flags,
            "edited_at": self.edited_at,
        }

    def __repr__(self) -> str:
        bits = [f"id={self.id}", f"channel={self.channel_id}", f"author={self.author.name!r}"]
        if self.content:
            bits.append(f"content={self.content[:60]!r}")
        if self.embeds:
            bits.append(f"embeds={len(self.embeds)}")
        if self.attachments:
            bits.append(f"files={[a.filename for a in self.attachments]}")
        if self.components:
            bits.append(f"custom_ids={self.custom_ids}")
        if self.ephemeral:
            bits.append("ephemeral")
        if self.deleted:
            bits.append("deleted")
        return "Message(" + ", ".join(bits) + ")"


@dataclass(eq=False)
class UploadedFile:
    """A file part of a multipart request."""

    field: str
    filename: str
    data: bytes
    content_type: str | None = None


@dataclass(eq=False)
class Request:
    """One REST request the client made."""

    method: str
    path: str
    route: str | None
    query: dict[str, str]
    json: Any = None
    files: list[UploadedFile] = field(default_factory=list)
    status: int = 0
    headers: dict[str, str] = field(default_factory=dict)
    #: When it arrived (the event loop's clock).
    at: float = 0.0
    #: The client went away before its body had arrived (a killed process): nothing was done.
    dropped: bool = False

    def __repr__(self) -> str:
        extra = f" files={[f.filename for f in self.files]}" if self.files else ""
        return f"Request({self.method} {self.path} -> {self.status}{extra})"
