"""Which piece of Ra a button names, for the emoji a host may show beside its label
(:func:`engines.prompt.with_icons`): a bid names its sun, a god's pick and a discard their tile,
invoking Ra the Ra tile. Keys only; ``render/ra/emoji.py`` draws each of :data:`KEYS`."""

from __future__ import annotations

from functools import lru_cache

from engines.ra import data

PREFIX = "ra_"
SUNS = tuple(range(1, max(data.MAX_SUN.values()) + 1))


def tile_key(code: str) -> str:
    """The key of tile ``code`` (``"step-pyramid"`` -> ``"ra_step_pyramid"``)."""
    return PREFIX + code.replace("-", "_")


def sun_key(value: int) -> str:
    return f"{PREFIX}sun{value}"


KEYS: tuple[str, ...] = tuple(tile_key(c) for c in data.TILE_NAME) + tuple(sun_key(v) for v in SUNS)
TILE_OF_KEY = {tile_key(c): c for c in data.TILE_NAME}
SUN_OF_KEY = {sun_key(v): v for v in SUNS}
WORDS: dict[str, str] = {
    **{name: tile_key(code) for code, name in data.TILE_NAME.items()},
    **{f"sun {v}": sun_key(v) for v in SUNS},
}
"""The words of the game's texts that name a piece (a tile's name, "sun 12") -> its key, so a
host may put the piece's emoji before the word."""


@lru_cache(maxsize=4096)
def icon(action: str) -> str | None:
    """The key of the piece ``action`` names, or None (draw, done, pass)."""
    verb, _, arg = action.partition(" ")
    if verb == "invoke":
        return tile_key("ra")
    if verb == "bid" and arg.isdigit() and int(arg) in SUNS:
        return sun_key(int(arg))
    if verb in ("god", "discard") and arg in data.TILE_NAME:
        return tile_key(arg)
    return None
