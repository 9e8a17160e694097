"""The Phraya engine: the one object that names, method by method, the module doing each job.

``state`` holds the value, set-up and invariants; ``legal`` whose turn it is and what is legal;
``apply`` what an action does; ``notation`` the action text; ``view`` what each seat sees;
``scoring`` the result; ``prompts`` the host's controls; ``describe`` texts for people; ``ai`` the
easy heuristic and the search's parts.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import TYPE_CHECKING, Any

from engines.base import Action, Event, GameOver, IllegalAction, NotYourTurn, Outcome, View
from engines.engine import GameEngine
from engines.fastcopy import peek
from engines.phraya import apply, describe, icons, legal, notation, prompts, scoring, undo, view
from engines.phraya.ai import determinize, heuristic, playout
from engines.phraya.describe import reasons, textmap
from engines.phraya.state import CARD, LEGAL, OVER, State
from engines.phraya.state.invariants import invariants
from engines.phraya.state.setup import OPTIONS, setup
from engines.phraya.view.types import PhrayaView
from engines.prompt import with_icons

if TYPE_CHECKING:
    from engines.prompt import Prompt


class PhrayaEngine(GameEngine[State, PhrayaView]):
    """Phraya for 2–4 players."""

    name = "phraya"
    title = "Phraya"
    min_players = 2
    max_players = 4
    options = OPTIONS
    hidden_hands = False
    # Random play almost never meets two end conditions, so every random game would run the
    # full 50 rounds; the property suite plays shorter games (the AI tests play full ones).
    property_options = (
        {"round_limit": 8},
        {
            "layout": "random",
            "starting_boats": True,
            "hidden_hands": True,
            "open_baskets": True,
            "blocked_allow_retrieve": True,
            "round_limit": 5,
        },
    )
    demo_options = ({},)
    summary = describe.SUMMARY

    # ------------------------------------------------------------------ rules
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game; raises :class:`BadOption` for a bad count or option."""
        self.check_players(n_players)
        return setup(seed, n_players, self.resolve_options(options))

    def events_on_setup(self, state: State) -> list[Event]:
        return describe.setup_events(state)

    # the hot paths are the modules' functions themselves (no extra call a move)
    to_move = staticmethod(legal.to_move)
    legal_actions = staticmethod(legal.legal_actions)

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply a legal action and what resolves itself after it. Raises :class:`GameOver`,
        :class:`NotYourTurn` or :class:`IllegalAction` (with the reason); changes nothing then."""
        if state.step == OVER:
            raise GameOver()
        if seat != (state.cur if state.step >= CARD else legal.actor(state)):
            raise NotYourTurn("It is not your turn: waiting for {s%d}." % legal.to_move(state)[0])
        got = peek(state, LEGAL, None)  # legal.kept_legal, its kept list read here: one call less
        if action not in (got[1] if got is not None and got[0] == seat else legal.kept_legal(state, seat)):
            raise IllegalAction(reasons.why(state, seat, action))
        return apply.apply(state, seat, action)

    def parse(self, text: str) -> Action:
        return notation.parse(text)

    def view(self, state: State, viewer: int | None) -> PhrayaView:
        return view.view(state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        return scoring.outcome(state) if state.step == OVER else None

    def invariants(self, state: State) -> None:
        invariants(state)
        legal.check_actor(state)

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        return view.secrets(state, viewer)

    # ------------------------------------------------------------------ host
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        return heuristic.choose(view, legal)

    def prompt(self, state: State, seat: int) -> Prompt:
        return with_icons(prompts.prompt(state, seat), partial(icons.icon, state))

    def irreversible(self, state: State, seat: int, action: Action) -> str | None:
        return prompts.irreversible(state, seat, action)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        return prompts.label(state, seat, action)

    def public_actions(self, state: State, seat: int) -> bool:
        return prompts.public_actions(state, seat)

    def reveals(self, state: State, seat: int, action: Action) -> str | None:
        """See ``engines/phraya/undo.py``: what the move showed, judged from its result."""
        after, events = self.apply(state, seat, action)
        return undo.reveals(state, seat, action, after, events)

    def private_action(self, state: State, seat: int, action: Action) -> bool:
        """False: every Phraya event is public (docs/rules/phraya.md#hidden-information) and no
        action names the deck, the bag or a stall's basket. Even with ``hidden_hands``, ``play
        C`` puts C on the public discard pile and ``scribe C …`` buys it from the open display,
        and both events name the card, so the text tells nothing the events do not."""
        return False

    def text_map(self, view: View, names: Sequence[str] | None = None) -> str:
        return textmap.text_map(view, names)

    # ------------------------------------------------------------------ the search AI
    # A Phraya game asks 370 (2 players) to 590 (4) decisions with a choice, ten times a short
    # game's, so budgets are small: each iteration finishes the turn under way with the policy
    # and scores it (playout_depth 0: ``evaluate`` does the finishing), which makes every leaf a
    # one-turn look-ahead. ``normal`` (6) tries at most 6 of the root's moves once each, so on a
    # wide step (a move to one of ~10 sections, an ACT list) it takes the best it happened to
    # try; ``hard`` (400) tries every move many times and grows the tree through its own turn.
    # The measured edges (hard over normal, normal over easy) and milliseconds per move are in
    # docs/ai.md. Tried and undone: hard scoring its leaves after a whole round of greedy replies
    # (normal then beat hard: the search learnt to exploit the greedy replies), and a hard
    # playout_depth of 8 (no better over the games tried).
    search_iterations = {"normal": 6, "hard": 400}
    playout_depth = 0
    # 3: the middle of the box's 2-4 (we hold no figures of real tables; the worked examples
    # of docs/rules/phraya.md#examples seat 4), and the cheaper count besides 2 for ``bazaar arena`` to play.
    common_players = 3
    default_ai_level = "normal"

    def playout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        return playout.policy(state, seat, rng, 0.35)

    def evaluate(self, state: State) -> Sequence[float]:
        return heuristic.evaluate(state)

    def step(self, state: State, seat: int, action: Action) -> State:
        """``apply`` without its checks and events, for an ``action`` from the legal list."""
        return apply.apply(state, seat, action)[0]

    def determinize(self, view: View, rng: random.Random) -> State:
        return determinize.determinize(view, rng)

    def action_bound(self, n_players: int) -> int:
        return notation.action_bound(n_players)

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        return notation.sample(rng, k)
