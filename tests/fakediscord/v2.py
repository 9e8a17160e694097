"""Components V2 (message flag ``IS_COMPONENTS_V2`` = 32768), checked as Discord checks them.

With the flag a message has no ``content`` and no ``embeds``; its components are layout
components: 1 ActionRow, 9 Section, 10 TextDisplay, 12 MediaGallery, 13 File, 14 Separator and
17 Container at the top level; a Container holds rows, text, sections, galleries, separators and
files; a Section holds 1-3 TextDisplays and an accessory (a Button or an 11 Thumbnail); a row
holds up to 5 buttons or one select. At most 40 components in all (every nested one counts), at
most 4000 characters of TextDisplay text in all, ``id`` unique where given.

Media (``media.url`` of a Thumbnail or gallery item, ``file.url`` of a File) is an http(s) URL or
``attachment://<filename>`` naming an attachment of the message; :func:`resolve_media` replaces
the latter with the attachment's URL as Discord stores it.
"""

from __future__ import annotations

import copy
import struct
from dataclasses import dataclass, field
from typing import Any

from .errors import form_error
from .records import COMPONENTS_V2, Attachment

TOTAL_MAX = 40
TEXT_MAX = 4000
GALLERY_MAX = 10
DESCRIPTION_MAX = 1024
SECTION_TEXTS_MAX = 3
ID_MAX = 2**31 - 1
ROW, BUTTON, SECTION, TEXT, THUMBNAIL, GALLERY, FILE, SEPARATOR, CONTAINER = 1, 2, 9, 10, 11, 12, 13, 14, 17
SELECTS = (3, 5, 6, 7, 8)
TOP_LEVEL = (ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR, CONTAINER)
IN_CONTAINER = (ROW, SECTION, TEXT, GALLERY, FILE, SEPARATOR)
ACCESSORY = (BUTTON, THUMBNAIL)
ATTACHMENT_SCHEME = "attachment://"


def is_v2(flags: Any) -> bool:
    """True when ``flags`` (an int or None) has IS_COMPONENTS_V2."""
    return bool(int(flags or 0) & COMPONENTS_V2)


@dataclass
class Tally:
    """Running totals while one message's components are checked."""

    count: int = 0
    text: int = 0
    ids: set[int] = field(default_factory=set)
    custom_ids: set[str] = field(default_factory=set)


