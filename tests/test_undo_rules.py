"""Which moves each game lets a player take back (``Engine.reveals``, ``engines/<game>/undo.py``):
concrete positions (the specs' worked examples where one fits), refusals with their reason, and,
over random play of every game, that a move said to reveal nothing leaves every viewer's secrets
hidden (no viewer's ``secrets`` shrink), while a move that draws is refused."""

from __future__ import annotations

import random
from typing import Any

import pytest

from engines import base, takeback
from engines.base import play
from engines.kathai.positions import build as kathai_build
from engines.kathai.rules import KathaiEngine
from engines.phraya.rules import PhrayaEngine
from engines.phraya.state import CARD
from engines.pralaya.positions import rig
from engines.ra.positions import build as ra_build
from engines.ra.rules import RaEngine
from tests.pralaya.helpers import E as PRALAYA
from tests.pralaya.helpers import fresh

RA = RaEngine()
KATHAI = KathaiEngine()
PHRAYA = PhrayaEngine()


def step(engine: base.Engine, state: Any, seat: int, action: str) -> tuple[str | None, Any]:
    """What the engine says ``action`` reveals, and the state after it."""
    said = engine.reveals(state, seat, action)
    return said, play(engine, state, seat, action).state


# --------------------------------------------------------------------------- Pralaya


def test_pralaya_takes_are_undoable_until_the_refill() -> None:
    # docs/rules/pralaya.md example R1: takes keep the turn going; ending it refills the island
    s = rig(fresh(), island={"b2": "dem1", "c4": "sil1", "a1": "gol1", "a3": "man1"}, round=2, active=0)
    said, s = step(PRALAYA, s, 0, "take b2")
    assert said is None
    said, s = step(PRALAYA, s, 0, "take c4")
    assert said is None  # collecting ends by itself, in BUY: nothing drawn yet
    said = PRALAYA.reveals(s, 0, "pass")
    assert said == "it ended the turn and the island was refilled with 2 new cards from the deck."


def test_pralaya_the_last_card_ends_the_game() -> None:
    # example I: the only relic left is taken; the buy that follows ends the game (no refill)
    s = rig(fresh(), island={"c3": "gre1"}, round=3, active=1)
    said, s = step(PRALAYA, s, 1, "take c3")
    assert said is None
    assert PRALAYA.reveals(s, 1, "pass") == "it ended the game, which showed every hand and the scores."


# --------------------------------------------------------------------------- Ra


def test_ra_bids_are_undoable_while_the_auction_is_open() -> None:
    # docs/rules/ra.md example E8
    suns = [[2, 5, 8, 13], [3, 6, 9, 12], [4, 7, 10, 11]]
    s = ra_build(3, cur=0, track=["pharaoh", "gold", "nile"], up=suns)
    said, s = step(RA, s, 0, "invoke")
    assert said is None
    said, s = step(RA, s, 1, "bid 9")
    assert said is None
    said, s = step(RA, s, 2, "pass")
    assert said is None
    assert RA.reveals(s, 0, "pass") == "it ended the auction and the lot was won."
    assert RA.reveals(s, 0, "bid 13") == "it ended the auction and the lot was won."


def test_ra_draws_and_unsold_lots_are_refused() -> None:
    s = ra_build(3, cur=0, track=["gold"], bag_front=["pharaoh"])
    assert RA.reveals(s, 0, "draw") == "drawing showed the next tile of the bag."
    # E10: a Ra tile's auction nobody bids in ends unsold
    s = ra_build(3, cur=2, ra_track=3, track=["gold", "god"], bag_front=["ra"])
    said, s = step(RA, s, 2, "draw")
    assert said == "drawing showed the next tile of the bag."
    said, s = step(RA, s, 0, "pass")
    assert said is None
    said, s = step(RA, s, 1, "pass")
    assert said is None
    assert RA.reveals(s, 2, "pass") == "it ended the auction, with the lot unsold."


def test_ra_god_tiles_are_undoable() -> None:
    s = ra_build(3, cur=0, track=["gold", "pharaoh"], tiles=[{"god": 1}, {}, {}])
    assert RA.reveals(s, 0, "god gold") is None


# --------------------------------------------------------------------------- Kathai


def test_kathai_offers_accepts_and_sales_show_cards() -> None:
    # docs/rules/kathai.md test case 4 (the rulebook trade) and case 1 (the salt sale)
    s = kathai_build(hands=["t1 t2 t5 t9", "t3 t20 t25", "t6 t7 t8 t10 t11 t12 t19"])
    assert KATHAI.reveals(s, 0, "offer all t1 t2 for salt 1") == (
        "the offer showed the cards you give to the players it asks."
    )
    s = play(KATHAI, s, 0, "offer all t1 t2 for salt 1").state
    assert KATHAI.reveals(s, 1, "accept t3") == "the trade showed your cards to the player you traded with."
    assert KATHAI.reveals(s, 1, "decline") is None
    sale = kathai_build(hands=["t5 t13 t31 t40 t41"], lock=("gold", "tea", "t8", 1), pile="t50 t51")
    said = KATHAI.reveals(sale, 0, "sell salt t13 t31 t40 t41")
    assert said == "selling showed the sold cards to everyone."


def test_kathai_a_pass_is_undoable_unless_the_next_seat_draws() -> None:
    seven = "t40 t41 t42 t43 t44 t45 t46"
    full = kathai_build(hands=["t1", seven, "t2"], pile="t50 t51")
    assert KATHAI.reveals(full, 0, "pass") is None  # s1 holds 7: no draw
    assert KATHAI.reveals(full, 0, "bribe silk salt t1") is None  # the bribe card lies face down
    short = kathai_build(hands=["t1", "t3", "t2"], pile="t50 t51")
    said = KATHAI.reveals(short, 0, "pass")
    assert said == "it ended the turn, and {s1} drew a card from the pile to start theirs."
    assert KATHAI.reveals(short, 0, "swap t1") == "swapping drew a card from the pile."


