"""The end first (issue 21, item 7, the bot's side): the final message says the game is over
once (the engines' own "Game over: …" lines are left out, the ranking gives every score), and
each player's final DM says their rank. The words are the host's (:mod:`bot.host.wording`); the
surface makes them one message (:mod:`bot.surface.text`)."""

from __future__ import annotations

from bot.host import wording
from bot.host.live import Batch, Step
from bot.host.store import GameRow, SeatRow
from bot.surface import text
from engines import base

E = base.Event


def batch(events: list[base.Event], status: str = "finished") -> Batch:
    engine = base.get("ra")
    row = GameRow(12, "ra", 1, {}, 1, 2, 3, 4, status, 40, 0, None, False, None, 0.0, 0.0)
    seats = tuple(
        SeatRow(12, i, 100 + i, n, False, False, None, 0, False)
        for i, n in enumerate(["Asha", "Bilal", "Chen"])
    )
    return Batch(
        12, engine, row, seats, None, (Step(40, 2, "bid 5", "player", tuple(events)),), (), False, True
    )


OUTCOME = base.Outcome(
    ranks=(2, 1, 2), scores=(30, 41, 30), categories=(), breakdown=({}, {}, {}), winners=(1,)
)


def test_the_final_message_says_game_over_once_and_keeps_the_last_move() -> None:
    b = batch([E("bid", "{s2} bids 5"), E("game_over", "Game over: {s0} 30, {s1} 41, {s2} 30 (best 41)")])
    words = wording.final(b, OUTCOME)
    msg = text.message(words, "ra", b.text_names)
    assert msg.startswith("🏁 **Ra #12** is over.")
    assert msg.lower().count("over") == 1, msg
    assert "Chen bids 5" in msg and "🥇 Bilal — 41 pts" in msg


def test_a_final_dm_says_the_players_rank_and_the_end_once() -> None:
    b = batch([E("bid", "{s2} bids 5")])
    for seat, rank in ((1, "1st of 3** 🏆 with 41 pts"), (0, "tied 2nd of 3** with 30 pts")):
        words = wording.dm(b, seat, [], outcome=OUTCOME)
        dm = text.dm(words, "ra", b.text_names, "https://discord.com/x", "Your tiles: …")
        assert dm.startswith("🏁 **Ra #12** is over (move 40). You finished **" + rank), dm
        assert dm.lower().count("over") == 1 and dm.endswith(
            "Final sheet: https://discord.com/x\nYour tiles: …"
        )
    nobody = base.Outcome((1, 2), (5, None), (), ({}, {}), (0,))
    assert wording.rank_line(nobody, 1) == "You finished **2nd of 2** with no score"
    assert [wording.place(r) for r in (1, 2, 3, 4, 11, 12, 13, 21, 22)] == [
        "1st",
        "2nd",
        "3rd",
        "4th",
        "11th",
        "12th",
        "13th",
        "21st",
        "22nd",
    ]


def test_a_dm_during_the_game_is_the_private_view_as_before() -> None:
    b = batch([E("bid", "{s2} bids 5")], status="active")
    dm = text.dm(
        wording.dm(b, 0, ["You drew a Pharaoh"]), "ra", b.text_names, "https://discord.com/x", "Your tiles"
    )
    assert dm == (
        "🎴 **Ra #12** — your private view as Asha (move 40): https://discord.com/x\n"
        "• You drew a Pharaoh\nYour tiles"
    )
