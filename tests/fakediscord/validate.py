"""Discord's documented limits, checked so that a bot bug surfaces here and not only in production.

Each ``check_*`` function returns None or raises ``ApiError`` (400, code 50035 "Invalid Form
Body", or 50006 for an empty message) naming the offending field.
"""

from __future__ import annotations

import re
from typing import Any

from .errors import ApiError, form_error
from .v2 import check_no_legacy_fields, check_v2_components, is_v2

CONTENT_MAX = 2000
EMBEDS_MAX = 10
EMBED_TOTAL_MAX = 6000
ROWS_MAX = 5
BUTTONS_PER_ROW = 5
SELECT_OPTIONS_MAX = 25
CHOICES_MAX = 25
OPTIONS_MAX = 25
COMMAND_NAME = re.compile(r"^[-_\w]{1,32}$")
LINK, PREMIUM = 5, 6


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_message(
    payload: dict[str, Any], n_files: int, *, editing: bool = False, v2: bool | None = None
) -> None:
    """Check content, embeds and components of a message create/edit payload.

    ``v2``: whether the message is (or becomes) a Components V2 message; by default, whether the
    payload's ``flags`` say so. A V2 message has no content or embeds and V2 components (see
    ``fakediscord.v2``); any other has at most 5 action rows."""
    if v2 is None:
        v2 = is_v2(payload.get("flags"))
    content = payload.get("content")
    if content is not None and not isinstance(content, str):
        raise form_error("content", "Must be a string.")
    if _len(content) > CONTENT_MAX:
        raise form_error("content", f"Must be {CONTENT_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    embeds = payload.get("embeds") or []
    if len(embeds) > EMBEDS_MAX:
        raise form_error("embeds", f"Must be {EMBEDS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    total = 0
    for i, embed in enumerate(embeds):
        total += check_embed(embed, f"embeds.{i}")
    if total > EMBED_TOTAL_MAX:
        raise form_error(
            "embeds", f"Embed size exceeds maximum size of {EMBED_TOTAL_MAX}", "MAX_EMBED_SIZE_EXCEEDED"
        )
    components = payload.get("components") or []
    if v2:
        check_no_legacy_fields(content, embeds)
        check_v2_components(components)
    else:
        check_components(components)
    if not editing:
        has_body = (
            bool(content)
            or embeds
            or components
            or n_files
            or payload.get("sticker_ids")
            or payload.get("poll")
        )
        if not has_body:
            raise ApiError(400, 50006, "Cannot send an empty message")


def check_embed(embed: dict[str, Any], path: str) -> int:
    """Check one embed's field lengths; returns its character count towards the 6000 total."""
    limits = {"title": 256, "description": 4096}
    total = 0
    for key, limit in limits.items():
        n = _len(embed.get(key))
        if n > limit:
            raise form_error(f"{path}.{key}", f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        total += n
    fields = embed.get("fields") or []
    if len(fields) > 25:
        raise form_error(f"{path}.fields", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for j, f in enumerate(fields):
        for key, limit in (("name", 256), ("value", 1024)):
            n = _len(f.get(key))
            if n == 0:
                raise form_error(f"{path}.fields.{j}.{key}", "This field is required", "BASE_TYPE_REQUIRED")
            if n > limit:
                raise form_error(
                    f"{path}.fields.{j}.{key}", f"Must be {limit} or fewer in length.", "BASE_TYPE_MAX_LENGTH"
                )
            total += n
    footer = (embed.get("footer") or {}).get("text")
    if _len(footer) > 2048:
        raise form_error(f"{path}.footer.text", "Must be 2048 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    author = (embed.get("author") or {}).get("name")
    if _len(author) > 256:
        raise form_error(f"{path}.author.name", "Must be 256 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    return total + _len(footer) + _len(author)


def check_components(rows: list[dict[str, Any]]) -> None:
    """Check classic (non-v2) components: ≤5 action rows, ≤5 buttons or one select per row, unique
    custom ids."""
    if len(rows) > ROWS_MAX:
        raise form_error("components", f"Must be {ROWS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    seen: set[str] = set()
    for i, row in enumerate(rows):
        if not isinstance(row, dict) or row.get("type") != 1:
            raise form_error(
                f"components.{i}",
                'Value of field "type" must be one of (1,) (other types need the IS_COMPONENTS_V2 flag).',
                "UNION_TYPE_CHOICES",
            )
        children = row.get("components") or []
        if not children:
            raise form_error(
                f"components.{i}.components", "Must be 1 or more in length.", "BASE_TYPE_MIN_LENGTH"
            )
        kinds = {c.get("type") for c in children}
        if kinds - {2} and len(children) > 1:
            raise form_error(
                f"components.{i}.components",
                "A select menu must be alone in its action row.",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        if len(children) > BUTTONS_PER_ROW:
            raise form_error(
                f"components.{i}.components",
                "Must be 5 or fewer in length.",
                "COMPONENT_LAYOUT_WIDTH_EXCEEDED",
            )
        for j, comp in enumerate(children):
            check_component(comp, f"components.{i}.components.{j}", seen)


def check_component(comp: dict[str, Any], path: str, seen: set[str]) -> None:
    """Check one button or select menu."""
    ctype = comp.get("type")
    if ctype == 2:
        style = comp.get("style")
        if style == LINK:
            if not comp.get("url"):
                raise form_error(f"{path}.url", "A link button needs a url.", "BASE_TYPE_REQUIRED")
        elif style != PREMIUM and not comp.get("custom_id"):
            raise form_error(f"{path}.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
        if _len(comp.get("label")) > 80:
            raise form_error(f"{path}.label", "Must be 80 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        if style != PREMIUM and not comp.get("label") and not comp.get("emoji"):
            raise form_error(f"{path}.label", "A button needs a label or an emoji.", "BASE_TYPE_REQUIRED")
    elif ctype in (3, 5, 6, 7, 8):
        if not comp.get("custom_id"):
            raise form_error(f"{path}.custom_id", "This field is required", "BASE_TYPE_REQUIRED")
        if _len(comp.get("placeholder")) > 150:
            raise form_error(f"{path}.placeholder", "Must be 150 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not 0 <= lo <= hi <= 25:
            raise form_error(
                f"{path}.max_values", "min_values/max_values out of range.", "BASE_TYPE_BAD_VALUE"
            )
        if ctype == 3:
            options = comp.get("options") or []
            if not 1 <= len(options) <= SELECT_OPTIONS_MAX:
                raise form_error(
                    f"{path}.options", "Must be between 1 and 25 in length.", "BASE_TYPE_BAD_LENGTH"
                )
            if hi > len(options):
                raise form_error(
                    f"{path}.max_values", "max_values exceeds the number of options.", "BASE_TYPE_BAD_VALUE"
                )
            values = set()
            for k, opt in enumerate(options):
                for key in ("label", "value"):
                    if not 1 <= _len(opt.get(key)) <= 100:
                        raise form_error(
                            f"{path}.options.{k}.{key}",
                            "Must be between 1 and 100 in length.",
                            "BASE_TYPE_BAD_LENGTH",
                        )
                if opt["value"] in values:
                    raise form_error(
                        f"{path}.options.{k}.value",
                        "Select option values must be unique.",
                        "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
                    )
                values.add(opt["value"])
    else:
        raise form_error(f"{path}.type", f"Component type {ctype} is not allowed in an action row.")
    custom_id = comp.get("custom_id")
    if custom_id is not None:
        if not 1 <= len(custom_id) <= 100:
            raise form_error(
                f"{path}.custom_id", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        if custom_id in seen:
            raise form_error(
                f"{path}.custom_id",
                "Component custom id cannot be duplicated",
                "COMPONENT_CUSTOM_ID_DUPLICATED",
            )
        seen.add(custom_id)


def check_choices(choices: Any) -> None:
    """Check an autocomplete result: ≤25 choices, names and string values 1–100 characters."""
    if not isinstance(choices, list):
        raise form_error("data.choices", "Must be a list.")
    if len(choices) > CHOICES_MAX:
        raise form_error("data.choices", f"Must be {CHOICES_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    for i, ch in enumerate(choices):
        if not 1 <= _len(ch.get("name")) <= 100:
            raise form_error(
                f"data.choices.{i}.name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
            )
        value = ch.get("value")
        if isinstance(value, str) and len(value) > 100:
            raise form_error(
                f"data.choices.{i}.value", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH"
            )


def check_commands(commands: Any) -> None:
    """Check a bulk command overwrite: names, descriptions, option counts/order, choices, duplicates."""
    if not isinstance(commands, list):
        raise form_error("_root", "Must be a list.")
    if len(commands) > 100:
        raise form_error("_root", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    names: set[tuple[int, str]] = set()
    for i, cmd in enumerate(commands):
        ctype = cmd.get("type", 1)
        key = (ctype, cmd.get("name", ""))
        if key in names:
            raise form_error(
                f"{i}.name", "Application command names must be unique", "APPLICATION_COMMANDS_DUPLICATE_NAME"
            )
        names.add(key)
        _check_named(cmd, str(i), chat_input=ctype == 1)
        if ctype == 1:
            _check_options(cmd.get("options") or [], f"{i}.options", depth=0)


def _check_named(obj: dict[str, Any], path: str, *, chat_input: bool = True) -> None:
    name = obj.get("name") or ""
    if chat_input and (not COMMAND_NAME.match(name) or name != name.lower()):
        raise form_error(
            f"{path}.name", f"Command name is invalid: {name!r}", "APPLICATION_COMMAND_INVALID_NAME"
        )
    if chat_input and not 1 <= _len(obj.get("description")) <= 100:
        raise form_error(
            f"{path}.description", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
        )


def _check_options(options: list[dict[str, Any]], path: str, depth: int) -> None:
    if len(options) > OPTIONS_MAX:
        raise form_error(path, f"Must be {OPTIONS_MAX} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    seen: set[str] = set()
    optional_seen = False
    for j, opt in enumerate(options):
        p = f"{path}.{j}"
        _check_named(opt, p)
        if opt["name"] in seen:
            raise form_error(
                f"{p}.name", "Option names must be unique", "APPLICATION_COMMAND_OPTIONS_NAME_ALREADY_EXISTS"
            )
        seen.add(opt["name"])
        otype = opt.get("type")
        if otype in (1, 2):
            if depth >= (1 if otype == 2 else 2):
                raise form_error(
                    f"{p}.type", "Subcommands nested too deeply.", "APPLICATION_COMMAND_OPTION_TYPE_INVALID"
                )
            _check_options(opt.get("options") or [], f"{p}.options", depth + 1)
            continue
        if opt.get("required"):
            if optional_seen:
                raise form_error(
                    f"{p}.required",
                    "Required options must be placed before non-required options",
                    "APPLICATION_COMMAND_OPTIONS_REQUIRED_INVALID",
                )
        else:
            optional_seen = True
        choices = opt.get("choices") or []
        if len(choices) > CHOICES_MAX:
            raise form_error(f"{p}.choices", "Must be 25 or fewer in length.", "BASE_TYPE_MAX_LENGTH")
        if choices and opt.get("autocomplete"):
            raise form_error(
                f"{p}.autocomplete",
                "Autocomplete cannot be set with choices.",
                "APPLICATION_COMMAND_AUTOCOMPLETE_INVALID",
            )
        for k, ch in enumerate(choices):
            if not 1 <= _len(ch.get("name")) <= 100:
                raise form_error(
                    f"{p}.choices.{k}.name", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH"
                )
