"""Kathai as clear as Ra (issue #22): the moves worth listing first, names instead of seat
codes, goods as the board prints them, skipped seats that say why, and AI seats that never send
again an ask everyone has just declined."""
from __future__ import annotations

import io
import random

import pytest

from bot.offline.terminal import play_terminal
from engines import search
from engines.base import BadNotation, format_text, play
from engines.kathai import ENGINE as E
from engines.kathai import legal as lg
from engines.kathai.ai.determinize import determinize
from engines.kathai.ai.playout import search_actions
from engines.kathai.positions import build, ids
from engines.kathai.state import REPLY, refused

NAMES = ["You", "AI Bilal", "AI Chen"]


def go(s, seat, text):
    s2 = play(E, s, seat, text).state
    E.invariants(s2)
    return s2


# --------------------------------------------------------------------------- the move list


def test_the_menu_lists_sales_with_points_then_pass_swap_buy():
    # salt at position 2 (min 5, +2): t13 t14 t22 t31 show 2+2+3+1 = 8 salt; t31 also shows spice
    s = build(hands=["t5 t13 t14 t22 t31", "t3", "t4"], profit=["t55"])
    menu = E.menu(s, 0)
    acts = [a for a, _ in menu.moves]
    sells = [a for a in acts if a.startswith("sell ")]
    assert sells and acts[: len(sells)] == sells  # sales first
    assert acts[len(sells)] == "pass"
    assert [a for a in acts if a.startswith("swap ")] == [f"swap t{c}" for c in (5, 13, 14, 22, 31)]
    assert acts[-1] == "buy"
    assert set(acts) <= set(E.legal_actions(s, 0))
    labels = dict(menu.moves)
    assert "6 points" in labels["sell salt t13 t14 t22 t31"]  # the full sale: 4 cards + 2
    # the sale without the card that also shows spice (7 salt) is listed too, with what it keeps
    assert "5 points" in labels["sell salt t13 t14 t22"] and "keeping t31" in labels["sell salt t13 t14 t22"]
    assert acts.index("sell salt t13 t14 t22 t31") < acts.index("sell salt t13 t14 t22")  # best first
    assert not any(a.startswith(("offer ", "bribe ")) for a in acts)
    assert menu.total == len(E.legal_actions(s, 0)) > 500


def test_the_notes_give_offer_syntax_with_a_real_player_and_sum_up_bribes():
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    offer, bribe = E.menu(s, 0).notes
    assert "offer <player or all>" in offer and "commits the turn" in offer
    example = offer.split("e.g. `")[1].split("`")[0]
    assert "{s1}" in example or "{s2}" in example  # a real player, named by the host
    named = format_text(example, NAMES)
    assert E.is_legal(s, 0, E.read_names(s, 0, named, NAMES)) is None  # the example works as typed
    # market silk salt gold tea spice: every neighbouring pair is open
    assert "bribe <goods> <goods>" in bribe and "silk salt" in bribe and "tea spice" in bribe
    # after an offer the turn is committed: no sale, no bribe, and no "commits" warning
    s = go(go(go(s, 0, "offer all t5 for gold 1"), 1, "decline"), 2, "decline")
    menu = E.menu(s, 0)
    assert not any(a.startswith("sell ") for a, _ in menu.moves)
    assert len(menu.notes) == 1 and "commits" not in menu.notes[0]


def test_a_reply_lists_each_answer_with_the_cards_it_gives():
    s = build(hands=["t1 t2", "t3 t4 t32", "t5"])
    s = go(s, 0, "offer s1 t1 for salt 1")
    menu = E.menu(s, 1)
    assert [a for a, _ in menu.moves] == ["accept t3", "accept t4", "accept t32", "decline"]
    assert "t32 (1 salt + 1 tea)" in dict(menu.moves)["accept t32"]
    assert not menu.notes


def test_the_terminal_shows_sales_and_pass_before_anything_else():
    out = io.StringIO()
    lines = iter(["", "quit"])
    play_terminal("kathai", 3, 0, seed=4, read=lambda _: next(lines), out=out, level="easy")
    text = out.getvalue()
    listing = text.split("Your moves:")[1].split("> ")[0].splitlines()
    numbered = [x for x in listing if x.strip().startswith("[")]
    assert numbered and all(x.split("] ")[1].split()[0] in ("sell", "pass", "swap", "buy") for x in numbered)
    assert any("pass — end your turn" in x for x in numbered)
    assert "offer <player or all>" in text and "more: type any of them" not in text
    assert "offer AI " in text  # the example names a real player


# --------------------------------------------------------------------------- names, not codes


