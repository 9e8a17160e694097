"""What a Kathai host asks: the controls, completion, the numbered menu, warnings before a first
offer, auto answers, names typed for seats, timeouts."""

from __future__ import annotations

import io
import random
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

import engines.kathai  # noqa: F401  (registers the engine)
from bot.host.service import GameService
from bot.host.store_base import Store
from bot.offline.terminal import play_terminal
from engines import base
from engines import prompt as pr
from engines.base import (
    BadNotation,
    format_text,
    play,
)
from engines.kathai import ENGINE as E
from engines.kathai import legal as lg
from engines.kathai.ai.determinize import determinize
from engines.kathai.ai.playout import search_actions
from engines.kathai.legal import sell_actions
from engines.kathai.positions import build, ids
from engines.kathai.state import MAIN, TRADING, State, refused
from engines.outcome import Menu
from tests.kathai.helpers import go, random_states

NAMES = ["You", "AI Bilal", "AI Chen"]


def _declined_by_all(s: State, text: str) -> State:
    s = go(s, 0, text)
    for q in lg.awaited(s):
        s = go(s, q, "decline")
    return s


def _go(s: State, seat: int, text: str) -> State:
    state: State = E.apply(s, seat, text)[0]
    return state


# --------------------------------------------------------------------------- the host reads names


@pytest.fixture
async def host(tmp_path: Path) -> AsyncIterator[GameService]:
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    svc = GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    yield svc
    await store.close()


async def _kathai_game(svc: GameService) -> int:
    g = await svc.create(
        kind="kathai",
        options="first_player=seat0",
        clock=None,
        guild_id=1,
        channel_id=100,
        user_id=10,
        name="Ann",
    )
    await svc.join(g.id, 11, "Bob")
    await svc.join(g.id, 12, "Cy Twain")
    await svc.start(g.id, 10)
    return g.id


def _menu(s: State, seat: int) -> Menu:
    menu = E.menu(s, seat)
    assert menu is not None, "no menu for a seat that is awaited"
    return menu


# --------------------------------------------------------------------------- the move list


def test_the_menu_lists_sales_with_points_then_pass_swap_buy() -> None:
    # salt at position 2 (min 5, +2): t13 t14 t22 t31 show 2+2+3+1 = 8 salt; t31 also shows spice
    s = build(hands=["t5 t13 t14 t22 t31", "t3", "t4"], profit=["t55"])
    menu = _menu(s, 0)
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


def test_the_notes_give_offer_syntax_with_a_real_player_and_sum_up_bribes() -> None:
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    offer, bribe = _menu(s, 0).notes
    assert "offer <player or all>" in offer and "commits the turn" in offer
    example = offer.split("e.g. `")[1].split("`")[0]
    assert "{s1}" in example or "{s2}" in example  # a real player, named by the host
    named = format_text(example, NAMES)
    assert E.is_legal(s, 0, E.read_names(s, 0, named, NAMES)) is None  # the example works as typed
    # market silk salt gold tea spice: every neighbouring pair is open
    assert "bribe <goods> <goods>" in bribe and "silk salt" in bribe and "tea spice" in bribe
    # after an offer the turn is committed: no sale, no bribe, and no "commits" warning
    s = go(go(go(s, 0, "offer all t5 for gold 1"), 1, "decline"), 2, "decline")
    menu = _menu(s, 0)
    assert not any(a.startswith("sell ") for a, _ in menu.moves)
    assert len(menu.notes) == 1 and "commits" not in menu.notes[0]


def test_a_reply_lists_each_answer_with_the_cards_it_gives() -> None:
    s = build(hands=["t1 t2", "t3 t4 t32", "t5"])
    s = go(s, 0, "offer s1 t1 for salt 1")
    menu = _menu(s, 1)
    assert [a for a, _ in menu.moves] == ["accept t3", "accept t4", "accept t32", "decline"]
    assert "t32 (1 salt + 1 tea)" in dict(menu.moves)["accept t32"]
    assert not menu.notes


def test_the_terminal_shows_sales_and_pass_before_anything_else() -> None:
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


def test_offers_take_a_players_name() -> None:
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


