"""Modals: the bot's modal (interaction callback type 9) checked as Discord checks it, and the
MODAL_SUBMIT interaction data a user's answers produce.

A modal has a custom_id, a title of at most 45 characters and 1-5 top-level components: an 18
Label (``label`` ≤ 45, ``description`` ≤ 100) holding one field, a 10 TextDisplay, or (the old
way) an action row holding one 4 TextInput. Fields: 4 TextInput, 3 string select, 5/6/7/8
user/role/mentionable/channel selects, 19 FileUpload, 21 RadioGroup (2-10 options, one value),
22 CheckboxGroup (1-10 options, values) and 23 Checkbox (true/false). Discord numbers every
component (``id``) and sends each field back with its id and custom_id::

    TextInput {"type": 4, "value": str}      selects {"type": 3|5|6|7|8, "values": [str]}
    RadioGroup {"type": 21, "value": str | None}   CheckboxGroup {"type": 22, "values": [str]}
    Checkbox {"type": 23, "value": bool}     FileUpload {"type": 19, "values": [attachment ids]}
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .errors import FakeDiscordError, form_error
from .payloads import channel_payload, role_payload
from .records import Channel, Role, User
from .v2 import number_ids

if TYPE_CHECKING:
    from .world import World

TITLE_MAX = 45
LABEL_MAX = 45
LABEL_DESCRIPTION_MAX = 100
TOP_MAX = 5
TEXT_INPUT_MAX = 4000
TEXT_INPUT, FILE_UPLOAD, RADIO, CHECKBOXES, CHECKBOX = 4, 19, 21, 22, 23
SELECTS = (3, 5, 6, 7, 8)
FIELDS = (TEXT_INPUT, *SELECTS, FILE_UPLOAD, RADIO, CHECKBOXES, CHECKBOX)


def _num(comp: dict[str, Any], key: str, default: int) -> Any:
    """``comp[key]``, or ``default`` when absent or null (discord.py sends null for unset limits)."""
    value = comp.get(key)
    return default if value is None else value


def _len(value: Any) -> int:
    return len(value) if isinstance(value, str) else 0


def check_modal(data: dict[str, Any]) -> dict[str, Any]:
    """Check a modal callback's data; returns the modal as Discord keeps it (components numbered).
    Raises 400 / 50035 naming the bad field."""
    from .validate import check_component

    if not 1 <= _len(data.get("custom_id")) <= 100:
        raise form_error("data.custom_id", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    if not 1 <= _len(data.get("title")) <= TITLE_MAX:
        raise form_error(
            "data.title", f"Must be between 1 and {TITLE_MAX} in length.", "BASE_TYPE_BAD_LENGTH"
        )
    top = data.get("components")
    if not isinstance(top, list) or not 1 <= len(top) <= TOP_MAX:
        raise form_error(
            "data.components", f"Must be between 1 and {TOP_MAX} in length.", "BASE_TYPE_BAD_LENGTH"
        )
    seen: set[str] = set()
    for i, comp in enumerate(top):
        path = f"data.components.{i}"
        ctype = comp.get("type") if isinstance(comp, dict) else None
        if ctype == 18:
            _check_label(comp, path, seen, check_component)
        elif ctype == 10:
            if not 1 <= _len(comp.get("content")) <= TEXT_INPUT_MAX:
                raise form_error(
                    f"{path}.content", "Must be between 1 and 4000 in length.", "BASE_TYPE_BAD_LENGTH"
                )
        elif ctype == 1:
            row = comp.get("components") or []
            if len(row) != 1 or not isinstance(row[0], dict) or row[0].get("type") != TEXT_INPUT:
                raise form_error(
                    f"{path}.components",
                    "A modal action row holds exactly one text input.",
                    "UNION_TYPE_CHOICES",
                )
            if not 1 <= _len(row[0].get("label")) <= LABEL_MAX:
                raise form_error(
                    f"{path}.components.0.label",
                    "Must be between 1 and 45 in length.",
                    "BASE_TYPE_BAD_LENGTH",
                )
            _check_field(row[0], f"{path}.components.0", seen, check_component)
        else:
            raise form_error(path, 'Value of field "type" must be one of (1, 10, 18).', "UNION_TYPE_CHOICES")
    modal = {"custom_id": data["custom_id"], "title": data["title"], "components": list(top)}
    number_ids(modal["components"])
    return modal


def _check_label(comp: dict[str, Any], path: str, seen: set[str], check_component: Any) -> None:
    if not 1 <= _len(comp.get("label")) <= LABEL_MAX:
        raise form_error(
            f"{path}.label", f"Must be between 1 and {LABEL_MAX} in length.", "BASE_TYPE_BAD_LENGTH"
        )
    if _len(comp.get("description")) > LABEL_DESCRIPTION_MAX:
        raise form_error(
            f"{path}.description",
            f"Must be {LABEL_DESCRIPTION_MAX} or fewer in length.",
            "BASE_TYPE_MAX_LENGTH",
        )
    child = comp.get("component")
    if not isinstance(child, dict) or child.get("type") not in FIELDS:
        raise form_error(
            f"{path}.component", f'Value of field "type" must be one of {FIELDS}.', "UNION_TYPE_CHOICES"
        )
    _check_field(child, f"{path}.component", seen, check_component)


def _check_field(comp: dict[str, Any], path: str, seen: set[str], check_component: Any) -> None:
    ctype = comp["type"]
    if ctype in SELECTS:
        check_component(comp, path, seen)
        return
    if not 1 <= _len(comp.get("custom_id")) <= 100:
        raise form_error(f"{path}.custom_id", "Must be between 1 and 100 in length.", "BASE_TYPE_BAD_LENGTH")
    if comp["custom_id"] in seen:
        raise form_error(
            f"{path}.custom_id", "Component custom id cannot be duplicated", "COMPONENT_CUSTOM_ID_DUPLICATED"
        )
    seen.add(comp["custom_id"])
    if ctype == TEXT_INPUT:
        _check_text_input(comp, path)
    elif ctype in (RADIO, CHECKBOXES):
        _check_choices(comp, path)
    elif ctype == CHECKBOX and not isinstance(comp.get("default", False), bool):
        raise form_error(f"{path}.default", "Must be a boolean.", "BASE_TYPE_BAD_VALUE")
    elif ctype == FILE_UPLOAD:
        lo, hi = _num(comp, "min_values", 1), _num(comp, "max_values", 1)
        if not 0 <= lo <= hi <= 10:
            raise form_error(
                f"{path}.max_values", "min_values/max_values out of range.", "BASE_TYPE_BAD_VALUE"
            )


def _check_text_input(comp: dict[str, Any], path: str) -> None:
    if comp.get("style", 1) not in (1, 2):
        raise form_error(f"{path}.style", "Value must be one of (1, 2).", "BASE_TYPE_CHOICES")
    lo, hi = _num(comp, "min_length", 0), _num(comp, "max_length", TEXT_INPUT_MAX)
    if not 0 <= lo <= hi <= TEXT_INPUT_MAX or hi < 1:
        raise form_error(f"{path}.max_length", "min_length/max_length out of range.", "BASE_TYPE_BAD_VALUE")
    if _len(comp.get("value")) > hi:
        raise form_error(f"{path}.value", f"Must be {hi} or fewer in length.", "BASE_TYPE_MAX_LENGTH")
    if _len(comp.get("placeholder")) > 100:
        raise form_error(f"{path}.placeholder", "Must be 100 or fewer in length.", "BASE_TYPE_MAX_LENGTH")


def _check_choices(comp: dict[str, Any], path: str) -> None:
    options = comp.get("options")
    lo_n = 2 if comp["type"] == RADIO else 1
    if not isinstance(options, list) or not lo_n <= len(options) <= 10:
        raise form_error(
            f"{path}.options", f"Must be between {lo_n} and 10 in length.", "BASE_TYPE_BAD_LENGTH"
        )
    values: set[str] = set()
    for k, opt in enumerate(options):
        for key in ("label", "value"):
            if not isinstance(opt, dict) or not 1 <= _len(opt.get(key)) <= 100:
                raise form_error(
                    f"{path}.options.{k}.{key}",
                    "Must be between 1 and 100 in length.",
                    "BASE_TYPE_BAD_LENGTH",
                )
        if opt["value"] in values:
            raise form_error(
                f"{path}.options.{k}.value",
                "Option values must be unique.",
                "SELECT_COMPONENT_OPTION_VALUE_DUPLICATED",
            )
        values.add(opt["value"])
    if comp["type"] == RADIO:
        if sum(1 for o in options if o.get("default")) > 1:
            raise form_error(f"{path}.options", "Only one option can be the default.", "BASE_TYPE_BAD_VALUE")
        return
    lo, hi = _num(comp, "min_values", 0), _num(comp, "max_values", len(options))
    if not 0 <= lo <= hi <= len(options):
        raise form_error(f"{path}.max_values", "min_values/max_values out of range.", "BASE_TYPE_BAD_VALUE")


# --------------------------------------------------------------------- submitting
def fields(modal: dict[str, Any]) -> list[dict[str, Any]]:
    """The modal's fields (components with a custom_id), in order."""
    out = []
    for comp in modal["components"]:
        if comp.get("type") == 18:
            out.append(comp["component"])
        elif comp.get("type") == 1:
            out += comp.get("components") or []
    return out


