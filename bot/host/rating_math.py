"""The rating arithmetic, pure: openskill's Plackett–Luce model (its defaults: mu 25, sigma 25/3,
beta 25/6, tau 25/300) applied to one game's final ranks, and the number people are shown.

The shown number is conservative: openskill's ordinal ``mu - 3·sigma`` (a rating the player is
about 99.9% sure to be above), scaled as ``1000 + 40 · ordinal`` and rounded, never below 0. A
newcomer (mu 25, sigma 25/3: ordinal 0) shows 1000; a player the model is sure of at mu 50
(sigma about 1) shows about 2900; so the familiar range is 0–3000.

Everything here is a function of its arguments (no clock, no randomness): the same games in the
same order give the same ratings, on any machine and backend (floats stored as doubles).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

from openskill.models import PlackettLuce
from openskill.models.weng_lin.plackett_luce import PlackettLuceRating

MODEL = PlackettLuce()
START_MU = MODEL.mu
START_SIGMA = MODEL.sigma
BASE = 1000
SCALE = 40


def shown(mu: float, sigma: float) -> int:
    """The number people see: ``max(0, round(1000 + 40 · (mu - 3·sigma)))``."""
    return max(0, round(BASE + SCALE * (mu - 3 * sigma)))


class Skill(NamedTuple):
    """One player's rating on one table: openskill's ``mu`` and ``sigma``."""

    mu: float = START_MU
    sigma: float = START_SIGMA

    @property
    def shown(self) -> int:
        return shown(self.mu, self.sigma)


def rate(before: Mapping[str, Skill], places: Mapping[str, int]) -> dict[str, Skill]:
    """The players' ratings after one game: ``places`` maps each player to their final rank (1 is
    best, tied players share a rank), ``before`` their ratings so far (a player missing starts
    at the model's default). Players are taken in sorted order so the result does not depend on
    the mapping's order. Fewer than two players change nothing."""
    names = sorted(places)
    if len(names) < 2:
        return {p: before.get(p, Skill()) for p in names}
    start = Skill()
    teams = _Teams([PlackettLuceRating(*before.get(p, start))] for p in names)
    ranks: list[float] = [float(places[p]) for p in names]
    after = MODEL.rate(teams, ranks=ranks)
    return {p: Skill(team[0].mu, team[0].sigma) for p, team in zip(names, after, strict=True)}


class _Teams(list[list[PlackettLuceRating]]):
    """The teams handed to openskill's ``rate``, which deep-copies them before it changes them
    (one uuid per copied rating: a third of its time). These ratings are made for one call and
    never read again, so the copy is of the lists alone; the ratings openskill computes are
    the same (``tests/test_ratings.py`` compares them with plain lists')."""

    def __deepcopy__(self, memo: dict[int, Any]) -> list[list[PlackettLuceRating]]:
        return [list(team) for team in self]


def places_of(players: Sequence[str | None], ranks: Sequence[int]) -> dict[str, int]:
    """Each rated player's rank from the seats' ``players`` (None: a seat not rated) and the
    engine's ``ranks``; a player on several seats (two AI seats of one level) counts once, at
    its best rank."""
    out: dict[str, int] = {}
    for player, rank in zip(players, ranks, strict=True):
        if player is not None:
            out[player] = min(rank, out.get(player, rank))
    return out
