"""How a turn message offers the legal actions, whatever the game (the default prompt built from
the legal list): buttons for up to 10 actions (5 to a row, runs of one verb kept apart, "My hand"
on the last row, at most 4 rows), one select menu for 11–25, and beyond that labelled menus of at
most 25 (one per verb, or per run of 25). Played through a toy game whose steps have exactly
the list sizes at the edges, with clicks on every kind of control."""

from __future__ import annotations

import sys
import types
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from bot.surface import components
from engines import base
from tests.e2e.bazaar_harness import action_rows, make_table
from tests.fakediscord import FakeDiscord, Message, RunBot

TAKES = [f"take {i}" for i in range(1, 27)]
STEPS: tuple[tuple[str, ...], ...] = (
    ("done", *TAKES[:9]),  # 10: buttons on three rows
    tuple(TAKES[:11]),  # 11: a select menu
    tuple(TAKES[:25]),  # 25: still a select menu
    tuple(TAKES),  # 26: two menus, "take … (1/2)" and "(2/2)"
    ("bid 4", "bid 7", "bid 10", "bid 11", "pass"),  # an auction: bids, then Pass by itself
    ("draw", "invoke", *(f"god {g}" for g in "abcdefg")),  # 9: two single verbs share a row
)


@dataclass(frozen=True)
class WideState:
    step: int


class WideLists(base.Engine):
    """Two seats take turns through :data:`STEPS`, choosing any action of the step's list."""

    name = "toywide"
    title = "Toy Lists"
    min_players = 2
    max_players = 2
    summary = "Pick one action per step."

    def setup(self, seed: int, n_players: int, options: Any = None) -> WideState:
        return WideState(0)

    def to_move(self, state: WideState) -> tuple[int, ...]:
        return (state.step % 2,) if state.step < len(STEPS) else ()

    def legal_actions(self, state: WideState, seat: int) -> list[str]:
        return list(STEPS[state.step]) if seat in self.to_move(state) else []

    def apply(self, state: WideState, seat: int, action: str) -> tuple[WideState, list[base.Event]]:
        if action not in self.legal_actions(state, seat):
            raise base.IllegalAction(f"You cannot {action} now.")
        return WideState(state.step + 1), [base.Event("pick", "{s%d} picks %s" % (seat, action))]

    def view(self, state: WideState, viewer: int | None) -> dict[str, Any]:
        return {
            "game": self.name,
            "viewer": viewer,
            "n_players": 2,
            "to_move": list(self.to_move(state)),
            "over": state.step >= len(STEPS),
            "headline": f"step {state.step + 1}",
        }

    def outcome(self, state: WideState) -> base.Outcome | None:
        if state.step < len(STEPS):
            return None
        return base.Outcome((1, 1), (0, 0), ("picks",), ({"picks": 0}, {"picks": 0}), (0, 1))

    def parse(self, text: str) -> str:
        t = " ".join(str(text).lower().split())
        if not any(t in step for step in STEPS):
            raise base.BadNotation(f"`{text}` is not a move.")
        return t

    def action_label(self, state: WideState, seat: int, action: str) -> str:
        return action.capitalize()


def _picture(view: base.View, names: list[str] | None = None) -> Image.Image:
    return Image.new("RGB", (4, 4))


@pytest.fixture
def toy_lists() -> Iterator[WideLists]:
    engine = WideLists()
    base.register(engine)
    mod = types.ModuleType("render.toywide")
    mod.__dict__.update(
        board=_picture,
        hand=_picture,
        score_sheet=_picture,
        text=lambda view, names=None: f"step {view['headline']}",
    )
    sys.modules["render.toywide"] = mod
    yield engine
    base.unregister(engine.name)
    sys.modules.pop("render.toywide", None)


def _rows(msg: Message) -> list[list[str]]:
    """Each action row as the labels of its buttons ("<menu>" for a select menu)."""
    return [
        [c.get("label", "<menu>") if c["type"] == 2 else "<menu>" for c in row["components"]]
        for row in action_rows(msg)
    ]


