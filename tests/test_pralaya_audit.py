"""Second-pair-of-eyes audit of the Pralaya engine against the rules.

Two independent oracles written straight from the rules (docs/rules/pralaya.md#turn for the legal actions,
docs/rules/pralaya.md#scoring for scoring and ranking) are compared with the engine over random games with
random options; then the options (docs/rules/pralaya.md#options) and the events (docs/rules/pralaya.md#turn) are pinned down,
and a few texts a player reads are checked.
"""
from __future__ import annotations

import itertools
import random

import pytest

from engines.base import IllegalAction, play
from engines.pralaya import data
from engines.pralaya import scoring as scoring_mod
from engines.pralaya import legal as legal_mod
from engines.pralaya import state as state_mod
from engines.pralaya.apply import begin
from engines.pralaya.positions import rig
from engines.pralaya.state import CARD_CODE, EMPTY, IS_OCEAN, deal
from pralaya_helpers import E, fresh, act

COST = {r.code: r.cost for r in data.RELICS}


# ------------------------------------------------------------------ independent oracles

def oracle_legal(s) -> list[str]:
    """The active seat's actions, computed from the rulebook without the engine's helpers."""
    seat = s.active
    rows, cols = data.GRID[s.n]
    names = [f"{'abc'[r]}{c + 1}" for r in range(rows) for c in range(cols)]
    relic_cells = [i for i, c in enumerate(s.island) if c != EMPTY and not IS_OCEAN[c]]
    if s.dhoni[seat] >= 0:  # escaped: discard one relic instead of collecting, never buy
        assert s.step == 1
        return sorted(f"discard {names[i]}" for i in relic_cells)
    if s.step == 0:  # collecting: any relic that the Vitality left pays for; done after a take
        out = [f"take {names[i]}" for i in relic_cells if COST[CARD_CODE[s.island[i]]] <= s.v_left]
        assert out, "collecting with nothing affordable"
        if s.turn_cards:
            out.append("done")
        return sorted(out)
    assert s.step == 2
    hand = [CARD_CODE[i] for i in s.hands[seat]]
    g, si, c = hand.count("gol"), hand.count("sil"), hand.count("cop")

    def minimal(price: int) -> list[tuple[int, int, int]]:
        res = []
        for x, y, z in itertools.product(range(g + 1), range(si + 1), range(c + 1)):
            paid = [6] * x + [3] * y + [1] * z
            if sum(paid) >= price and all(sum(paid) - v < price for v in paid):
                res.append((x, y, z))
        return res

    out = ["pass"]
    top = data.DHONI[s.dhoni_pile[0]] if s.dhoni_pile else None
    if top is not None and top.price is None:
        out.append(f"buy dhoni {g}g {si}s {c}c")
    elif top is not None:
        out += [f"buy dhoni {x}g {y}s {z}c" for x, y, z in minimal(top.price)]
    if not s.veda[seat]:
        out += [f"buy veda {x}g {y}s {z}c" for x, y, z in minimal(s.veda_price)]
    return sorted(out)