def check_no_legacy_fields(content: Any, embeds: Any) -> None:
    """400 when a V2 message would have content or embeds (Discord's rule for the flag)."""
    if content:
        raise form_error(
            "content",
            "The 'content' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        )
    if embeds:
        raise form_error(
            "embeds",
            "The 'embeds' field cannot be used when using MessageFlags.IS_COMPONENTS_V2",
            "MESSAGE_CANNOT_USE_LEGACY_FIELDS_WITH_COMPONENTS_V2",
        )


def check_v2_components(components: Any) -> Tally:
    """Check a V2 message's component tree (types, nesting, limits, ids); returns the totals."""
    from .validate import check_component  # validate imports this module

    if not isinstance(components, list):
        raise form_error("components", "Must be a list.")
    tally = Tally()
    for i, comp in enumerate(components):
        _node(comp, f"components.{i}", TOP_LEVEL, tally, check_component)
    if tally.count > TOTAL_MAX:
        raise form_error(
            "components",
            f"Must be {TOTAL_MAX} or fewer in length (every nested component counts; got {tally.count}).",
            "BASE_TYPE_MAX_LENGTH",
        )
    if tally.text > TEXT_MAX:
        raise form_error(
            "components",
            f"Text display content must be {TEXT_MAX} or fewer characters in total (got {tally.text}).",
            "MAX_TEXT_DISPLAY_CONTENT_LENGTH_EXCEEDED",
        )
    return tally


def _type_error(path: str, allowed: tuple[int, ...]) -> Exception:
    return form_error(
        path, f'Value of field "type" must be one of {tuple(sorted(allowed))}.', "UNION_TYPE_CHOICES"
    )


def _count(comp: dict[str, Any], path: str, tally: Tally) -> None:
    tally.count += 1
    if "id" not in comp or comp["id"] is None:
        return
    cid = comp["id"]
    if not isinstance(cid, int) or isinstance(cid, bool) or not 0 < cid <= ID_MAX:
        raise form_error(f"{path}.id", f"Must be an integer between 1 and {ID_MAX}.", "NUMBER_TYPE_MAX")
    if cid in tally.ids:
        raise form_error(f"{path}.id", "Component ids must be unique.", "COMPONENT_ID_DUPLICATED")
    tally.ids.add(cid)


def _node(comp: Any, path: str, allowed: tuple[int, ...], tally: Tally, check_component: Any) -> None:
    if not isinstance(comp, dict) or comp.get("type") not in allowed:
        raise _type_error(path, allowed)
    _count(comp, path, tally)
    ctype = comp["type"]
    if ctype == ROW:
        _row(comp, path, tally, check_component)
    elif ctype == BUTTON:
        check_component(comp, path, tally.custom_ids)
    elif ctype == SECTION:
        _section(comp, path, tally, check_component)
    elif ctype == TEXT:
        content = comp.get("content")
        if not isinstance(content, str) or not content:
            raise form_error(f"{path}.content", "This field is required", "BASE_TYPE_REQUIRED")
        tally.text += len(content)
    elif ctype == THUMBNAIL:
        check_media(comp.get("media"), f"{path}.media")
        _description(comp, path)
    elif ctype == GALLERY:
        _gallery(comp, path)
    elif ctype == FILE:
        check_media(comp.get("file"), f"{path}.file", attachment_only=True)
    elif ctype == SEPARATOR:
        if comp.get("spacing", 1) not in (1, 2):
            raise form_error(f"{path}.spacing", "Value must be one of (1, 2).", "BASE_TYPE_CHOICES")
    elif ctype == CONTAINER:
        _container(comp, path, tally, check_component)


def _children(comp: dict[str, Any], path: str, key: str = "components") -> list[Any]:
    children = comp.get(key)
    if not isinstance(children, list) or not children:
        raise form_error(f"{path}.{key}", "Must be 1 or more in length.", "BASE_TYPE_MIN_LENGTH")
    return children


def _row(comp: dict[str, Any], path: str, tally: Tally, check_component: Any) -> None:
    children = _children(comp, path)
    if len(children) > 5:
        raise form_error(
            f"{path}.components", "Must be 5 or fewer in length.", "COMPONENT_LAYOUT_WIDTH_EXCEEDED"
        )
    if len(children) > 1 and any(c.get("type") != BUTTON for c in children if isinstance(c, dict)):
        raise form_error(
            f"{path}.components",
            "A select menu must be alone in its action row.",
            "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
        )
    for j, child in enumerate(children):
        if not isinstance(child, dict) or child.get("type") not in (BUTTON, *SELECTS):
            raise _type_error(f"{path}.components.{j}", (BUTTON, *SELECTS))
        _count(child, f"{path}.components.{j}", tally)
        check_component(child, f"{path}.components.{j}", tally.custom_ids)


def _section(comp: dict[str, Any], path: str, tally: Tally, check_component: Any) -> None:
    texts = _children(comp, path)
    if len(texts) > SECTION_TEXTS_MAX:
        raise form_error(
            f"{path}.components", f"Must be {SECTION_TEXTS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
        )
    for j, text in enumerate(texts):
        _node(text, f"{path}.components.{j}", (TEXT,), tally, check_component)
    accessory = comp.get("accessory")
    if accessory is None:
        raise form_error(f"{path}.accessory", "This field is required", "BASE_TYPE_REQUIRED")
    _node(accessory, f"{path}.accessory", ACCESSORY, tally, check_component)


def _container(comp: dict[str, Any], path: str, tally: Tally, check_component: Any) -> None:
    accent = comp.get("accent_color")
    if accent is not None and (
        not isinstance(accent, int) or isinstance(accent, bool) or not 0 <= accent <= 0xFFFFFF
    ):
        raise form_error(f"{path}.accent_color", "Must be a color between 0 and 16777215.", "NUMBER_TYPE_MAX")
    if not isinstance(comp.get("spoiler", False), bool):
        raise form_error(f"{path}.spoiler", "Must be a boolean.", "BASE_TYPE_BAD_VALUE")
    for j, child in enumerate(_children(comp, path)):
        _node(child, f"{path}.components.{j}", IN_CONTAINER, tally, check_component)


def _gallery(comp: dict[str, Any], path: str) -> None:
    items = _children(comp, path, "items")
    if len(items) > GALLERY_MAX:
        raise form_error(
            f"{path}.items", f"Must be {GALLERY_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
        )
    for j, item in enumerate(items):
        if not isinstance(item, dict):
            raise form_error(f"{path}.items.{j}", "Must be an object.", "MODEL_TYPE_CONVERT")
        check_media(item.get("media"), f"{path}.items.{j}.media")
        _description(item, f"{path}.items.{j}")


def _description(obj: dict[str, Any], path: str) -> None:
    desc = obj.get("description")
    if desc is not None and (not isinstance(desc, str) or len(desc) > DESCRIPTION_MAX):
        raise form_error(
            f"{path}.description", f"Must be {DESCRIPTION_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
        )


def check_media(media: Any, path: str, *, attachment_only: bool = False) -> None:
    """An unfurled media item: ``{"url": ...}`` with an http(s) or attachment:// URL."""
    url = media.get("url") if isinstance(media, dict) else None
    if not isinstance(url, str) or not url:
        raise form_error(f"{path}.url", "This field is required", "BASE_TYPE_REQUIRED")
    if attachment_only and not url.startswith(ATTACHMENT_SCHEME):
        raise form_error(
            f"{path}.url",
            "A file component only supports attachment:// URLs.",
            "UNFURLED_MEDIA_ITEM_URL_SCHEME_INVALID",
        )
    if not url.startswith((ATTACHMENT_SCHEME, "http://", "https://")):
        raise form_error(f"{path}.url", "Not a well formed URL.", "URL_TYPE_INVALID_URL")
    if url.startswith(ATTACHMENT_SCHEME) and not url[len(ATTACHMENT_SCHEME) :]:
        raise form_error(f"{path}.url", "The attachment:// URL names no file.", "URL_TYPE_INVALID_URL")


# --------------------------------------------------------------------- media references
def media_refs(components: list[Any], path: str = "components") -> list[tuple[str, dict[str, Any]]]:
    """Every (path, media dict) in a component tree, in display order."""
    out: list[tuple[str, dict[str, Any]]] = []
    for i, comp in enumerate(components):
        out += _media_of(comp, f"{path}.{i}")
    return out


def _media_of(comp: Any, p: str) -> list[tuple[str, dict[str, Any]]]:
    if not isinstance(comp, dict):
        return []
    out: list[tuple[str, dict[str, Any]]] = []
    ctype = comp.get("type")
    if ctype == THUMBNAIL and isinstance(comp.get("media"), dict):
        out.append((f"{p}.media", comp["media"]))
    elif ctype == GALLERY:
        for j, item in enumerate(comp.get("items") or []):
            if isinstance(item, dict) and isinstance(item.get("media"), dict):
                out.append((f"{p}.items.{j}.media", item["media"]))
    elif ctype == FILE and isinstance(comp.get("file"), dict):
        out.append((f"{p}.file", comp["file"]))
    out += media_refs(comp.get("components") or [], f"{p}.components")
    out += _media_of(comp.get("accessory"), f"{p}.accessory")
    return out


def png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) of a PNG, None for anything else."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and data[12:16] == b"IHDR" and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return int(width), int(height)
    return None


