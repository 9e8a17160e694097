"""``python -m benchmarks.spread`` (the calibration of Phraya's win chances): its samples say who
finished ahead, its log loss scores predictions, and it prints the fit per stretch of the game."""

import math

import pytest

from benchmarks import spread


def test_log_loss_rewards_confident_right_calls_and_punishes_wrong_ones() -> None:
    right = [(0.5, 30.0, 1), (0.5, -30.0, 0)]
    wrong = [(0.5, 30.0, 0), (0.5, -30.0, 1)]
    assert spread.log_loss(right, lambda t: 5.0) < 0.01
    assert spread.log_loss(wrong, lambda t: 5.0) > 5.0
    assert abs(spread.log_loss(wrong, lambda t: 1e9) - math.log(2)) < 1e-6  # no call: a coin flip
    a, b, loss = spread.best_fit(right + wrong[:1])  # one upset in three: a wide spread fits best
    assert loss < spread.log_loss(right + wrong[:1], lambda t: 1.5) and a + b * 0.5 > 10


def test_samples_compare_every_pair_with_the_final_order(capsys: pytest.CaptureFixture[str]) -> None:
    got = spread.samples(3, 1)
    assert got and all(0.0 <= left <= 1.0 and ahead in (0, 1) for left, _, ahead in got)
    assert spread.main(["--games", "1"]) == 0
    out = capsys.readouterr().out
    assert "log loss at SPREAD" in out and "best on the grid" in out and "0.0-0.1" in out