def test_a_seat_that_does_not_exist_is_refused_naming_the_real_ones() -> None:
    s = build(hands=["t1 t2", "t3 t4", "t5 t30"])
    reason = E.is_legal(s, 0, "offer s4 t1 for salt 1")
    assert reason is not None and "3-player" in reason
    assert "{s1}" in reason and "{s2}" in reason and "s3" not in reason and "s0 to s4" not in reason
    assert "{s1}" in (E.is_legal(s, 0, "offer s0 t1 for salt 1") or "")  # yourself: the others named


def test_goods_are_read_as_the_board_prints_them() -> None:
    assert E.parse("sell Spices t7 t8") == "sell spice t7 t8"
    assert E.parse("offer all t1 for TEAS 1") == "offer all t1 for tea 1"
    assert E.parse("bribe Salt GOLD t3") == "bribe gold salt t3"
    with pytest.raises(BadNotation):
        E.parse("sell spicy t7")


# --------------------------------------------------------------------------- an AI with manners


def test_a_skipped_seat_says_why() -> None:
    s = build(n=4, hands=["t1 t2 t9", "t3 t4", "t5", "t40 t41 t42 t43 t44 t45 t46"])
    r = play(E, s, 0, "offer all t1 t2 t9 for any 2")
    (ev,) = [e for e in r.events if e.kind == "offer"]
    assert ev.twin is not None
    assert "{s2} skipped: 1 card in hand, fewer than the 2 asked" in ev.twin.text
    assert "{s3} skipped: 7 cards in hand, 8 after the trade" in ev.twin.text and "limit of 7" in ev.twin.text
    v = E.view(r.state, None)["offer"]
    assert v["skipped"] == [2, 3] and "fewer than the 2 asked" in v["skip_reasons"][0]


def test_an_ask_declined_by_everyone_is_remembered_until_something_changes() -> None:
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


def test_a_meaner_or_sideways_ask_after_a_refused_one_counts_as_refused() -> None:
    s = build(hands=["t1 t2 t5", "t3 t4", "t6 t30"], market="silk salt gold tea spice")
    s = _declined_by_all(s, "offer all t1 t2 for salt 1")
    assert lg.refused_ask(s, -1, ids("t1"), 1, 1) and lg.refused_ask(s, -1, ids("t2"), 1, 1)
    assert lg.refused_ask(s, -1, ids("t5"), 1, 1)  # other cards for the same goods: the same ping
    assert not lg.refused_ask(s, -1, ids("t1 t2 t5"), 1, 1)  # a kinder ask may still be sent
    assert not lg.refused_ask(s, -1, ids("t1"), 2, 1) and not lg.refused_ask(s, -1, ids("t1"), 1, 2)


def test_only_decline_is_played_for_the_person_in_the_terminal() -> None:
    s = build(hands=["t1 t2", "t6 t9", "t5 t13"])  # s1 holds no salt, s2 holds t13 (2 salt)
    s = go(s, 0, "offer all t1 for salt 1")
    answer = E.auto_answer(s, 1)
    assert answer is not None
    action, why = answer
    assert action == "decline" and "no card showing salt" in why and "{s1}" in why
    assert E.auto_answer(s, 2) is None and E.auto_answer(s, 0) is None
    out = io.StringIO()
    lines = iter(["pass", "pass", "pass", "quit"])
    play_terminal("kathai", 3, 0, seed=1, read=lambda _: next(lines), out=out, level="easy")
    text = out.getvalue()
    assert "You hold no card showing" in text and "nothing to accept with" in text


def test_the_last_turn_says_a_trade_cannot_be_sold_after() -> None:
    s = build(hands=["t1 t2", "t3 t4", "t5 t13"], final=[1, 2, 2], turn_no=5)
    (offer, _) = _menu(s, 0).notes
    assert "last turn" in offer and "commits" not in offer


def test_the_example_offer_is_never_an_ask_just_refused() -> None:
    s = build(hands=["t1 t2 t5", "t3 t4", "t6 t30"], market="silk salt gold tea spice")
    before = _menu(s, 0).notes[0].split("e.g. `")[1].split("`")[0]
    card, goods = before.split()[-4], before.split()[-2]
    s = _declined_by_all(s, f"offer all {card} for {goods} 1")
    after = _menu(s, 0).notes[0].split("e.g. `")[1].split("`")[0]
    assert after.split()[-2] != goods  # another goods: everyone just refused that one
    assert E.is_legal(s, 0, E.read_names(s, 0, format_text(after, NAMES), NAMES)) is None


# --------------------------------------------------------------------------- Discord order