def submit_data(
    world: World, channel: Channel, modal: dict[str, Any], answers: dict[str, Any]
) -> dict[str, Any]:
    """The MODAL_SUBMIT interaction ``data`` for ``answers`` (custom_id -> value) to ``modal``;
    unanswered fields keep their defaults. Raises FakeDiscordError for an unknown field, a value
    of the wrong kind, an unknown option, a wrong count, or a required field left empty (what
    Discord's client does not let a user send)."""
    by_id = {f["custom_id"]: f for f in fields(modal)}
    unknown = sorted(set(answers) - set(by_id))
    if unknown:
        raise FakeDiscordError(
            f"modal {modal['custom_id']!r} has no field(s) {unknown}; fields: {sorted(by_id)}"
        )
    resolved: dict[str, Any] = {}
    values = {
        cid: _answer(world, channel, f, answers.get(cid, _default(f)), resolved) for cid, f in by_id.items()
    }
    components: list[dict[str, Any]] = []
    for comp in modal["components"]:
        if comp.get("type") == 18:
            field = comp["component"]
            components.append(
                {"type": 18, "id": comp["id"], "component": _sent(field, values[field["custom_id"]])}
            )
        elif comp.get("type") == 1:
            row = [_sent(f, values[f["custom_id"]]) for f in comp.get("components") or []]
            components.append({"type": 1, "id": comp["id"], "components": row})
        else:
            components.append({"type": comp["type"], "id": comp["id"]})
    data: dict[str, Any] = {"custom_id": modal["custom_id"], "components": components}
    if resolved:
        data["resolved"] = resolved
    return data


