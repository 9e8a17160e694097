"""The Ra engine (Reiner Knizia's Ra with the Ra: Traders module): one class whose methods name
the module that does each job (docs/rules/ra.md).

``state`` (the value, set-up, invariants), ``legal`` (whose turn, what is legal), ``apply`` (what
an action does), ``notation`` (the action grammar), ``view`` (what a viewer sees), ``scoring``,
``prompts`` (what the host asks), ``describe`` (texts for people), ``ai`` (the easy AI, the
search's determinize, playout and evaluation).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engines.contract import Action
from engines.engine import GameEngine
from engines.events import Event
from engines.options import Option
from engines.prompt import Prompt, with_icons
from engines.ra import apply as ra_apply
from engines.ra import describe, icons, legal, notation, prompts, scoring, undo
from engines.ra import state as ra_state
from engines.ra import view as ra_view
from engines.ra.ai import determinize, heuristic, playout
from engines.ra.state import OPTION_NAMES, State
from engines.ra.view import RaView

OPTIONS = (
    Option("traders", bool, True, "Ra: Traders module: 20 trader tiles and cargo crates."),
    Option("god_takes_disaster", bool, False, "A god may take a disaster tile (resolved at once)."),
    Option("score_floor_zero", bool, True, "Scores never fall below 0."),
    Option("tiebreak_highest_sun", bool, True, "The highest single sun breaks ties for a place."),
    Option("invoke_on_empty_track", bool, True, "Ra may be invoked on an empty auction track."),
    Option(
        "drought_floods_first",
        bool,
        True,
        "A drought takes floods first, then niles (off: the winner chooses).",
    ),
    Option("hidden_scores", bool, False, "Other players' totals stay hidden until the end."),
    Option("auto_pass", bool, True, "Bidders who can only pass are passed automatically."),
)


class RaEngine(GameEngine[State, RaView]):
    """Ra and Ra: Traders for 2–5 players (docs/rules/ra.md)."""

    name = "ra"
    title = "Ra"
    min_players = 2
    max_players = 5
    options = OPTIONS
    property_options = ({}, {"traders": False})
    search_iterations = {"normal": 100, "hard": 800}
    """Hard searches 8 times normal's iterations (a wide gap: hard must beat normal clearly); the
    measured edges and milliseconds per move are in docs/ai.md (``bazaar arena``)."""
    playout_depth = 12
    """A playout runs through the current auction and a few draws, then ``evaluate`` scores it:
    full playouts (hundreds of actions) were too noisy for a budget of 100 iterations."""
    common_players = 3
    """Ra is a 3-5 player game played most at 3 and 4 (its 2-player sun sets are a variant);
    3 is the cheaper of the two for the arena."""
    demo_options = property_options
    minor_events: ClassVar[dict[str, str]] = {
        "draw": "tiles drawn",
        "bid": "bids",
        "pass": "passes",
        "auction": "invocations of Ra",
        "unsold": "auctions nobody bid in",
        "done": "turns ended after a god",
    }
    """Event kinds a long stretch of others' play (a player out of suns) counts instead of
    listing (``bazaar play``): the wins, disasters, gods, crates and epoch ends are listed."""
    summary = describe.SUMMARY

    # The hot methods are the modules' functions themselves (no wrapper call in a playout).
    to_move = staticmethod(legal.to_move)
    legal_actions = staticmethod(legal.legal_actions)
    apply = staticmethod(ra_apply.apply)
    outcome = staticmethod(scoring.result)

    # ------------------------------------------------------------------ set-up
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game (``state.first_state``). Raises :class:`BadOption` for a bad player count
        or option."""
        self.check_players(n_players)
        return ra_state.first_state(seed, n_players, self.resolve_options(options))

    def events_on_setup(self, state: State) -> list[Event]:
        return describe.setup_events(state)

    def invariants(self, state: State) -> None:
        ra_state.invariants(state)
        legal.invariants(state)

    # ------------------------------------------------------------------ texts
    def parse(self, text: str) -> Action:
        return notation.parse(text)

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        return notation.sample_actions(n_players, rng, k)

    def action_space(self, n_players: int) -> Iterable[Action]:
        return notation.action_space(n_players)

    def action_bound(self, n_players: int) -> int:
        return notation.action_bound(n_players)

    # ------------------------------------------------------------------ the host
    def prompt(self, state: State, seat: int) -> Prompt:
        return with_icons(prompts.prompt(self, state, seat), icons.icon)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        return prompts.label(action)

    def irreversible(self, state: State, seat: int, action: Action) -> str | None:
        return prompts.irreversible(state, seat, action)

    # ------------------------------------------------------------------ view, outcome
    def view(self, state: State, viewer: int | None) -> RaView:
        return ra_view.view(state, viewer)

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        return ra_view.secrets(state, viewer)

    def reveals(self, state: State, seat: int, action: Action) -> str | None:
        """See ``engines/ra/undo.py``: what the move showed, judged from its result."""
        after, events = self.apply(state, seat, action)
        return undo.reveals(state, seat, action, after, events)

    def private_action(self, state: State, seat: int, action: Action) -> bool:
        """False: everything in Ra is public but the order of the bag (docs/rules/ra.md#view),
        which no action names (a draw's tile is told by a public event); hidden totals
        (docs/rules/ra.md#hidden-scores) never appear in an action's text."""
        return False

    # ------------------------------------------------------------------ AI
    def choose(self, view: RaView, legal: Sequence[Action]) -> Action:
        return heuristic.choose(view, legal)

    def determinize(self, view: RaView, rng: random.Random) -> State:
        return determinize.determinize(view, rng)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return playout.playout_action(state, seat, rng)

    def search_actions(self, state: State, seat: int) -> list[Action]:
        return playout.search_actions(state, seat, legal.legal_actions(state, seat))

    def evaluate(self, state: State) -> list[float]:
        return heuristic.evaluate(state)


assert tuple(o.name for o in OPTIONS) == OPTION_NAMES
