"""Engine prompts drawn as Discord components.

A prompt (``engines.prompt``) says what one seat can do now; this module lays it out in a
message's five rows: buttons (runs of the same verb on rows of their own, see
:func:`components.button_rows`), a menu per pick (standing alone, or one per pick of a form with
its Send button), groups opened in order. Every component's custom id carries the game and the
version, so a click on an old message is refused as stale, and none carries more than the
prompt's own keys: a click is turned into an action by asking the engine for the clicker's prompt
again (:mod:`actions`), never by trusting the message.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from engines import prompt as pr

from . import components, emojis
from .components import ActionSelect, FormSelect, FormSend, GameButton
from .dialogs import DialogButton

MAX_ROWS = 5
STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}

Drafts = Mapping[str, Mapping[str, Sequence[str]]]
"""Form key -> pick key -> values picked so far (shown as the menus' defaults)."""


def _options(pick: pr.Pick, chosen: Sequence[str] = ()) -> list[discord.SelectOption]:
    return [
        discord.SelectOption(
            label=c.label[:100] or c.value[:100],
            value=c.value[:100],
            description=c.description[:100] or None,
            emoji=emojis.of(c.icon),
            default=c.value in chosen,
        )
        for c in pick.choices
    ]


def fits(p: pr.Prompt | None, *, hand: bool) -> bool:
    """Whether ``p`` can be drawn in one message (with the My hand button when ``hand``): at most
    five rows, and custom ids within Discord's 100 characters."""
    if p is None or not p.controls:
        return False
    if any(len(b.action) > 90 for b in pr.buttons(p.controls)):
        return False
    return pr.rows(p.controls) + (1 if hand else 0) <= MAX_ROWS


def kind(p: pr.Prompt | None) -> str | None:
    """How a message offers ``p``: "buttons" (buttons only), "menu" (anything with a menu), or
    None (no controls)."""
    if p is None or not p.controls:
        return None
    return "buttons" if all(isinstance(c, pr.Button) for c in pr.walk(p.controls)) else "menu"


def view(
    game_id: int, version: int, p: pr.Prompt | None, *, hand: bool = True, drafts: Drafts | None = None
) -> discord.ui.View:
    """The components of ``p`` (none when it does not :func:`fit`), plus My hand with ``hand``."""
    out = discord.ui.View(timeout=None)
    fill: list[int] = []  # per row: buttons on it (0 for a menu row)
    if p is not None and fits(p, hand=hand):
        _lay(out, game_id, version, p.controls, fill, drafts or {}, single=_single_menu(p))
    if hand:
        row = len(fill) - 1 if fill and 0 < fill[-1] < components.PER_ROW else len(fill)
        out.add_item(GameButton(game_id, 0, "!hand", label="My hand", row=min(row, MAX_ROWS - 1)))
    return out


def _single_menu(p: pr.Prompt) -> bool:
    """A prompt that is one menu of whole actions: drawn as the plain action menu (``bzs:g:v``),
    exactly as boards were before prompts."""
    picks = [c for c in pr.walk(p.controls) if isinstance(c, pr.Pick)]
    return (
        len(p.controls) == 1
        and len(picks) == 1
        and picks[0].template == "{}"
        and picks[0].min == picks[0].max == 1
    )


def _lay(
    out: discord.ui.View,
    gid: int,
    version: int,
    controls: Sequence[pr.Control],
    fill: list[int],
    drafts: Drafts,
    *,
    single: bool = False,
) -> None:
    """Add ``controls`` on new rows below those counted in ``fill`` (buttons per row, 0 for a
    menu), extending it."""
    i = 0
    while i < len(controls):
        c = controls[i]
        if isinstance(c, pr.Button):
            run = _button_run(controls, i)
            _lay_buttons(out, gid, version, run, fill)
            i += len(run)
            continue
        if isinstance(c, pr.Pick):
            out.add_item(
                ActionSelect(
                    gid,
                    version,
                    _options(c),
                    key=None if single else c.key,
                    placeholder=c.placeholder,
                    min_values=c.min,
                    max_values=c.max,
                    row=len(fill),
                )
            )
            fill.append(0)
        elif isinstance(c, pr.Form):
            _lay_form(out, gid, version, c, fill, drafts.get(c.key, {}))
        elif isinstance(c, pr.Dialog):
            out.add_item(DialogButton(gid, version, c.key, label=c.label, row=len(fill)))
            fill.append(1)
        elif isinstance(c, pr.Group):
            _lay(out, gid, version, c.controls, fill, drafts)
        i += 1


def _button_run(controls: Sequence[pr.Control], start: int) -> list[pr.Button]:
    """The buttons of ``controls`` from ``start`` up to the next control of another kind."""
    run: list[pr.Button] = []
    for b in controls[start:]:
        if not isinstance(b, pr.Button):
            break
        run.append(b)
    return run


def _lay_buttons(out: discord.ui.View, gid: int, version: int, run: list[pr.Button], fill: list[int]) -> None:
    """A run of buttons on new rows (see :func:`components.button_rows`)."""
    row = len(fill)
    rows = components.button_rows([b.action for b in run], max_rows=components.MAX_ROWS - row)
    for r, idx in enumerate(rows):
        for k in idx:
            b = run[k]
            out.add_item(
                GameButton(
                    gid,
                    version,
                    b.action,
                    label=b.label,
                    style=STYLES.get(b.style, discord.ButtonStyle.primary),
                    emoji=emojis.of(b.icon),
                    row=row + r,
                )
            )
        fill.append(len(idx))


def _lay_form(
    out: discord.ui.View,
    gid: int,
    version: int,
    form: pr.Form,
    fill: list[int],
    draft: Mapping[str, Sequence[str]],
) -> None:
    """A form: a menu per pick (its ``draft`` values shown as chosen), each on its own row, then
    its Send button on a row of its own."""
    for pick in form.picks:
        out.add_item(
            FormSelect(
                gid,
                version,
                form.key,
                pick.key,
                _options(pick, draft.get(pick.key, ())),
                placeholder=pick.placeholder,
                min_values=pick.min,
                max_values=pick.max,
                row=len(fill),
            )
        )
        fill.append(0)
    out.add_item(FormSend(gid, version, form.key, label=form.submit, row=len(fill)))
    fill.append(1)


def groups_text(p: pr.Prompt | None) -> list[str]:
    """One line per group of ``p`` saying what its controls are for (Discord shows no labels on
    rows): "Menus: sell …, bribe …". Empty without groups."""
    if p is None:
        return []
    labels = [c.label for c in p.controls if isinstance(c, pr.Group)]
    return [f"Choices: {' · '.join(labels)}"] if labels else []