def test_autocomplete_lists_sales_with_points_before_the_other_moves() -> None:
    s = build(hands=["t1 t2 t40 t9", "t3 t4", "t5 t30"])  # gold at position 3 (min 3), tea at 4
    got = E.complete(s, 0, "")
    values = [v for v, _ in got]
    sales = [v for v in values if v.startswith("sell ")]
    assert sales and set(sales) <= set(sell_actions(s, s.hands[0]))
    assert values[: len(sales)] == sales  # whole sales first, each labelled with its points
    assert all("point" in lab for v, lab in got if v in sales)
    heads = values[len(sales) :]
    assert heads.index("sell") < heads.index("pass") < heads.index("swap") < heads.index("offer")
    assert heads.index("offer") < heads.index("bribe")
    # typing narrows it as before; the target of an offer is labelled with the player token
    assert [v for v, _ in E.complete(s, 0, "p")] == ["pass"]
    assert ("offer s2", "offer {s2} … then the cards you give, or for") in E.complete(s, 0, "offer ")


def test_move_form_lists_sales_then_pass_swap_buy_bribes_and_offers_are_a_dialog() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], profit=["t11"])
    p = E.prompt(s, 0)
    form, dialog = p.controls
    assert isinstance(form, pr.Form) and isinstance(dialog, pr.Dialog)
    do = form.picks[0]
    values = [c.value for c in do.choices]
    order = ["sell", "pass", "swap", "buy", "bribe"]
    ranks = [order.index(v.split()[0]) for v in values]
    assert ranks == sorted(ranks)
    assert {"sell", "pass", "buy", "bribe"} <= {v.split()[0] for v in values}
    assert [pk.key for pk in form.picks] == ["do", "cards"] and pr.rows(p.controls) == 4
    assert dialog.label == "Make an offer…" and [pk.placeholder for pk in dialog.picks] == [
        "To whom",
        "The cards you give",
        "The goods you ask for",
        "How many cards you ask",
    ]
    assert [c.value for c in dialog.picks[0].choices] == ["all", "s1", "s2"]
    assert [c.label for c in dialog.picks[0].choices] == ["Everyone", "{s1}", "{s2}"]
    sell = next(c for c in do.choices if c.value == "sell gold")
    assert "4 points" in sell.label  # t1 t2 t40 at position 3: 3 cards + 1
    # the prompt says what an offer commits and who the seat codes are
    assert "offer" in p.text.lower() and "no longer sell" in p.text
    assert "s1 {s1}" in p.text and "s2 {s2}" in p.text and "s0 {s0}" not in p.text


def test_move_form_says_nothing_of_commitment_with_free_asking_or_once_trading() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], options={"free_asking": True})
    assert "no longer sell" not in E.prompt(s, 0).text
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"])
    s = _go(_go(s, 0, "offer all t1 for salt 1"), 1, "decline")
    s = _go(s, 2, "decline")
    assert s.step == TRADING and "no longer sell" not in E.prompt(s, 0).text


# --------------------------------------------------------------------------- what commits a turn


def test_a_first_offer_warns_that_it_closes_selling_and_names_the_sale_given_up() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"])
    assert s.step == MAIN
    warning = E.irreversible(s, 0, "offer all t1 for salt 1")
    assert warning is not None
    assert all(w in warning for w in ("sell", "bribe", "buy"))
    assert "sell gold t1 t2 t40" in warning and "4 points" in warning
    # no sale possible: still the warning, without a sale named
    s2 = build(hands=["t3 t4", "t1 t2", "t5 t30"], market="gold silk salt tea spice")
    w2 = E.irreversible(s2, 0, "offer all t3 for gold 1")
    assert w2 is not None and "could" not in w2
    # ordinary moves and later offers are not confirmed
    assert E.irreversible(s, 0, "pass") is None and E.irreversible(s, 0, "swap t1") is None
    t = _go(_go(_go(s, 0, "offer all t1 for salt 1"), 1, "decline"), 2, "decline")
    assert E.irreversible(t, 0, "offer all t1 for silk 1") is None


def test_with_free_asking_a_refused_offer_commits_nothing_and_is_not_confirmed() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], options={"free_asking": True})
    assert E.irreversible(s, 0, "offer all t1 for salt 1") is None