def test_button_rows_keep_the_order_and_fit_four_rows() -> None:
    rows = components.button_rows(STEPS[0])
    assert rows == [[0], [1, 2, 3, 4, 5], [6, 7, 8, 9]] and components.hand_row(rows) == 2
    assert components.button_rows(["bid 13", "pass"]) == [[0, 1]]
    assert components.button_rows(["discard x"] * 5) == [[0, 1, 2, 3, 4]]
    assert components.hand_row([[0, 1, 2, 3, 4]]) == 1
    # two verbs with two actions each, five times: grouping would take five rows, so packed
    mixed = [f"{v} {i}" for v in "abcde" for i in (1, 2)]
    assert components.button_rows(mixed) == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    for n in range(1, components.MAX_BUTTONS + 1):
        for actions in (TAKES[:n], [f"v{i} x" for i in range(n)], ["done", *TAKES[: n - 1]]):
            rows = components.button_rows(actions)
            assert [i for r in rows for i in r] == list(range(n))
            assert all(1 <= len(r) <= components.PER_ROW for r in rows)
            assert components.hand_row(rows) < components.MAX_ROWS


async def test_turn_messages_offer_buttons_a_menu_or_move(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path, toy_lists: WideLists
) -> None:
    fake = fake_discord
    table = make_table(fake, run_bot, tmp_path)
    await table.boot()
    gid, place = await table.start_game(
        "ann", ("bob",), 0, game="toywide", rated=False
    )  # casual: Hint buttons
    users = [table.players["ann"], table.players["bob"]]
    hand = ["My hand", "Hint"]  # Hint beside My hand, or on the row below when that one is full
    expected = [
        [
            ["Done"],
            [f"Take {i}" for i in range(1, 6)],
            [f"Take {i}" for i in range(6, 10)] + hand[:1],
            hand[1:],
        ],
        [["<menu>"], hand],
        [["<menu>"], hand],
        [["<menu>"], ["<menu>"], hand],
        [["Bid 4", "Bid 7", "Bid 10", "Bid 11"], ["Pass"] + hand],
        [["Draw", "Invoke"], [f"God {g}" for g in "abcde"], ["God f", "God g"] + hand],
    ]
    how = [
        "the buttons below",
        "the menu below",
        "the menu below",
        "the menu below",
        "the buttons below",
        "the buttons below",
    ]
    for step, legal in enumerate(STEPS):
        msg = table.last_turn(place)
        version = (await table.stored(gid)).version
        user = users[step % 2]
        assert _rows(msg) == expected[step], (step, _rows(msg))
        assert how[step] in msg.text and msg.mention_ids == [user.id]
        choice = legal[-1]
        if len(msg.selects) == 2:  # a long list in groups: each menu builds its own pick
            assert "Choices: take … (1/2) · take … (2/2)" in msg.text
            values = [[o["value"] for o in m["options"]] for m in msg.selects]
            assert values == [list(legal[:25]), list(legal[25:])]
            assert [m["custom_id"] for m in msg.selects] == [
                f"bzs:{gid}:{version}:move0",
                f"bzs:{gid}:{version}:move1",
            ]
            offered = await fake.autocomplete(user, place, "move", focused="action", action="")
            assert [c.value for c in offered] == list(legal[:25])
            await fake.select(user, msg, f"bzs:{gid}:{version}:move1", [choice])
        elif msg.selects:
            menu = msg.selects[0]
            assert [o["value"] for o in menu["options"]] == list(legal)
            assert [o["label"] for o in menu["options"]] == [a.capitalize() for a in legal]
            await fake.select(user, msg, f"bzs:{gid}:{version}", [choice])
        elif len(msg.buttons) > 1:
            ids = [f"bz:{gid}:{version}:{a}" for a in legal] + [
                f"bz:{gid}:0:!hand",
                f"bzhint:{gid}:{version}",
            ]
            assert msg.custom_ids == ids
            await fake.click(user, msg, f"bz:{gid}:{version}:{choice}")  # on the last row
        else:
            offered = await fake.autocomplete(user, place, "move", focused="action", action="")
            assert [c.value for c in offered] == list(legal[:25])
            h = await fake.slash(user, place, "move", action=choice)
            assert h.text.startswith("✅ Played"), h.text
        await table.settle()
        assert (await table.db_moves(gid))[-1] == (step % 2, choice, "player")
    assert (await table.stored(gid)).status == "finished"
