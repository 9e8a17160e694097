"""One message in either shape: Components V2 (``ui.LayoutView``) or the classic shape (content,
files, rows of controls).

A :class:`Shown` is what a turn's board, a score sheet or a DM says: its text, a footer, the
accent (the colour of the seat to act), its pictures and the rows of controls that
:func:`.controls.view` lays out. :func:`layout` makes it one container: the text as native text
(so the caption and the mention are sized by the reader's phone, not drawn into the picture), the
pictures in a media gallery (``attachment://`` the files sent with it), a separator, the rows of
controls, and the footer in small text. :func:`classic` gives the same message as content, files
and rows, for a channel where Discord refuses V2 (remembered per channel in the store:
``service.posts.channel_shape``). :func:`strip_controls` is what an older message becomes once its
controls are taken away (a V2 message cannot drop the flag, so its rows are removed from the
layout it has).
"""

from __future__ import annotations

import dataclasses
import io
from collections.abc import Callable, Sequence
from typing import Any

import discord

V2 = "v2"
CLASSIC = "classic"
FLAG = 1 << 15  # IS_COMPONENTS_V2


@dataclasses.dataclass
class Shown:
    """One message: ``text`` (the classic content; the first text of the V2 container),
    ``footer`` (V2 only, in small text below the controls), ``accent`` (24-bit RGB of the V2
    container), ``pngs`` called ``filename`` (then ``-2`` … before the suffix) and the rows of
    ``controls`` (a function making them anew as a classic view, as :func:`.controls.view` lays
    them out: an item belongs to one message, and a refused V2 post is sent again classic)."""

    text: str
    footer: str = ""
    accent: int | None = None
    pngs: Sequence[bytes] = ()
    filename: str = "board.png"
    controls: Callable[[], discord.ui.View] | None = None

    @property
    def names(self) -> list[str]:
        """The file name of each picture."""
        stem, dot, ext = self.filename.rpartition(".")
        return [self.filename] + [f"{stem}-{i}{dot}{ext}" for i in range(2, len(self.pngs) + 1)]

    def files(self) -> list[discord.File]:
        """Fresh uploads of the pictures (discord.py closes a File once sent)."""
        return [discord.File(io.BytesIO(p), filename=n) for p, n in zip(self.pngs, self.names, strict=False)]

    def without_pictures(self, note: str) -> Shown:
        """The same message without its pictures, ``note`` (why) added to its text."""
        return dataclasses.replace(self, text=f"{self.text}\n{note}", pngs=())


def bare(shown: Shown) -> Shown:
    """What a V2 message of ``shown`` keeps once its controls are taken away: its text and its
    pictures by name (the message keeps its attachments), no bytes held."""
    return dataclasses.replace(shown, pngs=[b""] * len(shown.pngs), controls=None)


def rows(view: discord.ui.View | None) -> list[discord.ui.ActionRow[Any]]:
    """The items of a classic ``view`` as action rows, on the rows the view laid them out on;
    the items leave ``view`` (an item belongs to one view)."""
    if view is None:
        return []
    # the row the view placed each item on (a menu given no row goes on the first free one)
    placed = [(getattr(item, "_rendered_row", None) or 0, item) for item in view.children]
    view.clear_items()
    by_row: dict[int, list[discord.ui.Item[Any]]] = {}
    for row, item in placed:
        by_row.setdefault(row, []).append(item)
    return [discord.ui.ActionRow(*by_row[r]) for r in sorted(by_row)]


def layout(shown: Shown, *, pictures: bool = True) -> discord.ui.LayoutView:
    """``shown`` as one V2 container (see the module docstring); without ``pictures`` its
    gallery is left out (the files are not sent)."""
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=shown.accent)
    box.add_item(discord.ui.TextDisplay(shown.text[:3800]))
    if pictures and shown.pngs:
        box.add_item(
            discord.ui.MediaGallery(*(discord.MediaGalleryItem(f"attachment://{n}") for n in shown.names))
        )
    controls = rows(shown.controls()) if shown.controls is not None else []
    if controls:
        box.add_item(discord.ui.Separator())
        for row in controls:
            box.add_item(row)
    if shown.footer:
        box.add_item(discord.ui.TextDisplay(f"-# {shown.footer}"))
    out = discord.ui.LayoutView(timeout=None)
    out.add_item(box)
    return out


def classic(shown: Shown) -> dict[str, Any]:
    """``shown`` as keyword arguments of a classic send: content, files and the rows of
    controls (the footer is V2's alone: the classic text says the same)."""
    out: dict[str, Any] = {"content": shown.text}
    if shown.pngs:
        out["files"] = shown.files()
    if shown.controls is not None:
        out["view"] = shown.controls()
    return out


def v2(shown: Shown, *, pictures: bool = True) -> dict[str, Any]:
    """``shown`` as keyword arguments of a V2 send (no content: the text is in the layout)."""
    out: dict[str, Any] = {"view": layout(shown, pictures=pictures)}
    if pictures and shown.pngs:
        out["files"] = shown.files()
    return out


def text_of(message: discord.Message) -> str:
    """What ``message`` says: its content, or for a V2 message the text of its first TextDisplay
    (wherever nested), so that a board is known by its first line in either shape."""
    if message.content:
        return message.content
    for comp in _walk(message.components):
        if isinstance(comp, discord.TextDisplay):
            return comp.content
    return ""


def _walk(components: Sequence[Any]) -> list[Any]:
    out: list[Any] = []
    for c in components:
        out.append(c)
        out.extend(_walk(getattr(c, "children", None) or getattr(c, "components", None) or []))
    return out


def strip_controls(data: dict[str, Any]) -> list[dict[str, Any]] | None:
    """The components of a V2 message (``data`` as Discord sends it) without its rows of
    controls, its media naming its own attachments again (``attachment://``, which the edit
    keeps), or None for a classic message (its controls go with ``view=None``)."""
    if not int(data.get("flags") or 0) & FLAG:
        return None
    files = {_bare(a.get("url")): a.get("filename") for a in data.get("attachments") or []}
    return [_without_rows(c, files) for c in data.get("components") or [] if c.get("type") != 1]


def _bare(url: Any) -> str:
    return str(url or "").split("?", 1)[0]


def _without_rows(comp: dict[str, Any], files: dict[str, Any]) -> dict[str, Any]:
    if comp.get("type") == 12:  # a gallery: each item's media by the attachment it shows
        items = []
        for item in comp.get("items") or []:
            url = (item.get("media") or {}).get("url")
            name = files.get(_bare(url))
            items.append({**item, "media": {"url": f"attachment://{name}" if name else url}})
        return {**comp, "items": items}
    if "components" not in comp or comp.get("type") == 9:  # a section keeps its texts
        return comp
    kept = [_without_rows(c, files) for c in comp["components"] if c.get("type") != 1]
    return {**comp, "components": kept}
