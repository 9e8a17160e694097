"""The Pralaya engine: one object naming the module that does each job.

:mod:`.state` (the value, the deal, the invariants), :mod:`.legal` (whose turn, what is legal),
:mod:`.apply` (what an action does), :mod:`.notation` (action text), :mod:`.view`,
:mod:`.scoring`, :mod:`.prompts` (what the host asks), :mod:`.describe` (texts for people) and
:mod:`.ai` (the easy level, determinize and the search's playouts).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from functools import partial
from typing import Any, ClassVar

from engines.engine import GameEngine
from engines.errors import BadOption
from engines.events import Event
from engines.outcome import Outcome
from engines.pralaya import apply, describe, icons, legal, notation, prompts, scoring, undo
from engines.pralaya.ai import determinize, heuristic, playout
from engines.pralaya.state import OPTIONS, State, check_invariants, deal
from engines.pralaya.view import PralayaView, make_view, secrets
from engines.prompt import Prompt, with_icons


class PralayaEngine(GameEngine[State, PralayaView]):
    """Pralaya (Yukinori Ohashi, revised edition 2018) for 2–5 players."""

    name = "pralaya"
    title = "Pralaya"
    min_players = 2
    max_players = 5
    has_escapes = True
    hidden_hands = True
    options = OPTIONS
    summary = describe.SUMMARY
    search_iterations: ClassVar[Mapping[str, int]] = {"normal": 50, "hard": 300}
    """Full playouts of about 45 actions, about 1 ms of CPU each early in a 3-player game. The
    decisions that matter (escape or wait, Veda, ``done``, discards) have two to four options, so
    50 iterations already tell a big difference (passing on Dhoni X in round 1) and normal is kept
    cheap; hard has six times as many to tell the smaller ones. Measured on a machine loaded 8-10
    on 2 cores (40-game arenas, wall time): normal p99 310 ms a move at 2 players; hard p99 1431 ms
    at 2 players; at 500 iterations hard's p99 was 3771 ms at 3 players, over its 3 s cap."""
    common_players = 3
    """Pralaya plays 2–5; 3 is taken as the usual table (no play statistics to go by): the first
    count whose Dhoni pile (X, 4, 7) has the contested middle price, and a light filler's typical
    group. The arena also plays 2."""
    property_options: ClassVar[tuple[Mapping[str, Any], ...]] = (
        {},
        {"open_hands": True, "veda_price": 9, "first_seat": 1, "fossil_all_players": True},
    )

    # ---------------------------------------------------------------- rules

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game: seeded shuffle and island, first START run. Raises :class:`BadOption`."""
        self.check_players(n_players)
        opts = self.resolve_options(options)
        if opts["first_seat"] >= n_players:
            raise BadOption(
                f"Option `first_seat` must be between -1 and {n_players - 1} with {n_players} players."
            )
        return apply.begin(deal(seed, n_players, opts))[0]

    # the hot paths are the modules' functions themselves (no extra call a move)
    to_move = staticmethod(legal.to_move)
    legal_actions = staticmethod(legal.legal_actions)
    apply = staticmethod(apply.apply)

    def view(self, state: State, viewer: int | None) -> PralayaView:
        """What ``viewer`` (a seat, or None for spectators) may see (see :class:`PralayaView`)."""
        return make_view(state, viewer, scoring.outcome(state))

    outcome = staticmethod(scoring.outcome)

    def parse(self, text: str) -> str:
        return notation.parse(text)

    def invariants(self, state: State) -> None:
        """The invariants (docs/rules/pralaya.md#invariants) on one state; raises AssertionError."""
        check_invariants(state, legal.legal(state), scoring.outcome(state))

    # ---------------------------------------------------------------- host

    def prompt(self, state: State, seat: int) -> Prompt:
        return with_icons(prompts.prompt(self, state, seat), partial(icons.icon, state))

    def public_actions(self, state: State, seat: int) -> bool:
        return prompts.public_list(state) or super().public_actions(state, seat)

    def events_on_setup(self, state: State) -> list[Event]:
        return [apply.setup_event(state)]

    def is_legal(self, state: State, seat: int, text: str) -> str | None:
        return describe.reason_for_text(state, text, super().is_legal(state, seat, text))

    def action_label(self, state: State, seat: int, action: str) -> str:
        return prompts.label(state, action)

    def irreversible(self, state: State, seat: int, action: str) -> str | None:
        return prompts.irreversible(action)

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        return secrets(state, viewer)

    def reveals(self, state: State, seat: int, action: str) -> str | None:
        """See ``engines/pralaya/undo.py``: what the move showed, judged from its result."""
        after, events = self.apply(state, seat, action)
        return undo.reveals(state, seat, action, after, events)

    def private_action(self, state: State, seat: int, action: str) -> bool:
        """False: an action names a cell of the face-up island or the coins of a payment, and
        payments go face up to the discard with a public event (docs/rules/pralaya.md#hidden-hands);
        the hidden hands and the deck order are never named by an action's text."""
        return False

    # ---------------------------------------------------------------- search

    def choose(self, view: PralayaView, legal_list: Sequence[str]) -> str:
        return heuristic.choose(view, legal_list)

    def determinize(self, view: PralayaView, rng: random.Random) -> State:
        return determinize.determinize(view, rng)

    def search_actions(self, state: State, seat: int) -> Sequence[str]:
        return playout.search_actions(state, seat)

    def search_rewards(self, outcome: Outcome) -> list[float]:
        return playout.search_rewards(outcome)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> str:
        return playout.playout_action(state, seat, rng)

    def action_bound(self, n_players: int) -> int:
        return notation.ACTION_BOUND

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[str]:
        return notation.sample_actions(n_players, rng, k)

    def action_space(self, n_players: int) -> Iterable[str]:
        """Every well-formed action for ``n_players`` (takes/discards of its cells, all payments)."""
        return notation.action_space(n_players)
