"""The game pieces as the bot's own application emojis (docs/playing.md#emojis).

``bazaar sync`` uploads them (:func:`sync`): every piece ``render.emojis`` draws, named
``<key>_<hash>``; only the missing or changed ones are sent, and a changed piece's older picture
is deleted once the new one is up. The bot loads the map piece key -> emoji when it starts
(:func:`load`, with a short timeout); without it (sync never run, an upload refused, emojis
deleted, Discord slow to answer) every control shows its text label alone. A button or a menu
option gets its emoji in one place, :func:`of`, from the ``icon`` the engine put in the prompt;
a turn's caption and a DM get them before the words naming a piece, :func:`in_text`.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from functools import cache

import discord

from render import emojis as drawn

log = logging.getLogger(__name__)
LOAD_TIMEOUT = 5.0
"""Seconds the bot waits at start for Discord's list of its emojis before going on without."""

_current: dict[str, discord.PartialEmoji] = {}


def of(icon: str) -> discord.PartialEmoji | None:
    """The emoji of piece ``icon`` (a prompt control's ``icon``), or None: no icon, or no emoji
    for it (the control then shows its label alone)."""
    return _current.get(icon) if icon else None


@cache
def _words(game: str) -> tuple[re.Pattern[str], Mapping[str, str]] | None:
    """The pattern of the words of ``game``'s texts that name a piece (longest first, whole
    words only), and each word's piece key; None for a game without such words."""
    try:
        found = drawn.words(game)
    except (ImportError, AttributeError):
        return None
    if not found:
        return None
    alternatives = "|".join(re.escape(w) for w in sorted(found, key=len, reverse=True))
    return re.compile(rf"(?<!\w)(?:{alternatives})(?!\w)"), found


def in_text(game: str, text: str, names: Iterable[str] = ()) -> str:
    """``text`` (a line of ``game``) with each piece it names preceded by the piece's emoji
    ("2 <:kathai_gold_…:…> gold"), but not inside one of the seats' ``names`` (a player called
    "Gold" is no piece; the lines come with the names in, so a piece called exactly as a seat
    goes without its emoji there); unchanged where a piece has no emoji (sync not run: the words
    say it alone)."""
    if not _current or not text:
        return text
    words = _words(game)
    if words is None:
        return text
    pattern, keys = words
    taken = [  # where a seat's name stands, whole
        (m.start(), m.end())
        for n in set(names)
        if n
        for m in re.finditer(rf"(?<!\w){re.escape(n)}(?!\w)", text)
    ]

    def put(m: re.Match[str]) -> str:
        emoji = _current.get(keys[m.group(0)])
        inside = any(start <= m.start() and m.end() <= end for start, end in taken)
        return f"{emoji} {m.group(0)}" if emoji is not None and not inside else m.group(0)

    return pattern.sub(put, text)


def use(found: dict[str, discord.PartialEmoji]) -> None:
    """Make ``found`` (piece key -> emoji) the map :func:`of` reads."""
    _current.clear()
    _current.update(found)


def pieces(remote: Iterable[discord.Emoji]) -> dict[str, discord.PartialEmoji]:
    """Piece key -> emoji, from the application's emojis: those named as ours, the newest of a
    key (the highest id) where an older picture is still there."""
    out: dict[str, discord.Emoji] = {}
    for e in remote:
        key = drawn.key_of(e.name)
        if key is not None and (key not in out or e.id > out[key].id):
            out[key] = e
    return {k: discord.PartialEmoji(name=e.name, id=e.id, animated=e.animated) for k, e in out.items()}


def refused(err: discord.HTTPException) -> bool:
    """Whether Discord refused a message for an emoji it does not know (one deleted since the
    bot loaded the map): 400 / 50035 naming an emoji."""
    return err.status == 400 and err.code == 50035 and "emoji" in (err.text or "").lower()


def drop(view: discord.ui.View) -> bool:
    """After :func:`refused`: forget every emoji (text labels from now on; a restart after
    ``bazaar sync`` brings them back) and take them off ``view``'s buttons and options. Whether
    ``view`` had any (if not, sending it again cannot help)."""
    use({})
    had = False
    for item in view.children:
        if isinstance(item, discord.ui.DynamicItem):
            item = item.item
        if isinstance(item, discord.ui.Button) and item.emoji is not None:
            item.emoji, had = None, True
        if isinstance(item, discord.ui.Select):
            for option in item.options:
                if option.emoji is not None:
                    option.emoji, had = None, True
    return had


async def load(client: discord.Client, timeout: float = LOAD_TIMEOUT) -> int:
    """Read the application's emojis into the map :func:`of` reads; returns how many pieces have
    one. On a failure or after ``timeout`` s: logged, the map emptied, 0 (text labels)."""
    try:
        remote = await asyncio.wait_for(client.fetch_application_emojis(), timeout)
    except (TimeoutError, discord.DiscordException, OSError) as err:  # also no application id yet
        log.warning("Could not read the bot's emojis (%r): buttons show text labels only", err)
        use({})
        return 0
    use(pieces(remote))
    missing = len(set(drawn.all_keys()) - _current.keys())  # (drawing them would hold up the start)
    if missing > 0:
        log.info("%d game pieces have no emoji yet: run `bazaar sync` to upload them", missing)
    return len(_current)


@dataclass
class Synced:
    """What :func:`sync` did: emoji names uploaded, already there, deleted (older pictures of a
    piece), refused by Discord (with the reason)."""

    uploaded: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)


async def sync(client: discord.Client) -> Synced:
    """Upload the pieces whose emoji is missing (a new piece, or a changed picture: a new
    name), then delete the older pictures of the pieces uploaded, within Discord's 2000 emojis
    per application. An upload Discord refuses is noted and the others go on."""
    remote = await client.fetch_application_emojis()
    have = {e.name: e for e in remote}
    done = Synced()
    room = drawn.MAX_EMOJIS - len(remote)
    for key, (name, img) in drawn.catalogue().items():
        if name in have:
            done.kept.append(name)
            continue
        if room <= 0:
            done.refused.append(f"{name} (the application holds {drawn.MAX_EMOJIS} emojis already)")
            continue
        try:
            await client.create_application_emoji(name=name, image=drawn.png(img))
        except discord.HTTPException as err:
            done.refused.append(f"{name} ({err.status} {err.text})")
            continue
        room -= 1
        done.uploaded.append(name)
        done.deleted += await _delete_older(remote, key, name)
    return done


async def _delete_older(remote: Iterable[discord.Emoji], key: str, name: str) -> list[str]:
    """Delete the emojis of piece ``key`` other than ``name`` (its older pictures); the names
    deleted (one Discord refuses to delete is logged and stays)."""
    out = []
    for old in remote:
        if drawn.key_of(old.name) == key and old.name != name:
            try:
                await old.delete()
            except discord.HTTPException as err:
                log.warning("Could not delete the older emoji %s: %s %s", old.name, err.status, err.text)
                continue
            out.append(old.name)
    return out