# --------------------------------------------------------------------------- Phraya


def _phraya_at_card(**options: Any) -> Any:
    s = PHRAYA.setup(3, 3, options)
    while s.step < CARD:
        seat = PHRAYA.to_move(s)[0]
        assert PHRAYA.reveals(s, seat, PHRAYA.legal_actions(s, seat)[0]) is None  # setup placements
        s = play(PHRAYA, s, seat, PHRAYA.legal_actions(s, seat)[0]).state
    return s


def test_phraya_playing_a_card_is_undoable_unless_hands_are_hidden() -> None:
    s = _phraya_at_card()
    seat = PHRAYA.to_move(s)[0]
    plays = [a for a in PHRAYA.legal_actions(s, seat) if a.startswith("play ")]
    assert plays and all(PHRAYA.reveals(s, seat, a) is None for a in plays)
    hidden = _phraya_at_card(hidden_hands=True)
    seat = PHRAYA.to_move(hidden)[0]
    plays = [a for a in PHRAYA.legal_actions(hidden, seat) if a.startswith("play ")]
    said = {PHRAYA.reveals(hidden, seat, a) for a in plays}
    assert said == {"playing showed a card from your hidden hand."}


# --------------------------------------------------------------------------- every game


@pytest.mark.parametrize("game", ["pralaya", "ra", "kathai", "phraya"])
def test_what_reveals_nothing_keeps_every_secret(game: str) -> None:
    """Random play: whenever some viewer learns something (a string of its ``secrets`` is no
    longer secret), the engine refuses to take the move back; moves of both kinds occur."""
    engine = base.get(game)
    rng = random.Random(7)
    seen = {"undoable": 0, "refused": 0}
    for seed in range(3):
        n = 3
        s = engine.setup(seed, n, {})
        viewers: list[int | None] = [None, *range(n)]
        for _ in range(400):
            if engine.outcome(s) is not None:
                break
            seat = engine.to_move(s)[0]
            action = engine.playout_action(s, seat, rng)
            said = engine.reveals(s, seat, action)
            after = play(engine, s, seat, action).state
            learnt = [v for v in viewers if set(engine.secrets(s, v)) - set(engine.secrets(after, v))]
            if learnt:
                assert said is not None, f"{game}: {action!r} showed {learnt} something, yet may be undone"
            seen["refused" if said else "undoable"] += 1
            s = after
    assert seen["undoable"] > 0 and seen["refused"] > 0, seen


@pytest.mark.parametrize("game", ["pralaya", "ra", "kathai", "phraya"])
def test_undo_is_no_action_text(game: str) -> None:
    """The move log marks an undo with the text ``undo <version>``: no game may read it as a move."""
    with pytest.raises(base.BadNotation):
        base.get(game).parse("undo 3")


def test_replay_steps_read_undo_entries() -> None:
    """Which moves stay in play, and the states ``replay_steps`` gives for a log with undo
    entries: each undo returns to the state before the move it names (taking back the moves
    after it too), and names it in its event; an undo of a move no longer in play is refused."""
    assert takeback.in_play([(0, "invoke"), (1, "bid 3"), (0, "undo 1")]) == []
    assert takeback.in_play([(0, "invoke"), (1, "bid 3"), (1, "undo 2")]) == [(1, 0, "invoke")]
    fp = base.state_fingerprint
    cur = RA.to_move(RA.setup(5, 3, {}))[0]
    log = [(cur, "invoke"), (cur, "undo 1"), (cur, "draw"), (cur, "undo 3")]
    steps = list(base.replay_steps(RA, 5, 3, {}, log))
    got = [fp(state) for state, _ in steps]
    assert got[2] == got[0] and got[4] == got[0] and got[1] != got[0] and got[3] != got[0]
    played = steps[2][1]
    assert played is not None and played.action == "undo 1"
    assert [e.text for e in played.events] == ["{s%d} took back 'invoke'." % cur]
    nxt = RA.to_move(steps[1][0])[0]
    two = list(base.replay_steps(RA, 5, 3, {}, [(cur, "invoke"), (nxt, "pass"), (cur, "undo 1")]))
    assert fp(two[3][0]) == got[0]
    assert two[3][1] is not None and two[3][1].events[0].text == (
        "{s%d} took back 'invoke' and the move after it, as everyone agreed." % cur
    )
    with pytest.raises(base.IllegalAction, match="There is no move 1 in play to take back"):
        base.replay(RA, 5, 3, {}, [(cur, "invoke"), (cur, "undo 1"), (cur, "undo 1")])


def test_an_undo_names_a_private_move_only_as_a_move() -> None:
    """A Kathai bribe paid with a hand card may be taken back (nobody drew), and its card lies face
    down: the undo's public event does not name it."""
    s = kathai_build(hands=["t1", "t40 t41 t42 t43 t44 t45 t46", "t2"], pile="t50 t51")
    assert KATHAI.reveals(s, 0, "bribe silk salt t1") is None and KATHAI.private_action(
        s, 0, "bribe silk salt t1"
    )
    event = takeback.undo_event(KATHAI, s, 0, [(1, 0, "bribe silk salt t1")])
    assert event.public and event.text == "{s0} took back their move." and "t1" not in str(event.data)
