"""Discord shards: which shard a guild is on, and which games a process serves.

Discord splits a bot's guilds over ``shard_count`` gateway shards by ``(guild_id >> 22) %
shard_count``; DMs (and so DM interactions) always arrive on shard 0. A process started with
``SHARD_COUNT`` and ``SHARD_IDS`` connects those shards only: it loads, resumes and re-posts the
games of guilds on its shards, while a DM click, or a turn clock it claims from the database, for
a game of another shard is served from the database all the same (see
docs/scale.md#shards-across-processes).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.digits import is_digits

MAX_SHARDS = 4096


def shard_of(guild_id: int | None, shard_count: int) -> int:
    """The shard Discord delivers ``guild_id``'s events to; 0 for a DM (no guild)."""
    if guild_id is None or shard_count <= 1:
        return 0
    return (guild_id >> 22) % shard_count


@dataclass(frozen=True)
class Shards:
    """The shards of one process: ``count`` shards in all, ``ids`` of them connected here."""

    count: int
    ids: tuple[int, ...]

    @property
    def partial(self) -> bool:
        """Whether other processes must run the other shards."""
        return len(self.ids) < self.count

    def holds(self, guild_id: int | None) -> bool:
        """Whether this process's shards receive ``guild_id``'s events (a game without a guild
        belongs to shard 0)."""
        return shard_of(guild_id, self.count) in self.ids

    def describe(self) -> str:
        """``shards 0,1 of 4`` for the ready line."""
        return f"shard{'s' if len(self.ids) > 1 else ''} {','.join(map(str, self.ids))} of {self.count}"


ALL = Shards(1, (0,))
"""One process, no sharding: it holds every guild."""


def parse_shards(count_text: str, ids_text: str) -> Shards | None:
    """The shards ``SHARD_COUNT`` and ``SHARD_IDS`` name (None when both are empty: no
    sharding). ``SHARD_IDS`` without ``SHARD_COUNT`` is refused; ``SHARD_COUNT`` alone runs every
    shard in this process. Raises ValueError with a one-line reason."""
    count_text, ids_text = count_text.strip(), ids_text.strip()
    if not count_text and not ids_text:
        return None
    if not count_text:
        raise ValueError("SHARD_IDS needs SHARD_COUNT (the number of shards in all, across every process)")
    if not is_digits(count_text) or not 1 <= int(count_text) <= MAX_SHARDS:
        raise ValueError(f"SHARD_COUNT must be a whole number from 1 to {MAX_SHARDS}, not {count_text!r}")
    count = int(count_text)
    if not ids_text:
        return Shards(count, tuple(range(count)))
    parts = [p.strip() for p in ids_text.split(",")]
    if any(not is_digits(p) for p in parts):
        raise ValueError(f"SHARD_IDS must be shard numbers separated by commas (like 0,1), not {ids_text!r}")
    ids = [int(p) for p in parts]
    too_big = [i for i in ids if i >= count]
    if too_big:
        raise ValueError(
            f"SHARD_IDS names shard {too_big[0]}, but with SHARD_COUNT={count} the shards are "
            f"0 to {count - 1}"
        )
    if len(set(ids)) != len(ids):
        raise ValueError(f"SHARD_IDS names a shard twice ({ids_text!r})")
    return Shards(count, tuple(sorted(ids)))
