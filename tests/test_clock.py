"""bot.clock: durations, what is due when, and the scheduler driven by an injected clock."""

from __future__ import annotations

import asyncio

import pytest

from bot.host import clock as clk
from bot.host.clock import BadDuration, Entry, TurnClock, due, format_duration, next_wake, parse_duration


@pytest.mark.parametrize(
    "text,seconds",
    [
        ("24h", 86400),
        ("90m", 5400),
        ("1h30m", 5400),
        ("2d", 172800),
        ("1m", 60),
        ("15", 900),
        (" 1h 5m ", 3900),
        ("", 86400),
        (None, 86400),
        ("120s", 120),
    ],
)
def test_parse_duration(text: str, seconds: int) -> None:
    assert parse_duration(text) == seconds


@pytest.mark.parametrize(
    "text,needle",
    [
        ("30s", "at least 1 minute"),
        ("0", "at least"),
        ("soon", "not a duration"),
        ("5x", "not a duration"),
        ("31d", "at most"),
        ("h", "not a duration"),
    ],
)
def test_parse_duration_refuses(text: str, needle: str) -> None:
    with pytest.raises(BadDuration, match=needle):
        parse_duration(text)


def test_format_duration() -> None:
    assert [format_duration(s) for s in (30, 60, 3900, 90000, 86400)] == ["30s", "1m", "1h 5m", "1d 1h", "1d"]


def test_due_and_next_wake() -> None:
    a = Entry.of(1, deadline=1000.0, clock_seconds=600, reminded=False)  # reminder at 700
    b = Entry.of(2, deadline=900.0, clock_seconds=600, reminded=True)
    assert a.remind_at == 700.0 and b.remind_at is None
    assert due([a, b], 600) == [] and next_wake([a, b]) == 700.0
    assert due([a, b], 700) == [(1, "remind")]
    assert due([a, b], 950) == [(1, "remind"), (2, "expire")]
    assert due([a, b], 1000) == [(2, "expire"), (1, "expire")]
    assert next_wake([]) is None


class FakeTime:
    def __init__(self, t: float = 1_000_000.0) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


async def test_tick_handles_due_items_with_injected_time() -> None:
    now = FakeTime()
    entries = [Entry.of(7, now.t + 100, 100, False)]
    seen: list[tuple[int, str]] = []

    async def handler(gid: int, kind: str) -> None:
        seen.append((gid, kind))
        if kind == "remind":
            entries[0] = Entry.of(7, entries[0].deadline, 100, True)
        else:
            entries.clear()

    tc = TurnClock(lambda: entries, handler, now=now)
    assert await tc.tick() == [] and seen == []
    assert tc.seconds_to_next() == 50
    now.t += 50
    assert await tc.tick() == [(7, "remind")]
    now.t += 50
    assert await tc.tick() == [(7, "expire")]
    assert seen == [(7, "remind"), (7, "expire")]
    assert tc.seconds_to_next() == tc.max_sleep


async def test_a_failing_handler_does_not_stop_the_others(caplog: pytest.LogCaptureFixture) -> None:
    now = FakeTime()
    entries = [Entry.of(1, now.t, 60, True), Entry.of(2, now.t, 60, True)]
    seen: list[int] = []

    async def handler(gid: int, kind: str) -> None:
        if gid == 1:
            raise RuntimeError("boom")
        seen.append(gid)

    await TurnClock(lambda: entries, handler, now=now).tick()
    assert seen == [2]
    assert "game 1" in caplog.text


async def test_running_loop_wakes_on_poke_not_by_sleeping() -> None:
    now = FakeTime()
    entries = [Entry.of(3, now.t + 86400, 86400, True)]  # a day away: the loop would sleep max_sleep
    fired = asyncio.Event()

    async def handler(gid: int, kind: str) -> None:
        entries.clear()
        fired.set()

    tc = TurnClock(lambda: entries, handler, now=now, max_sleep=3600)
    tc.start()
    await asyncio.sleep(0.01)
    assert not fired.is_set()
    now.t += 86400  # time jumps; nothing real has elapsed
    tc.poke()
    await asyncio.wait_for(fired.wait(), timeout=2)
    await tc.stop()


def test_constants() -> None:
    assert clk.MIN_CLOCK == 60 and clk.DEFAULT_CLOCK == 86400 and clk.EXPIRIES_BEFORE_TAKEOVER == 3


async def test_a_slow_game_does_not_hold_up_another_games_expiry() -> None:
    """Issue 23: the tick handles due games side by side. Game 1's handler cannot finish before
    game 2's has run (it waits for it): a tick that awaits each game in turn never gets there."""
    t = FakeTime()
    entries = [Entry.of(1, t() - 20, 3600, True), Entry.of(2, t() - 10, 3600, True)]
    order: list[str] = []
    game2_done = asyncio.Event()

    async def handler(gid: int, kind: str) -> None:
        order.append(f"{gid} {kind} begins")
        if gid == 1:
            await game2_done.wait()  # a long AI stretch, say
        else:
            game2_done.set()
        order.append(f"{gid} {kind} ends")

    clock = TurnClock(lambda: entries, handler, now=t)
    handled = await asyncio.wait_for(clock.tick(), 10)
    assert handled == [(1, "expire"), (2, "expire")]
    assert order == ["1 expire begins", "2 expire begins", "2 expire ends", "1 expire ends"]


async def test_the_ticks_concurrency_is_bounded_and_one_games_items_stay_in_order() -> None:
    t = FakeTime()
    entries = [Entry.of(g, t() + 100, 3600, False, ai_at=t() - 5) for g in range(1, 6)]  # remind, then ai
    running, most, seen = 0, 0, []

    async def handler(gid: int, kind: str) -> None:
        nonlocal running, most
        running += 1
        most = max(most, running)
        seen.append((gid, kind))
        await asyncio.sleep(0)
        running -= 1

    clock = TurnClock(lambda: entries, handler, now=t)
    clock.concurrency = 2
    await clock.tick()
    assert most == 2 and len(seen) == 10
    for g in range(1, 6):
        assert [k for gid, k in seen if gid == g] == ["remind", "ai"]