def _sent(field: dict[str, Any], value: Any) -> dict[str, Any]:
    key = "value" if field["type"] in (TEXT_INPUT, RADIO, CHECKBOX) else "values"
    return {"type": field["type"], "id": field["id"], "custom_id": field["custom_id"], key: value}


def _default(field: dict[str, Any]) -> Any:
    ctype = field["type"]
    if ctype == TEXT_INPUT:
        return field.get("value") or ""
    if ctype == RADIO:
        return next((o["value"] for o in field["options"] if o.get("default")), None)
    if ctype == CHECKBOXES or ctype == 3:
        return [o["value"] for o in field.get("options") or [] if o.get("default")]
    if ctype == CHECKBOX:
        return bool(field.get("default", False))
    return []


def _answer(
    world: World, channel: Channel, field: dict[str, Any], value: Any, resolved: dict[str, Any]
) -> Any:
    """The wire value of one answer, checked as Discord's client would."""
    cid, ctype = field["custom_id"], field["type"]
    required = field.get("required", True)
    if ctype == TEXT_INPUT:
        if not isinstance(value, str):
            raise FakeDiscordError(f"text input {cid!r} takes a str, got {value!r}")
        lo, hi = _num(field, "min_length", 0), _num(field, "max_length", TEXT_INPUT_MAX)
        if (value or required) and not max(lo, 1 if required else 0) <= len(value) <= hi:
            raise FakeDiscordError(
                f"text input {cid!r} takes {max(lo, int(required))}..{hi} characters, got {len(value)}"
            )
        return value
    if ctype == CHECKBOX:
        if not isinstance(value, bool):
            raise FakeDiscordError(f"checkbox {cid!r} takes True or False, got {value!r}")
        return value
    if ctype == RADIO:
        allowed = [o["value"] for o in field["options"]]
        if value is None and required:
            raise FakeDiscordError(f"radio group {cid!r} is required: pick one of {allowed}")
        if value is not None and value not in allowed:
            raise FakeDiscordError(f"radio group {cid!r} has no option {value!r}; options: {allowed}")
        return value
    if not isinstance(value, list):
        raise FakeDiscordError(f"field {cid!r} (type {ctype}) takes a list, got {value!r}")
    return _many(world, channel, field, value, resolved)


def _many(
    world: World, channel: Channel, field: dict[str, Any], value: list[Any], resolved: dict[str, Any]
) -> list[str]:
    cid, ctype = field["custom_id"], field["type"]
    required = field.get("required", True)
    options = [o["value"] for o in field.get("options") or []]
    lo = _num(field, "min_values", 0 if ctype == CHECKBOXES else 1)
    hi = _num(field, "max_values", len(options) if ctype == CHECKBOXES else 1)
    if not value:
        if required:
            raise FakeDiscordError(f"field {cid!r} is required: choose at least one value")
        return []
    if not lo <= len(value) <= hi:
        raise FakeDiscordError(f"field {cid!r} takes {lo}..{hi} values, got {len(value)}")
    if ctype in (3, CHECKBOXES):
        bad = [v for v in value if v not in options]
        if bad:
            raise FakeDiscordError(f"field {cid!r} has no option(s) {bad}; options: {options}")
        return list(value)
    if ctype == FILE_UPLOAD:
        raise FakeDiscordError(f"file upload {cid!r}: the fake cannot upload files through a modal yet")
    select_resolved(world, channel, value, resolved)
    return [str(v.id) for v in value]


def select_resolved(
    world: World, channel: Channel, values: list[Any], resolved: dict[str, Any]
) -> dict[str, Any]:
    """Add the users/members, roles and channels chosen in a select to ``resolved``; returns it."""
    from .commands import _resolve_user

    for v in values:
        if isinstance(v, User):
            _resolve_user(world, channel, v, resolved)
        elif isinstance(v, Role):
            resolved.setdefault("roles", {})[str(v.id)] = role_payload(v)
        elif isinstance(v, Channel):
            resolved.setdefault("channels", {})[str(v.id)] = channel_payload(
                world, v, permissions_for=world.bot_user
            )
        else:
            raise FakeDiscordError(f"select values must be User/Role/Channel records, got {v!r}")
    return resolved