def test_the_terminal_confirms_a_first_offer_before_sending_it() -> None:
    lines = []

    def read(prompt: str) -> str:
        lines.append(prompt)
        return answers.pop(0)

    out = io.StringIO()
    state = E.setup(5, 3, {"first_player": "seat0"})
    card = f"t{state.hands[0][0]}"
    answers = [f"offer all {card} for any 1", "n", "quit"]
    assert play_terminal("kathai", 3, seed=5, options={"first_player": "seat0"}, read=read, out=out) == 0
    asked = [p for p in lines if "[y/N]" in p]
    assert len(asked) == 1 and "no longer sell" in asked[0] and f"offer all {card} for any 1" in asked[0]
    assert "Not played" in out.getvalue()


async def test_host_takes_a_players_name_as_an_offers_target_and_stores_the_code(host: GameService) -> None:
    gid = await _kathai_game(host)
    g = await host.get(gid)
    assert g.names == ["Ann", "Bob", "Cy Twain"] and g.state.active == 0
    card = f"t{g.state.hands[0][0]}"
    await host.move(gid, 10, f"offer BOB {card} for gold 1")
    moves = [(m.seat, m.action) for m in await host.store.moves(gid)]
    assert moves[-1] == (0, f"offer s1 {card} for gold 1")  # the log keeps canonical text


async def test_host_refuses_an_unknown_name_with_the_seats_of_this_game(host: GameService) -> None:
    gid = await _kathai_game(host)
    g = await host.get(gid)
    version = g.row.version
    card = f"t{g.state.hands[0][0]}"
    with pytest.raises(base.RuleError) as bad:
        await host.move(gid, 10, f"offer zed {card} for gold 1")
    reason = base.format_text(bad.value.reason, g.names)
    assert "Bob" in reason and "Cy Twain" in reason and "all" in reason
    assert "s3" not in reason and "s4" not in reason and "Ann" not in reason
    with pytest.raises(base.RuleError) as far:  # a seat code beyond the table
        await host.move(gid, 10, f"offer s4 {card} for gold 1")
    assert "s4" in far.value.reason and "s3" not in far.value.reason
    assert (await host.get(gid)).row.version == version  # nothing changed


async def test_host_autocomplete_reads_names_and_names_the_targets(host: GameService) -> None:
    gid = await _kathai_game(host)
    g = await host.get(gid)
    assert ("offer s1", "offer Bob … then the cards you give, or for") in host.complete_for(g, 10, "offer ")
    assert [v for v, _ in host.complete_for(g, 10, "offer cy")] == ["offer s2"]
    assert host.complete_for(g, 10, "offer zed ") == []  # an unknown name offers nothing


# --------------------------------------------------------------------------- host helpers


def test_timeout_actions_never_trade() -> None:
    s = build(hands=["t1 t2", "t3 t4", "t5 t30"])
    assert E.timeout_action(s, 0) == "pass"
    s = go(s, 0, "offer all t1 for silk 1")
    assert E.timeout_action(s, 2) == "decline" and E.timeout_action(s, 1) == "decline"


