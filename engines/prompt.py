"""Prompts: what an awaited seat can do now, as controls a host can draw (docs/architecture.md,
"Prompts").

A prompt is a pure, typed value built by each game (``engines/<game>/prompts.py``, or
:func:`from_legal` from the legal list). The Discord layer draws it; the terminal lists it; every
control builds one action text that :func:`engines.base.play` still validates, so a prompt can
never make an illegal move legal.

Controls:

* :class:`Button` — one action.
* :class:`Pick` — a menu of ≤ 25 :class:`Choice` values with ``min``/``max`` picked; on its own it
  builds ``template`` with the picked values ("accept {}" + ["t3", "t7"] -> "accept t3 t7").
* :class:`Form` — several picks and a Send button; the host keeps the draft (the values picked so
  far) between clicks, and Send builds ``template`` from it ("offer {to} {give} for {want} {k}").
* :class:`Dialog` — a button opening a dialog of up to five labelled picks sent together (a
  Discord modal), where that beats a chain of menus (Kathai's offer: to whom, which cards, which
  goods, how many).
* :class:`Group` — a label and controls, so a long list is shown as several menus of ≤ 25.

A button or a choice may carry an ``icon``: the key of the game piece it names (``"ra_sun13"``,
``"kathai_silk"``), set by :func:`with_icons` from each game's ``icons.py``. A host shows the
piece's emoji beside the label where it has one, and the label alone otherwise.

A prompt is ``public`` (shown to everyone, under the board) when its controls reveal nothing the
seat hides, else private (only to the seat: its DM and its private answer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, replace

MAX_CHOICES = 25  # a menu holds at most 25 choices
MAX_BUTTONS = 10  # up to this many actions are offered as buttons by from_legal
MAX_GROUPS = 4  # from_legal shows at most this many menus (one row each)
PER_ROW = 5  # buttons in a row
MAX_LABEL = 80


class PromptError(ValueError):
    """Values that a control cannot take (not among its choices, too few or too many)."""


@dataclass(frozen=True)
class Button:
    """One action. ``style`` is a hint: ``primary``, ``secondary``, ``success`` or ``danger``."""

    label: str
    action: str
    style: str = "primary"
    icon: str = ""


@dataclass(frozen=True)
class Choice:
    """One value of a :class:`Pick`: ``value`` goes into the action text, ``label`` is shown."""

    label: str
    value: str
    description: str = ""
    icon: str = ""


@dataclass(frozen=True)
class Pick:
    """A menu: between ``min`` and ``max`` of ``choices`` are picked. ``key`` names it within its
    prompt (and in a form's template). Standing alone, it builds ``template`` with the picked
    values joined by spaces in the order of ``choices`` as soon as they are picked."""

    key: str
    placeholder: str
    choices: tuple[Choice, ...]
    min: int = 1
    max: int = 1
    template: str = "{}"

    def __post_init__(self) -> None:
        if not 0 < len(self.choices) <= MAX_CHOICES:
            raise ValueError(f"a pick holds 1 to {MAX_CHOICES} choices, not {len(self.choices)}")
        if not 0 <= self.min <= self.max <= len(self.choices):
            raise ValueError(
                f"pick {self.key}: min {self.min} / max {self.max} do not fit {len(self.choices)} choices"
            )

    def joined(self, values: Sequence[str]) -> str:
        """``values`` checked against the choices and the bounds, joined by spaces in choice
        order. Raises :class:`PromptError`."""
        allowed = [c.value for c in self.choices]
        if len(set(values)) != len(values) or any(v not in allowed for v in values):
            raise PromptError("That choice is not on the menu any more.")
        if not self.min <= len(values) <= self.max:
            want = str(self.min) if self.min == self.max else f"{self.min}–{self.max}"
            raise PromptError(f"Pick {want} for “{self.placeholder}”, not {len(values)}.")
        return " ".join(v for v in allowed if v in values)

    def build(self, values: Sequence[str]) -> str:
        """The action text for ``values`` (see :meth:`joined`)."""
        return squash(self.template.format(self.joined(values)))


@dataclass(frozen=True)
class Form:
    """Picks filled in any order, then Send: the action is ``template`` with each ``{key}``
    replaced by that pick's values (joined by spaces). A pick with ``min`` 0 may stay empty."""

    key: str
    title: str
    picks: tuple[Pick, ...]
    template: str
    submit: str = "Send"

    def pick(self, key: str) -> Pick | None:
        return next((p for p in self.picks if p.key == key), None)

    def missing(self, draft: Mapping[str, Sequence[str]]) -> list[Pick]:
        """The picks of the form that ``draft`` has not filled in enough (min not reached)."""
        return [p for p in self.picks if len(draft.get(p.key, ())) < p.min]

    def build(self, draft: Mapping[str, Sequence[str]]) -> str:
        """The action text for ``draft`` (pick key -> values). Raises :class:`PromptError`
        naming the first pick still to fill, or a value that is not allowed."""
        return _filled(self.picks, self.template, draft)


def _filled(picks: Sequence[Pick], template: str, draft: Mapping[str, Sequence[str]]) -> str:
    """``template`` with each pick's values from ``draft`` (see :meth:`Form.build`)."""
    missing = [p for p in picks if len(draft.get(p.key, ())) < p.min]
    if missing:
        raise PromptError(f"Choose “{missing[0].placeholder}” first.")
    parts = {p.key: p.joined(list(draft.get(p.key, ()))) for p in picks}
    return squash(template.format(**parts))


MAX_DIALOG = 5  # fields a dialog holds (a Discord modal: five labelled components)
MAX_FIELD_LABEL = 45  # characters of a dialog field's label (a Discord modal's label)


@dataclass(frozen=True)
class Dialog:
    """A button (``label``) that opens a dialog titled ``title`` of up to :data:`MAX_DIALOG`
    labelled picks, all filled at once and sent together: the action is ``template`` with each
    ``{key}`` replaced by that pick's values, as a :class:`Form` builds it, but nothing is kept
    between clicks. A pick's ``placeholder`` is the field's label. Where a host can show such a
    dialog (a Discord modal) it beats a chain of menus; ``play`` validates what it builds."""

    key: str
    label: str
    title: str
    picks: tuple[Pick, ...]
    template: str

    def __post_init__(self) -> None:
        if not 0 < len(self.picks) <= MAX_DIALOG:
            raise ValueError(f"a dialog holds 1 to {MAX_DIALOG} picks, not {len(self.picks)}")
        long = [p.key for p in self.picks if len(p.placeholder) > MAX_FIELD_LABEL]
        if long:
            raise ValueError(f"dialog {self.key}: the labels of {long} exceed {MAX_FIELD_LABEL} characters")

    def build(self, answers: Mapping[str, Sequence[str]]) -> str:
        """The action text for ``answers`` (pick key -> values). Raises :class:`PromptError`
        naming the first field left empty, or a value that is not allowed."""
        return _filled(self.picks, self.template, answers)


@dataclass(frozen=True)
class Group:
    """A label ("Left stall", "sell …") and the controls under it."""

    label: str
    controls: tuple[Button | Pick, ...]


Control = Button | Pick | Form | Dialog | Group


@dataclass(frozen=True)
class Prompt:
    """What ``seat`` can do now: a line of instruction, the controls, and whether they may be
    shown to everyone (``public``) or only to the seat."""

    seat: int
    text: str
    controls: tuple[Control, ...]
    public: bool = True

    def actions(self) -> list[str]:
        """The action texts of every button (picks and forms build theirs from values)."""
        return [b.action for b in buttons(self.controls)]

    def find(self, key: str) -> Pick | Form | Dialog | None:
        """The pick, form or dialog called ``key`` (at any depth), or None."""
        for c in walk(self.controls):
            if isinstance(c, (Pick, Form, Dialog)) and c.key == key:
                return c
        return None


def walk(controls: Iterable[Control]) -> Iterable[Control]:
    """Every control, groups opened (a group is yielded before what it holds)."""
    for c in controls:
        yield c
        if isinstance(c, Group):
            yield from walk(c.controls)


def buttons(controls: Iterable[Control]) -> list[Button]:
    return [c for c in walk(controls) if isinstance(c, Button)]


Icons = Callable[[str], str | None]
"""An action text (or a form pick's bare value) -> the key of the piece it names, or None."""


def with_icons(p: Prompt, icon: Icons) -> Prompt:
    """``p`` with each button's and choice's ``icon`` set from ``icon``: a button by its action, a
    standalone pick's choice by the action it builds alone, a form's choice by its value."""
    return replace(p, controls=tuple(_iconed(c, icon) for c in p.controls))


def _iconed(c: Control, icon: Icons) -> Control:
    if isinstance(c, Button):
        key = icon(c.action)
        return Button(c.label, c.action, c.style, key) if key else c
    if isinstance(c, Pick):
        return _iconed_pick(c, icon, alone=True)
    if isinstance(c, (Form, Dialog)):
        return replace(c, picks=tuple(_iconed_pick(p, icon, alone=False) for p in c.picks))
    return replace(c, controls=tuple(_iconed(x, icon) for x in c.controls))  # type: ignore[misc]


def _iconed_pick(p: Pick, icon: Icons, *, alone: bool) -> Pick:
    built = alone and p.template != "{}"

    def one(ch: Choice) -> Choice:
        key = (icon(squash(p.template.format(ch.value))) if built else None) or icon(ch.value)
        return Choice(ch.label, ch.value, ch.description, key) if key else ch

    return replace(p, choices=tuple(one(ch) for ch in p.choices))


def icons(p: Prompt | None) -> set[str]:
    """The icon keys ``p`` names (empty for None)."""
    if p is None:
        return set()
    out = {b.icon for b in buttons(p.controls)}
    for c in walk(p.controls):
        for pick in c.picks if isinstance(c, (Form, Dialog)) else (c,) if isinstance(c, Pick) else ():
            out.update(ch.icon for ch in pick.choices)
    return out - {""}


def squash(text: str) -> str:
    """``text`` with runs of white space made one space and the ends trimmed."""
    return re.sub(r"\s+", " ", text).strip()


def rows(controls: Sequence[Control], per_row: int = PER_ROW) -> int:
    """How many rows of components ``controls`` take: a menu a row each, a form its menus plus
    one for Send, a dialog's button a row, consecutive buttons ``per_row`` to a row."""
    n = 0
    run = 0
    for c in controls:
        if isinstance(c, Button):
            run += 1
            continue
        n += -(-run // per_row)
        run = 0
        if isinstance(c, (Pick, Dialog)):
            n += 1
        elif isinstance(c, Form):
            n += len(c.picks) + 1
        else:
            n += rows(c.controls, per_row)
    return n + -(-run // per_row)


def chunk_choices(values: Sequence[str], labels: Sequence[str]) -> list[tuple[Choice, ...]]:
    """``values`` as choices in runs of at most :data:`MAX_CHOICES`."""
    cs = tuple(
        Choice(label=(lab or v)[:100], value=v, description=(v if lab and lab != v else "")[:100])
        for v, lab in zip(values, labels, strict=False)
    )
    return [cs[i : i + MAX_CHOICES] for i in range(0, len(cs), MAX_CHOICES)]


def from_legal(
    seat: int, text: str, legal: Sequence[str], labels: Sequence[str] | None = None, *, public: bool = True
) -> Prompt:
    """The default prompt of a legal list: up to :data:`MAX_BUTTONS` actions as buttons, up to
    :data:`MAX_CHOICES` as one menu, and longer lists (up to :data:`MAX_GROUPS` × 25) as labelled
    menus, one per verb where the verbs split it so ("sell …", "offer …"), else one per run of
    25. A longer list gets no controls (``/move`` autocompletes it)."""
    labels = list(labels) if labels is not None else list(legal)
    if not legal:
        return Prompt(seat, text, (), public)
    if len(legal) <= MAX_BUTTONS and all(len(a) <= 90 for a in legal):
        return Prompt(
            seat,
            text,
            tuple(
                Button(label=(lab or a)[:MAX_LABEL], action=a) for a, lab in zip(legal, labels, strict=False)
            ),
            public,
        )
    if any(len(a) > 100 for a in legal):
        return Prompt(seat, text, (), public)
    if len(legal) <= MAX_CHOICES:
        (choices,) = chunk_choices(legal, labels)
        return Prompt(seat, text, (Pick("move", "Choose your move…", choices),), public)
    verbs: dict[str, list[int]] = {}
    for i, a in enumerate(legal):
        verbs.setdefault(a.split(" ", 1)[0], []).append(i)
    groups: list[Group] = []
    for verb, idx in verbs.items():
        runs = chunk_choices([legal[i] for i in idx], [labels[i] for i in idx])
        for k, choices in enumerate(runs):
            suffix = f" ({k + 1}/{len(runs)})" if len(runs) > 1 else ""
            key = f"move{len(groups)}"
            groups.append(Group(f"{verb} …{suffix}", (Pick(key, f"{verb} …{suffix}", choices),)))
    if len(groups) > MAX_GROUPS:
        runs = chunk_choices(legal, labels)
        groups = [
            Group(
                f"Moves {k * MAX_CHOICES + 1}–{k * MAX_CHOICES + len(c)}",
                (Pick(f"move{k}", f"Moves {k * MAX_CHOICES + 1}–{k * MAX_CHOICES + len(c)}", c),),
            )
            for k, c in enumerate(runs)
        ]
    if len(groups) > MAX_GROUPS:
        return Prompt(seat, text, (), public)
    return Prompt(seat, text, tuple(groups), public)


THEN = " … then "
"""What joins a partial completion's text to what comes next (see :func:`going_on`)."""
OR_ON = " … or go on: "
"""What joins a whole action's text to what may still follow it (see :func:`going_on`)."""


def going_on(value: str, what: str, *, whole: bool = False) -> str:
    """The ``/move`` autocomplete label of ``value`` when more may be typed after it: the text
    and what comes next, ``"swap … then a card of your hand"``; for a ``whole`` action that may
    also go on, ``"accept … or go on: the cards you show"``. Games say ``what``; a host shows
    the label as it is."""
    return f"{value}{OR_ON if whole else THEN}{what}"


def next_tokens(candidates: Iterable[str], prefix: str, limit: int = MAX_CHOICES) -> list[tuple[str, str]]:
    """Autocomplete by next token: for the legal texts in ``candidates`` that start with the
    words of ``prefix``, the distinct continuations up to the end of the next word, as
    ``(value, label)`` pairs, at most ``limit`` (the first ones met). A candidate equal to the
    prefix is offered whole. Used by games whose legal list is too long to filter."""
    words = prefix.lower().split()
    partial = "" if not words or prefix[-1:].isspace() else words.pop()
    head = " ".join(words)
    out: dict[str, None] = {}
    for c in candidates:
        toks = c.split(" ")
        if toks[: len(words)] != words or len(toks) <= len(words):
            continue
        nxt = toks[len(words)]
        if not nxt.startswith(partial):
            continue
        value = " ".join([*words, nxt]) if head else nxt
        if value not in out:
            out[value] = None
            if len(out) >= limit:
                break
    return [(v, v) for v in out]