def resolve_media(components: list[dict[str, Any]], attachments: list[Attachment]) -> list[dict[str, Any]]:
    """A copy of ``components`` whose ``attachment://name`` media point at the named attachment, as
    Discord stores them (url, proxy_url, size, content type, attachment_id). Media already resolved
    (an attachment_id) must still be among ``attachments``. Raises 400 / 50035 otherwise."""
    out = copy.deepcopy(components)
    by_name = {a.filename: a for a in attachments}
    by_id = {a.id: a for a in attachments}
    for path, media in media_refs(out):
        url = str(media.get("url") or "")
        if url.startswith(ATTACHMENT_SCHEME):
            att = by_name.get(url[len(ATTACHMENT_SCHEME) :])
            if att is None:
                raise form_error(
                    f"{path}.url",
                    f"Unfurled media attachment not found: {url!r} names no attachment of this message "
                    f"(have {sorted(by_name)}).",
                    "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
                )
            media.clear()
            media.update(media_payload(att))
        elif media.get("attachment_id") is not None and int(media["attachment_id"]) not in by_id:
            raise form_error(
                f"{path}.url",
                f"Unfurled media attachment not found: attachment {media['attachment_id']} is not kept.",
                "UNFURLED_MEDIA_ITEM_ATTACHMENT_NOT_FOUND",
            )
    for comp in _walk(out):
        if comp.get("type") == FILE and isinstance(comp.get("file"), dict):
            att = by_id.get(int(comp["file"].get("attachment_id") or 0))
            if att is not None:
                comp["name"], comp["size"] = att.filename, att.size
    return out