def test_offers_take_a_players_name():
    s = build(hands=["t1 t2", "t3 t4", "t5 t30"])
    for typed in ("offer bilal t1 for salt 1", "offer AI Bilal t1 for salt 1", "OFFER Bil t1 for salt 1"):
        assert E.read_names(s, 0, typed, NAMES) == "offer s1 t1 for salt 1"
    assert E.read_names(s, 0, "offer chen t1 t2 for any 2", NAMES) == "offer s2 t1 t2 for any 2"
    assert E.read_names(s, 0, "offer all t1 for salt 1", NAMES) == "offer all t1 for salt 1"
    assert E.read_names(s, 0, "sell salt t3", NAMES) == "sell salt t3"  # only offers name players
    with pytest.raises(BadNotation) as err:
        E.read_names(s, 0, "offer zed t1 for salt 1", NAMES)
    reason = format_text(err.value.reason, NAMES)
    assert "zed" in reason and "AI Bilal (s1)" in reason and "AI Chen (s2)" in reason
    assert "s3" not in reason and "s4" not in reason and "s0" not in reason
    with pytest.raises(BadNotation):  # "ai" fits two players: not a guess
        E.read_names(s, 0, "offer ai t1 for salt 1", NAMES)


def test_a_seat_that_does_not_exist_is_refused_naming_the_real_ones():
    s = build(hands=["t1 t2", "t3 t4", "t5 t30"])
    reason = E.is_legal(s, 0, "offer s4 t1 for salt 1")
    assert reason is not None and "3-player" in reason
    assert "{s1}" in reason and "{s2}" in reason and "s3" not in reason and "s0 to s4" not in reason
    assert "{s1}" in E.is_legal(s, 0, "offer s0 t1 for salt 1")  # yourself: the others named


def test_goods_are_read_as_the_board_prints_them():
    assert E.parse("sell Spices t7 t8") == "sell spice t7 t8"
    assert E.parse("offer all t1 for TEAS 1") == "offer all t1 for tea 1"
    assert E.parse("bribe Salt GOLD t3") == "bribe gold salt t3"
    with pytest.raises(BadNotation):
        E.parse("sell spicy t7")


# --------------------------------------------------------------------------- an AI with manners


def test_a_skipped_seat_says_why():
    s = build(n=4, hands=["t1 t2 t9", "t3 t4", "t5", "t40 t41 t42 t43 t44 t45 t46"])
    r = play(E, s, 0, "offer all t1 t2 t9 for any 2")
    (ev,) = [e for e in r.events if e.kind == "offer"]
    assert "{s2} skipped: 1 card in hand, fewer than the 2 asked" in ev.twin.text
    assert "{s3} skipped: 7 cards in hand, 8 after the trade" in ev.twin.text and "limit of 7" in ev.twin.text
    v = E.view(r.state, None)["offer"]
    assert v["skipped"] == [2, 3] and "fewer than the 2 asked" in v["skip_reasons"][0]


def _declined_by_all(s, text):
    s = go(s, 0, text)
    for q in lg.awaited(s):
        s = go(s, q, "decline")
    return s


def test_an_ask_declined_by_everyone_is_remembered_until_something_changes():
    s = build(hands=["t1 t2 t5", "t3 t4", "t6 t30"], market="silk salt gold tea spice")
    s = _declined_by_all(s, "offer all t1 for salt 1")
    assert refused(s) == ((1, ids("t1"), 1, 1), (2, ids("t1"), 1, 1))
    assert lg.refused_ask(s, -1, ids("t1"), 1, 1) and lg.refused_ask(s, 1, ids("t1"), 1, 1)
    assert not lg.refused_ask(s, -1, ids("t1 t2"), 1, 1) and not lg.refused_ask(s, -1, ids("t1"), 1, 2)
    assert "offer all t1 for salt 1" not in search_actions(s, 0)
    # the offerer's view holds it, and a determinized state keeps it
    v = E.view(s, 0)
    assert v["refused"][0] == {"seat": 1, "give": ["t1"], "want": "salt", "k": 1}
    assert E.view(s, 1)["refused"] == [] and E.view(s, None)["refused"] == []
    assert E.view(determinize(v, random.Random(1)), 0) == v
    # a trade with s1 changes its hand: its refusal is forgotten, s2's is kept
    t = go(go(s, 0, "offer s1 t2 for any 1"), 1, "accept t3")
    assert refused(t) == ((2, ids("t1"), 1, 1),) and not lg.refused_ask(t, -1, ids("t1"), 1, 1)
    assert lg.refused_ask(t, 2, ids("t1"), 1, 1)
    # the next turn starts afresh; states equal to the old ones still fingerprint the same
    u = go(s, 0, "pass")
    assert refused(u) == () and E.view(u, u.active)["refused"] == []


