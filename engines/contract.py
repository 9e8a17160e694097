"""The contract between a game and everything that uses it, as three small typed protocols.

* :class:`Rules`: what every game implements: set-up, whose turn, the legal actions, what an
  action does, what each viewer may see, the result, and the action grammar.
* :class:`HostSupport`: what a host (the Discord bot, the terminal) asks besides the rules:
  controls, autocomplete, labels, the turn clock's move, warnings before irreversible moves,
  whether an action's text may be shown to everyone, whether a move may be taken back.
* :class:`SearchSupport`: what the search AI (:mod:`engines.search`) needs: a full state drawn
  from one seat's view, a playout policy, an evaluation.

Each game declares one engine object (``engines/<game>/rules.py``) that provides all three, built
on :class:`engines.engine.GameEngine`, which gives every method of :class:`HostSupport` a default
from the rules, and of :class:`SearchSupport` all but ``choose``, ``determinize`` and ``evaluate``,
which a game writes. Code that needs only one part may take the protocol instead of the engine
class (the host and the search take the whole engine today). ``S`` is the
game's state type and ``V`` its view type (a ``TypedDict``), so that a renderer reading a field a
game's view lacks is a type error.

An engine is pure: a state is an immutable value, ``apply`` returns a new one, and the only
randomness is the engine's own ``random.Random(seed)`` used during ``setup``. Actions are their
canonical text (a ``str``): the same strings feed the legal lists, the parser, the stored move
log, autocomplete, buttons and tests.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from engines.values import VIEW_KEYS as VIEW_KEYS
from engines.values import Action as Action
from engines.values import View as View

if TYPE_CHECKING:
    from engines.events import Event
    from engines.options import Option
    from engines.outcome import Menu, Outcome
    from engines.prompt import Prompt

S = TypeVar("S")
V_co = TypeVar("V_co", bound=View, covariant=True)
V_contra = TypeVar("V_contra", bound=View, contravariant=True)
S_contra = TypeVar("S_contra", contravariant=True)


class Rules(Protocol[S, V_co]):
    """The rules of one game: the seven methods every game implements."""

    @property
    def name(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def min_players(self) -> int: ...
    @property
    def max_players(self) -> int: ...
    @property
    def options(self) -> tuple[Option, ...]: ...

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> S:
        """The first state. Deterministic in its arguments."""
        ...

    def to_move(self, state: S) -> tuple[int, ...]:
        """The seats awaited (empty once the game is over)."""
        ...

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        """Sorted canonical action texts of ``seat``; [] if it is not awaited."""
        ...

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        """The new state and what happened; raises :class:`engines.errors.IllegalAction` with a
        reason for anything not in ``legal_actions``; never changes ``state``."""
        ...

    def view(self, state: S, viewer: int | None) -> V_co:
        """What ``viewer`` (a seat, or None for a spectator) may see; carries :data:`VIEW_KEYS`."""
        ...

    def outcome(self, state: S) -> Outcome | None:
        """The result, or None while the game runs."""
        ...

    def parse(self, text: str) -> Action:
        """The canonical text of ``text``; raises :class:`engines.errors.BadNotation`."""
        ...


class HostSupport(Protocol[S_contra]):
    """What a host asks of a game besides its rules; every method has a default from the rules."""

    def is_legal(self, state: S_contra, seat: int, text: str) -> str | None: ...
    def complete(self, state: S_contra, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]: ...
    def timeout_action(self, state: S_contra, seat: int) -> Action | None: ...
    def prompt(self, state: S_contra, seat: int) -> Prompt: ...
    def action_label(self, state: S_contra, seat: int, action: Action) -> str: ...
    def irreversible(self, state: S_contra, seat: int, action: Action) -> str | None: ...
    def read_names(self, state: S_contra, seat: int, text: str, names: Sequence[str]) -> str: ...
    def auto_answer(self, state: S_contra, seat: int) -> tuple[Action, str] | None: ...
    def menu(self, state: S_contra, seat: int) -> Menu | None: ...
    def secrets(self, state: S_contra, viewer: int | None) -> Iterable[str]: ...
    def public_actions(self, state: S_contra, seat: int) -> bool: ...
    def private_action(self, state: S_contra, seat: int, action: Action) -> bool: ...
    def reveals(self, state: S_contra, seat: int, action: Action) -> str | None: ...
    def events_on_setup(self, state: S_contra) -> list[Event]: ...


class SearchSupport(Protocol[S, V_contra]):
    """What the search AI needs of a game (:mod:`engines.search`)."""

    def choose(self, view: V_contra, legal: Sequence[Action]) -> Action: ...
    def determinize(self, view: V_contra, rng: random.Random) -> S: ...
    def search_actions(self, state: S, seat: int) -> Sequence[Action]: ...
    def playout_action(self, state: S, seat: int, rng: random.Random) -> Action: ...
    def evaluate(self, state: S) -> Sequence[float]: ...
    def step(self, state: S, seat: int, action: Action) -> S: ...