def oracle_result(s) -> tuple[tuple, tuple]:
    """(scores, ranks) of a finished game, computed from the rulebook's card list and scoring."""
    n = s.n
    escaped = [d >= 0 for d in s.dhoni]
    hands = [[CARD_CODE[i] for i in h] for h in s.hands]
    fossils = [h.count("fos") for h in hands]
    rivals = [t for t in range(n) if escaped[t] or s.fossil_all]
    most = max((fossils[t] for t in rivals), default=0)
    leaders = [t for t in rivals if fossils[t] == most]
    fossil_winner = leaders[0] if most >= 1 and len(leaders) == 1 else None
    totals = {}
    for t in range(n):
        if not escaped[t]:
            continue
        k = hands[t].count
        veda = bool(s.veda[t])
        pts = k("cop") + 3 * k("sil") + 6 * k("gol")
        pts += 0 if k("bra") else 2 * k("dem") * (-3) ** k("pac")
        pts += 5 * (k("man") // 2) + 20 * (k("urn") // 3) + k("gre") ** 2
        pts += k("pun") * (len(set(hands[t])) + veda + 1)  # + the Dhoni
        pts += 15 if k("bra") and veda else 0
        pts += 15 if fossil_winner == t else 0
        totals[t] = pts
    order = sorted(totals, key=lambda t: (-totals[t], -((t - s.first) % n)))
    ranks = [len(totals) + 1] * n
    for i, t in enumerate(order):
        ranks[t] = i + 1
    return tuple(totals.get(t) for t in range(n)), tuple(ranks)


OPTION_SETS = list(itertools.product([False, True], [1, 4, 7, 10], [-1, 1], [False, True]))


@pytest.mark.parametrize("chunk", range(4))
def test_engine_agrees_with_independent_oracles(chunk):
    """Random and AI play, every option combination: legal lists, Oceans, scores and ranks."""
    for seed in range(chunk * 100, chunk * 100 + 100):
        rng = random.Random(seed)
        n = 2 + seed % 4
        oh, vp, fs, fa = OPTION_SETS[seed % len(OPTION_SETS)]
        opts = {"open_hands": oh, "veda_price": vp, "first_seat": fs, "fossil_all_players": fa}
        s = E.setup(seed, n, opts)
        ai = seed % 3 == 0
        while E.outcome(s) is None:
            legal = E.legal_actions(s, s.active)
            assert legal == oracle_legal(s), (seed, s.step)
            a = E.choose(E.view(s, s.active), legal) if ai else rng.choice(legal)
            before = s.island
            s = play(E, s, s.active, a).state
            assert all(y == x for x, y in zip(before, s.island) if x != EMPTY and IS_OCEAN[x])
        assert (E.outcome(s).scores, E.outcome(s).ranks) == oracle_result(s), seed


def test_the_oracles_can_fail(monkeypatch):
    """The oracles are not the engine's code: break a rule in the engine and they disagree."""
    s = rig(fresh(), hands={0: ["gol1", "sil1", "cop1"]}, island={"a1": "dem1", "b1": "man1"},
            dhoni={1: "dhx"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    assert oracle_legal(s) == E.legal_actions(s, 0)
    # payments that overpay (reducible ones) offered too
    monkeypatch.setattr(legal_mod, "_PAY_CACHE", {})
    monkeypatch.setattr(legal_mod, "_irreducible", lambda g, si, c, price: [
        p for p in itertools.product(range(g + 1), range(si + 1), range(c + 1))
        if 6 * p[0] + 3 * p[1] + p[2] >= price])
    assert oracle_legal(s) != E.legal_actions(s, 0)
    # a Fossil majority worth 10 instead of 15
    monkeypatch.setattr(scoring_mod, "FOSSIL_MAJORITY", 10)
    s = rig(fresh(), hands={0: ["fos1"]}, dhoni={0: "dhx"}, island={"a1": "dem1"}, round=3, active=0)
    s, _ = act(s, "discard a1")
    assert E.outcome(s).scores == (10, None) and oracle_result(s)[0] == (15, None)


# ------------------------------------------------------------------ options: defaults (docs/rules/pralaya.md#options)

def test_option_defaults():
    assert E.default_options() == {"open_hands": False, "veda_price": 4, "first_seat": -1,
                                   "fossil_all_players": False}
    s = E.setup(5, 3, {})
    v = E.view(s, None)
    assert v["options"] == E.default_options() and v["veda"]["price"] == 4
    assert all(p["hand"] is None for p in v["players"])  # hands hidden by default
    # the Fossil majority is among escaped seats by default: a stranded seat with more does not block
    s = rig(fresh(3), hands={0: ["fos1"], 2: ["fos2", "fos3"]}, dhoni={0: "dhx", 1: "dh4"},
            island={"a1": "dem1"}, round=4, active=0)
    s, _ = act(s, "discard a1")
    assert E.outcome(s).breakdown[0]["Fossils"] == 15


def test_setup_redeal_runs_inside_setup(monkeypatch):
    """docs/rules/pralaya.md#setup-redeal through ``setup`` itself: an all-Ocean first island is shuffled and dealt again."""
    calls = []

    class Rigged(random.Random):
        def shuffle(self, x):  # the first shuffle puts every Ocean on top
            calls.append(len(x))
            if len(calls) == 1:
                x.sort(key=lambda c: not IS_OCEAN[c])
            else:
                super().shuffle(x)

    monkeypatch.setattr(state_mod.random, "Random", Rigged)
    s = E.setup(1, 2, {"first_seat": 0})
    assert calls == [85, 85]
    assert any(c != EMPTY and not IS_OCEAN[c] for c in s.island)
    assert sorted(list(s.island) + list(s.deck)) == list(range(85))


def test_setup_events_match_the_first_start():
    """``events_on_setup`` repeats exactly the turn event the first START produced."""
    for seed in range(200):
        n = 2 + seed % 4
        opts = E.resolve_options({})
        s, ev = begin(deal(seed, n, opts))
        assert [(e.kind, e.text, dict(e.data)) for e in E.events_on_setup(s)] == \
            [(e.kind, e.text, dict(e.data)) for e in ev]
    s = rig(fresh(), island={"b2": "urn1", "c1": "gol1"})  # round 1, V 1, nothing affordable
    assert E.events_on_setup(s)[0].text == "Round 1 · {s0}'s turn · 1 Vitality · nothing affordable"


# ------------------------------------------------------------------ events, exactly (docs/rules/pralaya.md#turn)

def test_every_event_kind_and_its_data():
    s = rig(fresh(), hands={0: ["sil1", "cop1"]}, island={"a1": "dem1", "b2": "man1", "c5": "gre1"},
            deck_top=["fos1", "oce3"], round=2, active=0)
    s, ev = act(s, "take b2")
    assert [(e.kind, dict(e.data)) for e in ev] == [("take", {"seat": 0, "cell": "b2", "card": "man1"})]
    s, ev = act(s, "done")
    assert [(e.kind, dict(e.data)) for e in ev] == [("done", {"seat": 0})]
    assert ev[0].text == "{s0} is done collecting"
    s, ev = act(s, "buy veda 0g 1s 1c")
    assert [(e.kind, dict(e.data)) for e in ev] == [
        ("buy", {"seat": 0, "card": "ve1", "paid": ["sil1", "cop1"]}),
        ("refill", {"cell": "b2", "card": "fos1"}),
        ("turn", {"seat": 1, "round": 2, "vitality": 3})]
    assert ev[0].text == "{s0} buys a Veda with 1 silver and 1 copper"
    assert ev[1].text == "b2 refilled: Fossil"
    assert ev[2].text == "Round 2 · {s1}'s turn · 3 Vitality"
    s, ev = act(s, "take a1", "done", "pass")
    assert [e.kind for e in ev] == ["take", "done", "pass", "refill", "turn"]
    assert ev[2].text == "{s1} buys nothing" and dict(ev[2].data) == {"seat": 1}
    assert dict(ev[3].data) == {"cell": "a1", "card": "oce3"}
    assert dict(ev[4].data) == {"seat": 0, "round": 3, "vitality": 4}  # the Veda counts now
    assert all(e.public for e in ev)


@pytest.mark.parametrize("reason,text", [
    ("last_card", "The game ends: only one relic was left at the start of the turn."),
    ("all_escaped", "The game ends: every player has escaped."),
    ("island_empty", "The game ends: only Oceans are left on the island."),
])
def test_end_events(reason, text):
    if reason == "last_card":
        s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
        moves = ["take a1", "pass"]
    elif reason == "all_escaped":
        s = rig(fresh(), hands={0: ["gol1", "cop1"]}, dhoni={1: "dhx"}, island={"a1": "dem1", "a2": "man1"},
                round=2, active=0)
        moves = ["take a1", "done", "buy dhoni 1g 0s 1c"]
    else:
        s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, deck_top=["oce1", "oce2"], round=2, active=0)
        moves = ["take a1", "take a2", "pass"]
    s, ev = act(s, *moves)
    assert ev[-1].kind == "end" and dict(ev[-1].data) == {"reason": reason} and ev[-1].text == text
    assert s.end_reason == reason


# ------------------------------------------------------------------ texts a player reads

def test_headline_says_one_point():
    s = rig(fresh(), hands={0: ["cop1"]}, dhoni={0: "dhx"}, island={"a1": "dem1"}, round=3, active=0)
    s, _ = act(s, "discard a1")
    assert E.outcome(s).scores == (1, None)
    assert E.view(s, None)["headline"] == "Game over · {s0} wins with 1 point"


def test_non_canonical_text_given_to_apply_gets_an_honest_reason():
    """``apply`` takes canonical text only (``play`` parses first). Given another spelling of a
    legal action it refuses, and the reason must say so rather than invent a rule problem."""
    s = rig(fresh(), island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    assert "take a1" in E.legal_actions(s, 0)
    with pytest.raises(IllegalAction) as err:
        E.apply(s, 0, "TAKE  A1")
    assert err.value.reason == "`TAKE A1` is not written the canonical way: send `take a1`."
    assert play(E, s, 0, "TAKE  A1").action == "take a1"
    with pytest.raises(IllegalAction) as err:  # an illegal action keeps its own reason
        E.apply(s, 0, "Done")
    assert err.value.reason == "You must take at least one card before `done`."


def test_labels_of_an_ocean_cell_name_no_cost():
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    assert E.action_label(s, 0, "take a2") == "Take a2 · Ocean (cannot be taken)"


@pytest.mark.parametrize("hand,action,text", [
    (["gol1", "sil1", "cop1"], "buy dhoni 1g 1s 1c",
     "{s0} buys Dhoni X with 1 gold, 1 silver and 1 copper, and escapes"),
    (["gol1", "cop1", "cop2"], "buy dhoni 1g 0s 2c", "{s0} buys Dhoni X with 1 gold and 2 copper, and escapes"),
    ([], "buy dhoni 0g 0s 0c", "{s0} buys Dhoni X with no coins and escapes"),
    (["sil1"], "buy dhoni 0g 1s 0c", "{s0} buys Dhoni X with 1 silver and escapes"),
    (["sil1", "sil2"], "buy veda 0g 2s 0c", "{s0} buys a Veda with 2 silver"),
])
def test_buy_texts_read_as_a_sentence(hand, action, text):
    """The payment is a plain English list, and 'and escapes' is not read as one more item."""
    s = rig(fresh(), hands={0: hand}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    s, ev = act(s, action)
    assert ev[0].kind == "buy" and ev[0].text == text


def test_rules_summary_states_the_end_conditions_as_the_rulebook_does():
    """/rules shows this text: the last-relic end comes after that turn (its player still
    collects and may buy), and the all-Ocean end is checked after the refill."""
    text = " ".join(E.summary.split())
    assert "after a turn that started with only one relic on the island" in text
    assert "only Oceans are left after the refill" in text
    assert "at least one relic" in text


def test_a_turn_with_nothing_to_take_and_nothing_to_buy_passes_by_itself():
    """Round 1, 2 players: seat 0 (V 1) can take nothing and escapes on Dhoni X for free; seat 1
    (V 2) can take neither 3-cost relic and cannot pay Dhoni 7 or the Veda, so its turn runs
    START -> BUY skipped -> END by itself, with no refill, and seat 0 discards in round 2."""
    s = rig(fresh(), island={"a1": "gol1", "b2": "bra1"})
    assert s.step == 2 and E.legal_actions(s, 0) == ["buy dhoni 0g 0s 0c", "pass"]
    s, ev = act(s, "buy dhoni 0g 0s 0c")
    assert [(e.kind, dict(e.data)) for e in ev] == [
        ("buy", {"seat": 0, "card": "dhx", "paid": []}),
        ("turn", {"seat": 1, "round": 1, "vitality": 2}),
        ("turn", {"seat": 0, "round": 2, "vitality": 0})]
    assert ev[1].text == "Round 1 · {s1}'s turn · 2 Vitality · nothing affordable"
    assert ev[2].text == "Round 2 · {s0}'s turn · escaped: discards a relic"
    assert s.active == 0 and s.round == 2 and E.view(s, 0)["step"] == "discard"
    assert E.legal_actions(s, 0) == ["discard a1", "discard b2"] and s.hands == ((), ())
