"""The shared search AI (engines.search) on a small game whose answer is known: Nim.

Nim with 1–3 stones taken a turn, the taker of the last stone wins: a position is lost for the
player to move exactly when the stones left are a multiple of 4, so from 5, 6 or 7 stones the only
winning move leaves 4. The game is of perfect information, so its determinize is the view itself;
the per-game determinize tests live in tests/test_ai_search.py.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from engines import base, search


@dataclass(frozen=True)
class Nim:
    stones: int
    turn: int
    n: int = 2


class NimEngine(base.Engine):
    name = "nim-test"
    title = "Nim"
    max_players = 3
    search_iterations = {"normal": 400, "hard": 1600}

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> Nim:
        return Nim(stones=7 + seed % 5, turn=0, n=n_players)

    def to_move(self, state: Nim) -> tuple[int, ...]:
        return () if state.stones == 0 else (state.turn,)

    def legal_actions(self, state: Nim, seat: int) -> list[str]:
        if seat != state.turn or state.stones == 0:
            return []
        return [f"take {k}" for k in (1, 2, 3) if k <= state.stones]

    def apply(self, state: Nim, seat: int, action: str) -> tuple[Nim, list[base.Event]]:
        if action not in self.legal_actions(state, seat):
            raise base.IllegalAction("no")
        k = int(action.split()[1])
        return Nim(state.stones - k, (state.turn + 1) % state.n, state.n), []

    def view(self, state: Nim, viewer: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "viewer": viewer,
            "n_players": state.n,
            "to_move": list(self.to_move(state)),
            "over": state.stones == 0,
            "headline": "",
            "stones": state.stones,
            "turn": state.turn,
        }

    def outcome(self, state: Nim) -> base.Outcome | None:
        if state.stones:
            return None
        winner = (state.turn - 1) % state.n  # took the last stone
        ranks = tuple(1 if s == winner else 2 for s in range(state.n))
        return base.Outcome(
            ranks,
            tuple(1 if s == winner else 0 for s in range(state.n)),
            ("won",),
            tuple({"won": int(s == winner)} for s in range(state.n)),
            (winner,),
        )

    def parse(self, text: str) -> str:
        return text

    def choose(self, view: base.View, legal: Sequence[str]) -> str:
        return legal[0]

    def determinize(self, view: base.View, rng: random.Random) -> Nim:
        return Nim(view["stones"], view["turn"], view["n_players"])


E = NimEngine()


@pytest.mark.parametrize("stones", [5, 6, 7, 9, 10, 11])
def test_search_finds_the_winning_move(stones: int) -> None:
    state = Nim(stones, 0)
    legal = E.legal_actions(state, 0)
    got = search.choose(E, E.view(state, 0), legal, "normal", seed=3)
    assert got.action == f"take {stones % 4}", got
    assert got.iterations == 400 and not got.capped


def test_search_is_reproducible_and_seeded() -> None:
    state = Nim(8, 0)  # lost: every move loses against best play, so the choice is the seed's
    legal = E.legal_actions(state, 0)
    picks = {search.choose(E, E.view(state, 0), legal, "normal", seed=s).action for s in range(12)}
    again = {search.choose(E, E.view(state, 0), legal, "normal", seed=s).action for s in range(12)}
    assert picks == again and picks <= set(legal)


def test_one_legal_action_is_played_without_searching() -> None:
    state = Nim(1, 0)
    got = search.choose(E, E.view(state, 0), ["take 1"], "hard", seed=1)
    assert got.action == "take 1" and got.iterations == 0


def test_easy_is_the_heuristic_and_unknown_levels_are_refused() -> None:
    state = Nim(6, 0)
    assert search.choose(E, E.view(state, 0), E.legal_actions(state, 0), "easy", 1).action == "take 1"
    with pytest.raises(ValueError, match="unknown AI level"):
        search.choose(E, E.view(state, 0), E.legal_actions(state, 0), "expert", 1)


def test_time_cap_stops_a_search_and_says_so() -> None:
    state = Nim(11, 0)
    got = search.search(E, E.view(state, 0), E.legal_actions(state, 0), 10**9, 0.05, seed=1)
    assert got.capped and 0 < got.iterations < 10**9 and got.action in E.legal_actions(state, 0)


def test_three_players_each_maximise_their_own_reward() -> None:
    # 3 players, 2 stones, seat 0 to move: taking 2 wins at once; taking 1 hands seat 1 the win
    state = Nim(2, 0, 3)
    got = search.choose(E, E.view(state, 0), E.legal_actions(state, 0), "normal", seed=5)
    assert got.action == "take 2"


def test_rewards_share_the_win_and_rank_the_rest() -> None:
    out = base.Outcome((1, 1, 3), (5, 5, 1), ("x",), ({"x": 5}, {"x": 5}, {"x": 1}), (0, 1))
    r = search.rewards(out)
    assert r[0] == r[1] > r[2] == 0.0
    assert abs(r[0] - (search.WIN_WEIGHT * 0.5 + (1 - search.WIN_WEIGHT) * 1.0)) < 1e-9


def test_ai_seed_depends_on_game_version_and_seat() -> None:
    seeds = {search.ai_seed(g, v, s) for g in (1, 2) for v in (0, 1) for s in (0, 1)}
    assert len(seeds) == 8 and search.ai_seed(1, 0, 0) == search.ai_seed(1, 0, 0)


def test_playout_with_depth_uses_the_evaluation() -> None:
    class Cut(NimEngine):
        playout_depth = 0

        def evaluate(self, state: Nim) -> list[float]:
            return [1.0 if s == 1 else 0.0 for s in range(state.n)]  # seat 1 always "wins"

    rng = random.Random(1)
    depth = search.depth_of(Cut(), "normal")
    assert depth == 0
    assert search.playout(Cut(), Nim(1, 0), rng, depth) == [0.0, 1.0]
    assert search.playout(Cut(), Nim(1, 0), random.Random(1), None) == [1.0, 0.0]  # played to the end


def test_playout_depth_per_level() -> None:
    class Cut(NimEngine):
        playout_depth = {"normal": 0}

        def evaluate(self, state: Nim) -> list[float]:
            raise AssertionError("hard plays to the end; evaluate is never needed")

    assert search.depth_of(Cut(), "normal") == 0
    assert search.depth_of(Cut(), "hard") is None
    state = Nim(9, 0)
    legal = Cut().legal_actions(state, 0)
    got = search.search(Cut(), Cut().view(state, 0), legal, 50, 10.0, seed=3, level="hard")
    assert got.action in legal and got.iterations == 50
    with pytest.raises(AssertionError, match="hard plays to the end"):  # normal's depth 0 evaluates
        search.search(Cut(), Cut().view(state, 0), legal, 50, 10.0, seed=3, level="normal")


def test_an_engines_own_rewards_replace_win_and_rank() -> None:
    """``engine.search_rewards`` (when a game defines it) scores finished games, in the tree and in
    playouts; a game without it keeps :func:`engines.search.rewards`."""

    class Misere(NimEngine):
        def search_rewards(self, outcome: base.Outcome) -> list[float]:
            return [1.0 - r for r in search.rewards(outcome)]  # taking the last stone loses

    out = E.outcome(Nim(0, 1))
    assert out is not None
    assert search.outcome_rewards(E, out) == search.rewards(out) == [1.0, 0.0]
    assert search.outcome_rewards(Misere(), out) == [0.0, 1.0]
    assert search.playout(Misere(), Nim(1, 0), random.Random(1)) == [0.0, 1.0]
    state = Nim(6, 0)  # normal play: take 2 (leave 4); misère: take 1 (leave 5, lost for the mover)
    legal = E.legal_actions(state, 0)
    assert search.choose(E, E.view(state, 0), legal, "normal", seed=3).action == "take 2"
    assert search.choose(Misere(), E.view(state, 0), legal, "normal", seed=3).action == "take 1"
