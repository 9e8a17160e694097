"""``make profile GAME=…`` (benchmarks/profile.py): it profiles the named engine's playouts and
refuses an unknown game or player count with a one-line reason."""

import pytest

from benchmarks import profile


def test_profile_prints_the_engines_hot_spots(capsys: pytest.CaptureFixture[str]) -> None:
    assert profile.main(["pralaya", "--players", "2", "--seconds", "0.2", "--top", "5"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("pralaya 2p: ")
    assert "by own time (tottime):" in out and "by cumulative time:" in out
    # the engine's own functions are among the listed calls (its moves are applied in apply.py)
    assert "apply.py:" in out


def test_profile_refuses_an_unknown_game_and_a_wrong_count(capsys: pytest.CaptureFixture[str]) -> None:
    assert profile.main(["chess"]) == 2
    assert "unknown game 'chess'" in capsys.readouterr().out
    assert profile.main(["phraya", "--players", "9"]) == 2
    assert "takes 2-4 players, not 9" in capsys.readouterr().out


def test_profile_calls_times_each_call_of_the_loop_apart(capsys: pytest.CaptureFixture[str]) -> None:
    assert profile.main(["ra", "--players", "2", "--calls"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("ra 2p: each call timed apart over ")
    for name in ("outcome", "first_awaited", "legal_actions", "random choice", "apply", "step"):
        assert f"  {name}" in out
    assert "actions/s if nothing else cost a thing" in out