def test_autocomplete_gives_next_tokens() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"])
    legal = E.legal_actions(s, 0)
    # the moves a person chooses between first (issue #22): each sale whole with its points,
    # then sell, pass, swap, offer, bribe; an offer's targets carry the player's name token
    got = E.complete(s, 0, "")
    assert [v for v, _ in got] == ["sell gold t1 t2 t40", "sell", "pass", "swap", "offer", "bribe"]
    assert "4 points" in got[0][1]
    then = " … then the cards you give, or for"
    assert E.complete(s, 0, "offer ") == [
        ("offer all", "offer all" + then),
        ("offer s1", "offer {s1}" + then),
        ("offer s2", "offer {s2}" + then),
    ]
    assert [v for v, _ in E.complete(s, 0, "offer all t1 t2 for sa")] == ["offer all t1 t2 for salt"]
    assert [v for v, _ in E.complete(s, 0, "sell gold t1 t2 t4")] == ["sell gold t1 t2 t40"]
    for st in random_states(30, seed=3):
        for q in E.to_move(st):
            legal = E.legal_actions(st, q)
            for prefix in ["", "o", "offer ", "offer all ", legal[-1][:8], legal[len(legal) // 2]]:
                got = E.complete(st, q, prefix)
                assert len(got) <= 25
                for value, _ in got:
                    assert any(a == value or a.startswith(value + " ") for a in legal), value
                want = pr.next_tokens(legal, prefix, limit=10_000)
                words = {v for v, _ in got if prefix or " " not in v}  # "" also offers whole sales
                assert words == {v for v, _ in want} or len(want) > 25


def test_prompts_fit_and_build_legal_texts() -> None:
    for st in random_states(40, seed=5):
        for q in E.to_move(st):
            p = E.prompt(st, q)
            assert pr.rows(p.controls) <= 5 and not p.public  # private: a DM to itself
            legal = set(E.legal_actions(st, q))
            assert set(p.actions()) <= legal
            form = p.find("move")
            if isinstance(form, pr.Form):
                assert form.build({"do": ["pass"]}) == "pass"
            dialog = p.find("offer")
            if isinstance(dialog, pr.Dialog):
                to = dialog.picks[0].choices[0].value
                given = {"give": [dialog.picks[1].choices[0].value]} if len(dialog.picks) == 4 else {}
                built = dialog.build({"to": [to], **given, "want": ["for any"], "count": ["1"]})
                assert built.startswith(f"offer {to} ") and built.endswith(" for any 1")
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    p0 = E.prompt(s, 0)
    form, dialog = p0.find("move"), p0.find("offer")
    assert isinstance(form, pr.Form) and isinstance(dialog, pr.Dialog)
    assert form.build({"do": ["sell salt"], "cards": ["t13", "t31", "t40", "t41"]}) in E.legal_actions(s, 0)
    offer = dialog.build({"to": ["all"], "give": ["t5"], "want": ["for salt"], "count": ["1"]})
    assert offer == "offer all t5 for salt 1" and offer in E.legal_actions(s, 0)
    big = dialog.build({"to": ["s1"], "give": ["t5"], "want": ["for any"], "count": ["7"]})
    assert big == "offer s1 t5 for any 7"  # every ask up to the hand limit, without typing
    with pytest.raises(pr.PromptError, match="The goods you ask for"):
        dialog.build({"to": ["all"], "give": ["t5"], "count": ["1"]})
    with pytest.raises(pr.PromptError, match="not on the menu"):
        dialog.build({"to": ["all"], "give": ["t3"], "want": ["for salt"], "count": ["1"]})  # not in hand
    s = go(s, 0, "offer all t5 for salt 1")
    p = E.prompt(s, 1)
    pick = p.find("accept")
    assert isinstance(pick, pr.Pick)
    assert pick.min == pick.max == 1 and pick.build(["t3"]) == "accept t3"
    assert "decline" in p.actions()
    assert E.prompt(s, 2).actions() == ["decline"]  # t4 shows no salt


def test_main_prompt_text_summarises_the_hand() -> None:
    s = build(hands=["t5 t13 t31 t40 t41", "t3", "t4"])
    text = E.prompt(s, 0).text
    assert "salt 7 (sell now: 6 pts)" in text and "profit cards 0" in text


# --------------------------------------------------------------------------- typing as the board reads
# (issue #26, item 7: a bribe's pair typed left goods first; what comes next, labelled)

# silk left of gold, gold left of tea: the pairs are silk|gold, gold|tea, tea|salt, salt|spice
MARKET = "silk gold tea salt spice"


def _values(got: list[tuple[str, str]]) -> list[str]:
    return [v for v, _ in got]


def test_a_bribe_pair_in_either_order_is_the_same_action() -> None:
    assert E.parse("bribe silk gold t1") == E.parse("bribe gold silk t1") == "bribe gold silk t1"
    assert E.parse("Bribe  SPICES salt profit") == "bribe salt spice profit"
    s = build(hands=["t1 t2", "t3", "t5"], market=MARKET)
    assert E.is_legal(s, 0, "bribe silk gold t1") is None
    board_order = base.play(E, s, 0, "bribe silk gold t1")
    goods_order = base.play(E, s, 0, "bribe gold silk t1")
    assert board_order.action == goods_order.action == "bribe gold silk t1"
    assert board_order.state == goods_order.state
    assert E.is_legal(s, 0, "bribe silk tea t1") is not None  # not neighbours: refused as before


def test_a_bribe_typed_left_goods_first_completes() -> None:
    s = build(hands=["t1 t2", "t3", "t5"], profit=["t11"], market=MARKET)
    # the goods in the order the board shows them, left first
    assert _values(E.complete(s, 0, "bribe ")) == [f"bribe {g}" for g in MARKET.split()]
    assert _values(E.complete(s, 0, "bribe silk ")) == ["bribe silk gold"]
    assert _values(E.complete(s, 0, "bribe gold ")) == ["bribe gold silk", "bribe gold tea"]
    assert _values(E.complete(s, 0, "bribe g")) == ["bribe gold"]
    for typed in ("bribe silk gold ", "bribe gold silk "):  # was: nothing for the left-first order
        got = E.complete(s, 0, typed)
        assert _values(got) == [typed + pay for pay in ("t1", "t2", "profit")]
        assert all(E.is_legal(s, 0, v) is None and label == v for v, label in got)
    assert _values(E.complete(s, 0, "bribe silk gold p")) == ["bribe silk gold profit"]
    assert E.complete(s, 0, "bribe silk tea ") == []  # not neighbours
    assert E.complete(s, 0, "bribe silk gold t9") == []  # not in the hand


def test_a_locked_pair_is_not_offered_in_either_order() -> None:
    s = build(hands=["t1 t2", "t3", "t5"], market=MARKET, lock=("gold", "silk", "t40", 1))
    assert "bribe silk" not in _values(E.complete(s, 0, "bribe "))
    assert _values(E.complete(s, 0, "bribe gold ")) == ["bribe gold tea"]
    assert E.complete(s, 0, "bribe silk gold ") == []


def test_partial_completions_say_what_comes_next() -> None:
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], market=MARKET)
    got = dict(E.complete(s, 0, ""))
    assert got["swap"] == "swap … then a card of your hand"
    assert got["sell"] == "sell … then the goods to sell"
    assert got["offer"] == "offer … then to whom: all or a player"
    assert got["bribe"] == "bribe … then two goods side by side"
    assert got["pass"] == "pass"  # a whole action, nothing after it
    assert dict(E.complete(s, 0, "offer "))["offer s1"] == "offer {s1} … then the cards you give, or for"
    assert dict(E.complete(s, 0, "offer all t1 for "))["offer all t1 for salt"].endswith(
        "then how many cards"
    )
    assert (
        dict(E.complete(s, 0, "offer all t1 for salt "))["offer all t1 for salt 1"]
        == "offer all t1 for salt 1"
    )
    assert dict(E.complete(s, 0, "swap "))["swap t1"] == "swap t1"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_partial_completion_leads_on_to_a_legal_move(seed: int) -> None:
    rng = random.Random(seed)
    for st in random_states(25, seed=seed):
        for q in E.to_move(st):
            legal = E.legal_actions(st, q)
            a = rng.choice(legal)
            for prefix in ["", "bribe ", a.split(" ")[0] + " ", a[: len(a) // 2], a]:
                for value, label in E.complete(st, q, prefix):
                    if pr.THEN not in label:
                        assert E.is_legal(st, q, value) is None, (value, label)
                        continue
                    assert label.startswith(value.split(" ")[0]) and E.is_legal(st, q, value) is not None
                    on = value  # taking the first completion each time ends in a legal move
                    for _ in range(12):
                        nxt = E.complete(st, q, on + " ")
                        assert nxt, (value, on)
                        on = nxt[0][0]
                        if E.is_legal(st, q, on) is None:
                            break
                    assert E.is_legal(st, q, on) is None, (value, on)


def test_the_icons_name_the_goods_of_the_controls() -> None:
    """A sale, a bribe and an offer's wish carry the goods they name first, a card the goods
    its label shows most of; counts, ``for any``, pass and decline no icon (docs/playing.md#emojis)."""
    from engines.kathai import icons
    from engines.kathai.data import GOODS
    from tests.icon_checks import controls, random_prompts

    seen: set[str] = set()
    for _, _, p in random_prompts("kathai", seeds=4):
        for text, label, icon in controls(p):
            words = text.split()
            seen.add(icon)
            if words[0] in ("sell", "bribe", "for") and words[1] in GOODS:
                assert icon == f"kathai_{words[1]}", text
            elif words[-1].startswith("t") and words[-1][1:].isdigit():
                assert icon.startswith("kathai_") and icon[7:] in label, (text, label, icon)
            elif words[0] in ("pass", "decline", "buy", "swap") or words[-1].isdigit() or text == "for any":
                assert icon == "", text
    assert {f"kathai_{g}" for g in GOODS} <= seen and seen - {""} <= set(icons.KEYS)
