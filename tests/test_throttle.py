"""The per-user flood guard's token bucket (``bot.host.throttle``), on an injected clock."""

from __future__ import annotations

import pytest

from bot.host.throttle import Throttle, parse_rate_limit


class Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def test_a_burst_then_the_refill_rate() -> None:
    clock = Clock()
    t = Throttle(3, 2.0, clock=clock)
    assert [t.allow(1) for _ in range(4)] == [True, True, True, False]
    assert t.wait(1) == pytest.approx(0.5)
    clock.t = 0.25
    assert not t.allow(1)  # half a token is not a token
    clock.t = 0.5
    assert t.allow(1) and not t.allow(1)
    clock.t = 100.0  # a long pause refills to the burst, never beyond
    assert [t.allow(1) for _ in range(4)] == [True, True, True, False]
    assert t.refused == 4


def test_users_have_their_own_buckets_and_the_table_is_bounded() -> None:
    clock = Clock()
    t = Throttle(1, 1.0, clock=clock, max_users=3)
    assert t.allow(1) and not t.allow(1)
    assert all(t.allow(u) for u in (2, 3, 4))  # others are untouched
    assert len(t._buckets) == 3 and 1 not in t._buckets  # the least recently seen went first
    assert t.allow(1)  # ...and starts again with a full bucket


def test_off_allows_everything() -> None:
    t = Throttle(0, 0.0)
    assert not t.enabled and all(t.allow(1) for _ in range(1000)) and t.wait(1) == 0


@pytest.mark.parametrize(
    "text, expected",
    [
        ("8/2", (8, 2.0)),
        ("20/0.5", (20, 0.5)),
        ("5", (5, 2.0)),
        ("off", (0, 0.0)),
        (" OFF ", (0, 0.0)),
        ("0", (0, 0.0)),
    ],
)
def test_parse(text: str, expected: tuple[int, float]) -> None:
    assert parse_rate_limit(text) == expected


@pytest.mark.parametrize("text", ["fast", "8/", "8/x", "0/2", "8/0", "-1/2", "2000/1", "8/2/1"])
def test_parse_refuses_nonsense(text: str) -> None:
    with pytest.raises(ValueError):
        parse_rate_limit(text)