def test_ai_seats_never_repeat_an_ask_everyone_declined():
    """A person who declines everything, against the search AI: an AI seat may ask again only
    once someone it asked has traded since (here: never)."""
    for seed in (1, 2, 3):
        s = E.setup(seed, 3, {})
        sent: set[tuple[int, str]] = set()
        repeats = []
        for _ in range(250):
            if E.outcome(s) is not None:
                break
            seat = min(E.to_move(s))
            if seat == 0:
                text = "decline" if s.step == REPLY else "pass"
            else:
                legal = E.legal_actions(s, seat)
                text = search.choose(E, E.view(s, seat), legal, "normal", seed * 1000 + s.turn_no, cap=False).action
            if text.startswith("offer "):
                key = (s.turn_no, text)
                if key in sent and not s.traded:
                    repeats.append(key)
                sent.add(key)
            s = play(E, s, seat, text).state
        assert not repeats, f"seed {seed}: asks sent again after everyone declined: {repeats}"


def test_a_meaner_or_sideways_ask_after_a_refused_one_counts_as_refused():
    s = build(hands=["t1 t2 t5", "t3 t4", "t6 t30"], market="silk salt gold tea spice")
    s = _declined_by_all(s, "offer all t1 t2 for salt 1")
    assert lg.refused_ask(s, -1, ids("t1"), 1, 1) and lg.refused_ask(s, -1, ids("t2"), 1, 1)
    assert lg.refused_ask(s, -1, ids("t5"), 1, 1)  # other cards for the same goods: the same ping
    assert not lg.refused_ask(s, -1, ids("t1 t2 t5"), 1, 1)  # a kinder ask may still be sent
    assert not lg.refused_ask(s, -1, ids("t1"), 2, 1) and not lg.refused_ask(s, -1, ids("t1"), 1, 2)


def test_only_decline_is_played_for_the_person_in_the_terminal():
    s = build(hands=["t1 t2", "t6 t9", "t5 t13"])  # s1 holds no salt, s2 holds t13 (2 salt)
    s = go(s, 0, "offer all t1 for salt 1")
    action, why = E.auto_answer(s, 1)
    assert action == "decline" and "no card showing salt" in why and "{s1}" in why
    assert E.auto_answer(s, 2) is None and E.auto_answer(s, 0) is None
    out = io.StringIO()
    lines = iter(["pass", "pass", "pass", "quit"])
    play_terminal("kathai", 3, 0, seed=1, read=lambda _: next(lines), out=out, level="easy")
    text = out.getvalue()
    assert "You hold no card showing" in text and "nothing to accept with" in text


def test_the_last_turn_says_a_trade_cannot_be_sold_after():
    s = build(hands=["t1 t2", "t3 t4", "t5 t13"], final=[1, 2, 2], turn_no=5)
    (offer, _) = E.menu(s, 0).notes
    assert "last turn" in offer and "commits" not in offer


def test_the_board_text_does_not_offer_a_sale_once_selling_is_closed():
    from render.kathai.text import text as board_text

    s = build(hands=["t13 t14 t22", "t3 t4", "t5 t30"])
    assert "sell now" in board_text(E.view(s, 0), NAMES)
    s = _declined_by_all(s, "offer all t13 for gold 1")
    shown = board_text(E.view(s, 0), NAMES)
    assert "sell now" not in shown and "no selling this turn" in shown


def test_only_the_seat_to_play_is_told_to_sell_now():
    from render.kathai.text import text as board_text

    s = build(hands=["t1 t2", "t13 t14 t22", "t5 t30"])
    s = go(s, 0, "offer all t1 for salt 1")  # s1, answering, holds 7 salt
    shown = board_text(E.view(s, 1), NAMES)
    assert "sell now" not in shown and "worth" in shown and "no selling this turn" not in shown
    r = play(E, go(s, 1, "decline"), 2, "decline")
    assert any("offer is declined by everyone" in e.text for e in r.events)


def test_the_example_offer_is_never_an_ask_just_refused():
    s = build(hands=["t1 t2 t5", "t3 t4", "t6 t30"], market="silk salt gold tea spice")
    before = E.menu(s, 0).notes[0].split("e.g. `")[1].split("`")[0]
    card, goods = before.split()[-4], before.split()[-2]
    s = _declined_by_all(s, f"offer all {card} for {goods} 1")
    after = E.menu(s, 0).notes[0].split("e.g. `")[1].split("`")[0]
    assert after.split()[-2] != goods  # another goods: everyone just refused that one
    assert E.is_legal(s, 0, E.read_names(s, 0, format_text(after, NAMES), NAMES)) is None
