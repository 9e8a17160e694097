"""The host's part of ``/learn`` (bot/host/learning.py): two asks at once open one guided game,
and an ask while it runs finds it without opening another place."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.host import guides
from bot.host.service import GameService
from bot.host.store import Store
from engines import prompt as pr
from engines.guide import Advice


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    yield GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    await store.close()


async def test_two_asks_at_once_open_one_guided_game(host: GameService) -> None:
    opened: list[int] = []

    async def open_place() -> tuple[int | None, int, int | None]:
        opened.append(len(opened))
        await asyncio.sleep(0.01)  # the thread is being made while the second ask arrives
        return 1, 100, 500 + len(opened)

    (first, new1), (second, new2) = await asyncio.gather(
        host.learning.learn_in("pralaya", 10, "Ann", open_place),
        host.learning.learn_in("pralaya", 10, "Ann", open_place),
    )
    assert opened == [0] and first.id == second.id and [new1 is None, new2 is None].count(True) == 1
    started = new1 or new2  # the one that opened it has the start's outbox
    assert started is not None and started.game_id == first.id and started.batch.started
    again, new = await host.learning.learn_in("pralaya", 10, "Ann", open_place)
    assert again.id == first.id and new is None and opened == [0]
    other, new = await host.learning.learn_in("ra", 10, "Ann", open_place)  # another game: its own
    assert new is not None and other.id != first.id and opened == [0, 1]


def test_the_guide_names_the_control_that_plays_its_suggestion() -> None:
    """The guide's note says which button or menu choice plays the move it suggests, as the
    player reads it (under My hand when only that answer offers it); a move no single control
    plays is named by its text alone."""
    suns = (pr.Choice("Sun 5", "5"), pr.Choice("Sun 9", "9"))
    board = pr.Prompt(
        0,
        "Draw or bid",
        (
            pr.Button("Draw a tile", "draw"),
            pr.Group("Bid", (pr.Pick("bid", "Bid a sun…", suns, template="bid {}"),)),
        ),
    )
    assert guides.control_for(board, "draw") == "the **Draw a tile** button"
    assert guides.control_for(board, "bid 9") == "**Sun 9** in the **Bid a sun…** menu"
    assert guides.control_for(board, "invoke") is None and guides.control_for(None, "draw") is None
    private = dataclasses.replace(board, public=False)
    assert guides.control_for(private, "draw") == "the **Draw a tile** button under **My hand**"
    advice = Advice("draw", "Draw while the track is small.", True)
    assert guides.step_note(3, advice, board).endswith("Suggested: `draw` (the **Draw a tile** button).")
    assert guides.step_note(3, Advice("invoke", "Call Ra.", True), board).endswith("Suggested: `invoke`.")


async def test_a_guided_games_first_note_names_its_button(host: GameService) -> None:
    box = await host.learning.learn("ra", guild_id=1, channel_id=100, thread_id=None, user_id=10, name="Ann")
    note = next(n for n in reversed(box.batch.notes) if "Suggested: `" in n)
    action = note.rsplit("Suggested: `", 1)[1].split("`", 1)[0]
    g = await host.get(box.game_id)
    label = next(b.label for b in pr.buttons(g.engine.prompt(g.state, 0).controls) if b.action == action)
    assert note.endswith(f"Suggested: `{action}` (the **{label}** button).")
