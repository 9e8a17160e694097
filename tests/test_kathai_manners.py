"""Kathai for a newcomer (issue #22), the Discord side and what commits a turn: the ``/move``
autocomplete and the move form list the moves a person chooses between first, a first offer
warns that it closes selling for the turn (terminal confirmation, Discord prompt), and the host
reads player names typed for seat codes (moves and autocomplete), refusing unknown ones with
the seats that exist. The texts' content is checked, not their exact wording."""

from __future__ import annotations

import io

import pytest

import engines.kathai  # noqa: F401  (registers the engine)
from bot.host.service import GameService
from bot.host.store import Store
from bot.offline.terminal import play_terminal
from engines import base
from engines.kathai.legal import sell_actions
from engines.kathai.positions import build
from engines.kathai.state import MAIN, TRADING

E = base.get("kathai")


def _go(s, seat, text):
    return E.apply(s, seat, text)[0]


# --------------------------------------------------------------------------- Discord order


def test_autocomplete_lists_sales_with_points_before_the_other_moves():
    s = build(hands=["t1 t2 t40 t9", "t3 t4", "t5 t30"])  # gold at position 3 (min 3), tea at 4
    got = E.complete(s, 0, "")
    values = [v for v, _ in got]
    sales = [v for v in values if v.startswith("sell ")]
    assert sales and set(sales) <= set(sell_actions(s, s.hands[0]))
    assert values[: len(sales)] == sales  # whole sales first, each labelled with its points
    assert all("point" in lab for v, lab in got if v in sales)
    heads = values[len(sales):]
    assert heads.index("sell") < heads.index("pass") < heads.index("swap") < heads.index("offer")
    assert heads.index("offer") < heads.index("bribe")
    # typing narrows it as before; the target of an offer is labelled with the player token
    assert [v for v, _ in E.complete(s, 0, "p")] == ["pass"]
    assert ("offer s2", "{s2}") in E.complete(s, 0, "offer ")


def test_move_form_lists_sales_then_pass_swap_buy_offers_bribes():
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], profit=["t11"])
    p = E.prompt(s, 0)
    do = p.controls[0].picks[0]
    values = [c.value for c in do.choices]
    order = ["sell", "pass", "swap", "buy", "offer", "bribe"]
    ranks = [order.index(v.split()[0]) for v in values]
    assert ranks == sorted(ranks)
    assert {"sell", "pass", "buy", "offer", "bribe"} <= {v.split()[0] for v in values}
    sell = next(c for c in do.choices if c.value == "sell gold")
    assert "4 points" in sell.label  # t1 t2 t40 at position 3: 3 cards + 1
    # the prompt says what an offer commits and who the seat codes are
    assert "offer" in p.text.lower() and "no longer sell" in p.text
    assert "s1 {s1}" in p.text and "s2 {s2}" in p.text and "s0 {s0}" not in p.text


def test_move_form_says_nothing_of_commitment_with_free_asking_or_once_trading():
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], options={"free_asking": True})
    assert "no longer sell" not in E.prompt(s, 0).text
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"])
    s = _go(_go(s, 0, "offer all t1 for salt 1"), 1, "decline")
    s = _go(s, 2, "decline")
    assert s.step == TRADING and "no longer sell" not in E.prompt(s, 0).text


# --------------------------------------------------------------------------- what commits a turn


def test_a_first_offer_warns_that_it_closes_selling_and_names_the_sale_given_up():
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


def test_with_free_asking_a_refused_offer_commits_nothing_and_is_not_confirmed():
    s = build(hands=["t1 t2 t40", "t3 t4", "t5 t30"], options={"free_asking": True})
    assert E.irreversible(s, 0, "offer all t1 for salt 1") is None


def test_the_terminal_confirms_a_first_offer_before_sending_it():
    lines = []

    def read(prompt):
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


# --------------------------------------------------------------------------- the host reads names


@pytest.fixture
async def host(tmp_path):
    store = await Store.open(tmp_path / "db.sqlite3", now=lambda: 1_700_000_000.0)
    svc = GameService(store, now=lambda: 1_700_000_000.0, seed_source=lambda: 42, ai_level="easy")
    yield svc
    await store.close()


async def _kathai(svc: GameService) -> int:
    g = await svc.create(kind="kathai", options="first_player=seat0", clock=None, guild_id=1,
                         channel_id=100, user_id=10, name="Ann")
    await svc.join(g.id, 11, "Bob")
    await svc.join(g.id, 12, "Cy Twain")
    await svc.start(g.id, 10)
    return g.id


async def test_host_takes_a_players_name_as_an_offers_target_and_stores_the_code(host):
    gid = await _kathai(host)
    g = await host.get(gid)
    assert g.names == ["Ann", "Bob", "Cy Twain"] and g.state.active == 0
    card = f"t{g.state.hands[0][0]}"
    await host.move(gid, 10, f"offer BOB {card} for gold 1")
    moves = [(m.seat, m.action) for m in await host.store.moves(gid)]
    assert moves[-1] == (0, f"offer s1 {card} for gold 1")  # the log keeps canonical text


async def test_host_refuses_an_unknown_name_with_the_seats_of_this_game(host):
    gid = await _kathai(host)
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


async def test_host_autocomplete_reads_names_and_names_the_targets(host):
    gid = await _kathai(host)
    g = await host.get(gid)
    assert ("offer s1", "Bob") in host.complete_for(g, 10, "offer ")
    assert [v for v, _ in host.complete_for(g, 10, "offer cy")] == ["offer s2"]
    assert host.complete_for(g, 10, "offer zed ") == []  # an unknown name offers nothing