def media_payload(att: Attachment) -> dict[str, Any]:
    """The unfurled media item Discord stores for an attachment reference."""
    data: dict[str, Any] = {
        "url": att.url,
        "proxy_url": att.url,
        "content_type": att.content_type,
        "placeholder": "",
        "placeholder_version": 1,
        "loading_state": 2,
        "flags": 0,
        "attachment_id": str(att.id),
    }
    size = png_size(att.data)
    if size is not None:
        data["width"], data["height"] = size
    return data


def _walk(components: list[Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for comp in components:
        if isinstance(comp, dict):
            out.append(comp)
            out += _walk(comp.get("components") or [])
            for key in ("accessory", "component"):
                if isinstance(comp.get(key), dict):
                    out += _walk([comp[key]])
    return out


def number_ids(components: list[dict[str, Any]]) -> None:
    """Give every component without an ``id`` the next free number, in tree order (Discord does)."""
    comps = _walk(components)
    used = {c["id"] for c in comps if isinstance(c.get("id"), int)}
    nxt = 1
    for comp in comps:
        if comp.get("id") is None:
            while nxt in used:
                nxt += 1
            comp["id"] = nxt
            used.add(nxt)


def emoji_refs(components: list[Any], path: str = "components") -> list[tuple[str, dict[str, Any]]]:
    """Every (path, emoji dict) of a button or select option in a component tree."""
    out: list[tuple[str, dict[str, Any]]] = []
    for i, comp in enumerate(components):
        if not isinstance(comp, dict):
            continue
        p = f"{path}.{i}"
        if isinstance(comp.get("emoji"), dict):
            out.append((f"{p}.emoji", comp["emoji"]))
        for k, opt in enumerate(comp.get("options") or []):
            if isinstance(opt, dict) and isinstance(opt.get("emoji"), dict):
                out.append((f"{p}.options.{k}.emoji", opt["emoji"]))
        out += emoji_refs(comp.get("components") or [], f"{p}.components")
        if isinstance(comp.get("accessory"), dict):
            out += emoji_refs([comp["accessory"]], f"{p}.accessory")
        if isinstance(comp.get("component"), dict):
            out += emoji_refs([comp["component"]], f"{p}.component")
    return out
