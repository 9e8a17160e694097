"""The golden playthroughs (tests/golden/playthroughs): each seeded game, replayed today, gives the
stored text step for step. A change of rules, of a legal list or of the public view shows here as
a diff; when the change is meant, `make playthroughs` writes the files anew for review."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from bot.offline import playthrough

GOLDEN = Path(__file__).parent / "golden" / "playthroughs"


@pytest.mark.parametrize(("game", "seed", "players"), playthrough.GOLDEN)
def test_playthrough_matches_the_golden_file(game: str, seed: int, players: int) -> None:
    path = GOLDEN / playthrough.filename(game, seed, players)
    stored = path.read_text(encoding="utf-8").split("\n")
    now = playthrough.text(game, seed, players).split("\n")
    for i, (a, b) in enumerate(itertools.zip_longest(stored, now)):
        assert a == b, (
            f"{path.name} line {i + 1} differs:\n  stored: {a!r}\n  now:    {b!r}\n"
            "If the change is meant, run `make playthroughs` and review the diff."
        )
    assert any(line.startswith("== end:") for line in now)  # every golden game is played to its end


def test_every_game_has_two_golden_seeds() -> None:
    from engines import base

    games = [g for g, _, _ in playthrough.GOLDEN]
    assert sorted(set(games)) == sorted(e.name for e in base.games())
    assert all(games.count(g) == 2 for g in games)
    assert sorted(p.name for p in GOLDEN.iterdir()) == sorted(
        playthrough.filename(*g) for g in playthrough.GOLDEN
    )
