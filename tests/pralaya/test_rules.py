"""Pralaya rules: each ruling (the test names its anchor in docs/rules/pralaya.md), the options
(docs/rules/pralaya.md#options), notation, events, invariants (docs/rules/pralaya.md#invariants), the
fast paths against plain computations, and an audit by two independent oracles written from the rules
(legal actions and scoring) over random games."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from engines.base import (
    BadNotation,
    BadOption,
    GameOver,
    IllegalAction,
    NotYourTurn,
    play,
    replay,
    state_fingerprint,
)
from engines.fastcopy import replace as evolve
from engines.pralaya import data
from engines.pralaya import legal as legal_mod
from engines.pralaya import scoring as scoring_mod
from engines.pralaya.apply import begin
from engines.pralaya.legal import DISCARD_TEXT, TAKE_TEXT, buy_actions, buy_texts, can_buy, legal
from engines.pralaya.notation import ACTION_BOUND
from engines.pralaya.positions import rig
from engines.pralaya.scoring import category_points, score_table
from engines.pralaya.state import (
    BUY,
    CARD_CODE,
    CELLS,
    COLLECT,
    DISCARD,
    EMPTY,
    IS_OCEAN,
    N_CARDS,
    NEVER,
    OVER,
    State,
    deal,
    deal_island,
    island_avail,
    island_costs,
    shuffle_deck,
)
from tests.pralaya.helpers import E, act, cell, fresh, me, random_game, result


def simple(s: State) -> str:
    """A plain policy: take the first card, then `done`; never buy; discard the first cell."""
    legal = E.legal_actions(s, s.active)
    if s.step == 0:
        return "done" if "done" in legal else legal[0]
    return "pass" if s.step == 2 else legal[0]


def advance_to(s: State, seat: int) -> State:
    """Play ``simple`` moves (at least one) until ``seat`` starts a turn."""
    s, _ = act(s, simple(s))
    while s.active != seat:
        s, _ = act(s, simple(s))
    return s


COST = {r.code: r.cost for r in data.RELICS if r.cost is not None}  # (Oceans cannot be taken)


def oracle_legal(s: State) -> list[str]:
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
        assert top.price is not None  # (Dhoni X is handled above)
        out += [f"buy dhoni {x}g {y}s {z}c" for x, y, z in minimal(top.price)]
    if not s.veda[seat]:
        out += [f"buy veda {x}g {y}s {z}c" for x, y, z in minimal(s.veda_price)]
    return sorted(out)


def oracle_result(s: State) -> tuple[tuple[int | None, ...], tuple[int, ...]]:
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


def _plain_legal(s: State) -> list[str]:
    costs = island_costs(s.island)
    if s.step == COLLECT:
        names = TAKE_TEXT[len(costs)]
        return (["done"] if s.taken else []) + [names[i] for i, c in enumerate(costs) if c <= s.v_left]
    if s.step == DISCARD:
        return [DISCARD_TEXT[len(costs)][i] for i, c in enumerate(costs) if c != NEVER]
    return [*buy_actions(s), "pass"]


def test_ruling_1_oceans_are_dealt_never_taken_discarded_or_refilled() -> None:
    # docs/rules/pralaya.md#oceans
    s = fresh()
    assert sum(IS_OCEAN[c] for c in s.deck + s.island if c >= 0) == 22
    ocean_cell = next(i for i, c in enumerate(s.island) if IS_OCEAN[c])
    name = data.ROW_LETTERS[ocean_cell // 5] + str(ocean_cell % 5 + 1)
    if s.step == 0:
        with pytest.raises(IllegalAction, match="Ocean"):
            play(E, s, s.active, f"take {name}")
    esc = rig(s, dhoni={0: "dhx"}, round=2, active=0)
    with pytest.raises(IllegalAction, match="Ocean"):
        play(E, esc, 0, f"discard {name}")
    # an Ocean cell never changes, whatever happens
    for seed in range(30):
        states = random_game(seed, 2 + seed % 4, check=False)
        for a, b in zip(states, states[1:], strict=False):
            for x, y in zip(a.island, b.island, strict=True):
                if x >= 0 and IS_OCEAN[x]:
                    assert y == x


def test_ruling_2_at_least_one_relic_unless_none_affordable() -> None:
    # docs/rules/pralaya.md#at-least-one-relic
    s = rig(fresh(), island={"a1": "dem1", "b2": "gol1"}, round=2, active=0)
    with pytest.raises(IllegalAction) as err:
        play(E, s, 0, "done")
    assert err.value.reason == "You must take at least one card before `done`."
    with pytest.raises(IllegalAction, match="Take at least one card first"):
        play(E, s, 0, "pass")
    # second seat of round 1 (V 2) and only 3-cost relics: nothing is taken, BUY follows
    s = rig(fresh(first=1), island={"a1": "gol1", "b2": "bra1"}, active=0)
    assert s.v_start == 2 and s.step == 2 and s.turn_cards == ()


def test_ruling_3_one_card_at_a_time_leftover_lost() -> None:
    # docs/rules/pralaya.md#one-relic-at-a-time
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1", "c5": "gre1"}, round=2, active=0)
    s, ev = act(s, "take a1")
    assert [e.kind for e in ev] == ["take"] and s.v_left == 2 and s.step == 0
    s, _ = act(s, "done", "pass")
    s = advance_to(s, 0)
    assert s.v_start == 3 and s.v_left == 3


def test_ruling_4_round_one_vitality_two_players_and_veda_next_turn() -> None:
    # docs/rules/pralaya.md#round-one-vitality
    s = rig(
        fresh(first=1), hands={0: ["gol1"]}, island={"a1": "dem1", "a2": "man1", "b1": "gre1", "c1": "fos1"}
    )
    assert s.active == 1 and s.v_start == 1
    s, _ = act(s, "take a1")  # V 1 spent: BUY comes by itself
    assert s.step == 2
    s, _ = act(s, "pass")
    assert s.active == 0 and s.v_start == 2 and s.round == 1
    s, _ = act(s, "take a2", "take b1")
    s, ev = act(s, "buy veda 1g 0s 0c")
    assert any(e.kind == "buy" and e.data["card"] == "ve1" for e in ev)
    assert s.round == 2 and s.active == 1 and s.v_start == 3
    s = advance_to(s, 0)
    assert s.v_start == 4


def test_ruling_5_buy_with_coins_just_taken_and_once_per_turn() -> None:
    # docs/rules/pralaya.md#one-buy-a-turn
    s = rig(fresh(), island={"a1": "gol1", "b1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1")
    assert s.step == 2 and "buy veda 1g 0s 0c" in E.legal_actions(s, 0)
    s, _ = act(s, "buy veda 1g 0s 0c")
    assert s.active == 1 and s.veda[0] == 1
    # a seat with a Veda is offered no Veda, and may buy a Dhoni later
    s = rig(
        fresh(),
        hands={0: ["sil1", "sil2", "sil3"]},
        veda=[0],
        dhoni={1: "dhx"},
        island={"a1": "dem1", "b1": "man1"},
        round=3,
        active=0,
    )
    s, _ = act(s, "take a1", "done")
    legal = E.legal_actions(s, 0)
    assert not any(a.startswith("buy veda") for a in legal) and "buy dhoni 0g 3s 0c" in legal
    with pytest.raises(IllegalAction, match="already have a Veda"):
        play(E, s, 0, "buy veda 0g 2s 0c")
    s, _ = act(s, "buy dhoni 0g 3s 0c")
    assert s.dhoni[0] >= 0 and s.veda[0] == 1


def test_ruling_6_irreducible_payments_and_no_change() -> None:
    # docs/rules/pralaya.md#irreducible-payments
    for g in range(6):
        for si in range(7):
            for c in range(5):
                for price in (2, 4, 7, 10):
                    for a in buy_texts(g, si, c, price, 0):
                        x, y, z = (int(t[:-1]) for t in a.split()[2:])
                        total = 6 * x + 3 * y + z
                        smallest = 1 if z else 3 if y else 6
                        assert total >= price and total - smallest < price
    s = rig(fresh(), hands={0: ["gol1", "cop1"]}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    with pytest.raises(IllegalAction, match="more than needed"):
        play(E, s, 0, "buy veda 1g 0s 1c")
    s, _ = act(s, "buy veda 1g 0s 0c")
    assert "gol1" in E.view(s, None)["discard"] and me(E.view(s, 0))["hand"] == {"cop": 1, "dem": 1}


def test_ruling_7_dhoni_x_always_buyable_even_with_no_coins() -> None:
    # docs/rules/pralaya.md#dhoni-x
    s = rig(fresh(), island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s, _ = act(s, "take a1", "done")
    assert "buy dhoni 0g 0s 0c" in E.legal_actions(s, 0)
    s2 = rig(fresh(), hands={0: ["sil1", "cop1"]}, island={"a1": "dem1", "b1": "man1"}, round=2, active=0)
    s2, _ = act(s2, "take a1", "done")
    with pytest.raises(IllegalAction, match="Dhoni X takes all your coins"):
        play(E, s2, 0, "buy dhoni 0g 1s 0c")


def test_ruling_8_escaped_seats_discard_and_keep_coin_points() -> None:
    # docs/rules/pralaya.md#escaped-discard
    s = rig(
        fresh(),
        hands={0: ["sil1", "sil2", "sil3"]},
        dhoni={0: "dhx"},
        island={"a1": "dem1", "b1": "man1"},
        round=2,
        active=0,
    )
    assert s.step == DISCARD
    legal = E.legal_actions(s, 0)
    assert legal == ["discard a1", "discard b1"]
    for bad, match in (
        ("take a1", "escaped"),
        ("buy dhoni 0g 1s 0c", "never buy"),
        ("pass", "escaped"),
        ("done", "escaped"),
    ):
        with pytest.raises(IllegalAction, match=match):
            play(E, s, 0, bad)
    s, ev = act(s, "discard a1")
    assert not any(e.kind == "buy" for e in ev) and s.active == 1
    _, scores, _ = score_table([{"sil": 3}, {}], [False, False], [True, False], 0, False)
    assert scores[0] == 9


def test_ruling_9_refill_row_major_and_empty_cells_are_not_relics() -> None:
    # docs/rules/pralaya.md#refill-row-major
    s = rig(
        fresh(),
        island={"c5": "dem1", "a1": "man1", "b3": "gre1"},
        deck_top=["cop1", "cop2", "cop3"],
        round=2,
        active=0,
    )
    s, ev = act(s, "take c5", "take a1", "take b3")
    s, ev = act(s, "pass")
    assert [(e.data["cell"], e.data["card"]) for e in ev if e.kind == "refill"] == [
        ("a1", "cop1"),
        ("b3", "cop2"),
        ("c5", "cop3"),
    ]
    # two relics, one taken: at the next START exactly one relic is left -> last
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, deck_top=["oce5"], round=2, active=0)
    s, _ = act(s, "take a1", "done", "pass")
    assert s.last and s.active == 1


def test_ruling_10_last_turn_may_buy_and_ends_without_refill() -> None:
    # docs/rules/pralaya.md#last-turn
    s = rig(fresh(first=0), island={"b2": "urn1"})
    assert s.v_start == 1 and s.last and s.step == 2  # the only relic costs 2: nothing taken
    deck = s.deck
    s, ev = act(s, "buy dhoni 0g 0s 0c")
    assert s.step == OVER and s.end_reason == "last_card" and s.deck == deck
    assert cell(s, "b2") == "urn1"
    assert result(s).scores == (0, None)


def test_ruling_11_all_escaped_checked_before_refill() -> None:
    # docs/rules/pralaya.md#all-escaped-before-refill
    s = rig(
        fresh(),
        hands={0: ["sil1", "sil2", "cop1"]},
        dhoni={1: "dhx"},
        island={"a1": "dem1", "b1": "man1", "c1": "gre1"},
        round=3,
        active=0,
    )
    s, ev = act(s, "take a1", "done", "buy dhoni 0g 2s 1c")
    assert s.end_reason == "all_escaped" and cell(s, "a1") is None
    assert not any(e.kind == "refill" for e in ev)
    out = result(s)
    assert out.scores == (2, 0) and out.ranks == (1, 2)
    # the same scoring as any other end; a tie goes to the seat further from the first player
    assert score_table([{}, {}], [False, False], [True, True], 0, False)[0] == (2, 1)


def test_ruling_12_pundit_types_max_13() -> None:
    # docs/rules/pralaya.md#pundit-types
    everything = {code: 1 for code in data.SCORING_TYPES}
    assert category_points(everything, True, True)["Pundits"] == 13
    assert category_points({"pun": 1, "cop": 1, "sil": 1, "gol": 1}, False, False)["Pundits"] == 4


def test_ruling_13_brahmin() -> None:
    # docs/rules/pralaya.md#brahmin
    for pac in range(5):
        assert category_points({"bra": 1, "dem": 3, "pac": pac}, False, True)["Demon Statues"] == 0
    assert category_points({"bra": 1}, True, True)["Brahmin"] == 15
    assert category_points({"bra": 1}, False, True)["Brahmin"] == 0


def test_ruling_14_fossil_majority_among_escaped_only() -> None:
    # docs/rules/pralaya.md#fossil-majority
    counts = [{"fos": 2}, {"fos": 1}, {"fos": 4}]
    assert score_table(counts, [False] * 3, [True, True, False], 0, False)[1][0] == 15
    assert score_table(counts, [False] * 3, [True, True, False], 0, True)[1][0] == 0
    assert score_table([{"fos": 0}, {"fos": 0}], [False] * 2, [True, True], 0, False)[1] == (0, 0)


def test_ruling_15_negative_totals_rank_above_non_escaped() -> None:
    # docs/rules/pralaya.md#negative-totals
    ranks, scores, _ = score_table([{"dem": 1, "pac": 1}, {"gol": 3}], [False] * 2, [True, False], 0, False)
    assert scores == (-6, None) and ranks == (1, 2)


def test_ruling_16_seeded_first_player_and_option() -> None:
    # docs/rules/pralaya.md#first-player
    firsts = {E.setup(seed, 4, {}).first for seed in range(60)}
    assert firsts == {0, 1, 2, 3}
    assert E.setup(9, 4, {}).first == E.setup(9, 4, {}).first
    assert all(E.setup(seed, 3, {"first_seat": 2}).first == 2 for seed in range(5))
    with pytest.raises(BadOption):
        E.setup(1, 3, {"first_seat": 3})


def test_ruling_17_setup_redeals_an_all_ocean_island() -> None:
    # docs/rules/pralaya.md#setup-redeal
    rng = random.Random(4)
    oceans = [i for i in range(N_CARDS) if IS_OCEAN[i]]
    deck = oceans[:15] + [i for i in range(N_CARDS) if i not in oceans[:15]]
    island, rest = deal_island(rng, list(deck), 15)
    assert any(not IS_OCEAN[c] for c in island)
    assert sorted(island + rest) == list(range(N_CARDS))
    island2, _ = deal_island(random.Random(4), list(deck), 15)
    assert island2 == island  # reproducible


def test_ruling_19_piles_hold_n() -> None:
    # docs/rules/pralaya.md#piles-hold-n
    for n in range(2, 6):
        s = E.setup(2, n, {})
        assert E.view(s, None)["veda"]["left"] == n and len(s.dhoni_pile) == n


def test_option_veda_price() -> None:
    for price, expect in (
        (1, ["buy veda 0g 0s 1c", "buy veda 0g 1s 0c", "buy veda 1g 0s 0c"]),
        (10, ["buy veda 1g 1s 1c", "buy veda 1g 2s 0c"]),
    ):
        s = rig(
            fresh(veda_price=price),
            hands={0: ["gol1", "sil1", "sil2", "cop1"]},
            dhoni={1: "dhx"},
            island={"a1": "dem1", "b1": "man1"},
            round=2,
            active=0,
        )
        s, _ = act(s, "take a1", "done")
        assert [a for a in E.legal_actions(s, 0) if a.startswith("buy veda")] == expect
        assert E.view(s, 0)["veda"]["price"] == price
    for bad in (0, 11, "x"):
        with pytest.raises(BadOption):
            E.setup(1, 2, {"veda_price": bad})
    with pytest.raises(BadOption):
        E.setup(1, 2, {"no_such": 1})
    with pytest.raises(BadOption):
        E.setup(1, 6, {})


def test_parse_and_action_space() -> None:
    assert E.parse("  Take   B4 ") == "take b4"
    assert E.parse("PASS") == "pass"
    for bad in (
        "",
        "take",
        "take z9",
        "take b4 b4",
        "buy veda 1g",
        "buy veda 6g 0s 0c",
        "buy boat 0g 0s 0c",
        "discard",
        "done now",
        "xyzzy",
    ):
        with pytest.raises(BadNotation) as err:
            E.parse(bad)
        assert err.value.reason
    with pytest.raises(BadNotation, match="Try `take b4`"):
        E.parse("xyzzy")
    sp2, sp5 = set(E.action_space(2)), set(E.action_space(5))
    assert "take c5" in sp2 and "take c6" not in sp2 and "take c6" in sp5
    assert len(sp5) == 2 + 2 * 18 + 2 * 6 * 7 * 5
    for a in sp5 | sp2:
        assert E.parse(a) == a
    # a cell of a larger island parses, and is illegal on a small one
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    with pytest.raises(IllegalAction, match="no cell c6"):
        play(E, s, 0, "take c6")


def test_turn_and_game_over_errors() -> None:
    s = rig(fresh(), island={"a1": "dem1", "a2": "dem2"}, round=2, active=0)
    with pytest.raises(NotYourTurn):
        play(E, s, 1, "take a1")
    with pytest.raises(NotYourTurn):
        E.apply(s, 1, "take a1")
    assert E.legal_actions(s, 1) == []
    s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
    s, _ = act(s, "take a1", "pass")
    assert s.step == OVER and E.to_move(s) == () and E.legal_actions(s, 0) == []
    with pytest.raises(GameOver):
        E.apply(s, 0, "pass")


def test_invariants_hold_in_random_games_and_bounds() -> None:
    for seed in range(40):
        n = 2 + seed % 4
        opts = {"open_hands": bool(seed % 2), "veda_price": 1 + seed % 10}
        states = random_game(seed, n, opts)
        assert len(states) - 1 <= ACTION_BOUND == 193
        assert states[-1].turns <= 65


def test_invariants_detect_broken_states() -> None:
    s = fresh()
    with pytest.raises(AssertionError):
        E.invariants(dataclasses.replace(s, deck=s.deck[1:]))
    with pytest.raises(AssertionError):
        E.invariants(dataclasses.replace(s, v_left=9))
    bad = dataclasses.replace(s, island=(s.deck[0],) + s.island[1:], deck=(s.island[0],) + s.deck[1:])
    with pytest.raises(AssertionError):  # avail no longer matches
        E.invariants(bad)
    E.invariants(dataclasses.replace(bad, avail=island_avail(bad.island)))


def test_size_limits_of_the_buy_step() -> None:
    for vp in range(1, 11):
        worst = max(
            len(buy_texts(g, si, c, dp, vp)) + 1
            for g in range(6)
            for si in range(7)
            for c in range(5)
            for dp in (-2, -1, 2, 4, 7, 10)
        )
        assert worst <= 15
        if vp == 4:
            assert worst <= 12


def test_replay_and_determinism() -> None:
    rng = random.Random(3)
    s = E.setup(11, 3, {})
    moves = []
    while E.outcome(s) is None:
        a = rng.choice(E.legal_actions(s, s.active))
        moves.append((s.active, a))
        s = play(E, s, s.active, a).state
    assert state_fingerprint(replay(E, 11, 3, {}, moves)) == state_fingerprint(s)
    assert E.setup(11, 3, {}) == E.setup(11, 3, {}) and E.setup(11, 3, {}) != E.setup(12, 3, {})


def test_apply_never_mutates() -> None:
    s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, round=2, active=0)
    before = state_fingerprint(s)
    E.apply(s, 0, "take a1")
    with pytest.raises(IllegalAction):
        E.apply(s, 0, "done")
    assert state_fingerprint(s) == before


@pytest.mark.parametrize("chunk", range(4))
def test_engine_agrees_with_independent_oracles(chunk: int) -> None:
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
            assert all(y == x for x, y in zip(before, s.island, strict=True) if x != EMPTY and IS_OCEAN[x])
        assert (result(s).scores, result(s).ranks) == oracle_result(s), seed


def test_the_oracles_can_fail(monkeypatch: pytest.MonkeyPatch) -> None:
    """The oracles are not the engine's code: break a rule in the engine and they disagree."""
    s = rig(
        fresh(),
        hands={0: ["gol1", "sil1", "cop1"]},
        island={"a1": "dem1", "b1": "man1"},
        dhoni={1: "dhx"},
        round=2,
        active=0,
    )
    s, _ = act(s, "take a1", "done")
    assert oracle_legal(s) == E.legal_actions(s, 0)
    # payments that overpay (reducible ones) offered too
    monkeypatch.setattr(legal_mod, "_PAY_CACHE", {})
    monkeypatch.setattr(
        legal_mod,
        "_irreducible",
        lambda g, si, c, price: [
            p
            for p in itertools.product(range(g + 1), range(si + 1), range(c + 1))
            if 6 * p[0] + 3 * p[1] + p[2] >= price
        ],
    )
    assert oracle_legal(s) != E.legal_actions(s, 0)
    # a Fossil majority worth 10 instead of 15
    monkeypatch.setattr(scoring_mod, "FOSSIL_MAJORITY", 10)
    s = rig(fresh(), hands={0: ["fos1"]}, dhoni={0: "dhx"}, island={"a1": "dem1"}, round=3, active=0)
    s, _ = act(s, "discard a1")
    assert result(s).scores == (10, None) and oracle_result(s)[0] == (15, None)


def test_option_defaults() -> None:
    assert E.default_options() == {
        "open_hands": False,
        "veda_price": 4,
        "first_seat": -1,
        "fossil_all_players": False,
    }
    s = E.setup(5, 3, {})
    v = E.view(s, None)
    assert v["options"] == E.default_options() and v["veda"]["price"] == 4
    assert all(p["hand"] is None for p in v["players"])  # hands hidden by default
    # the Fossil majority is among escaped seats by default: a stranded seat with more does not block
    s = rig(
        fresh(3),
        hands={0: ["fos1"], 2: ["fos2", "fos3"]},
        dhoni={0: "dhx", 1: "dh4"},
        island={"a1": "dem1"},
        round=4,
        active=0,
    )
    s, _ = act(s, "discard a1")
    assert (result(s).breakdown[0] or {})["Fossils"] == 15


def test_setup_redeal_runs_inside_setup(monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/rules/pralaya.md#setup-redeal through ``setup`` itself: an all-Ocean first island is
    shuffled and dealt again."""
    calls = []

    class Rigged(random.Random):
        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]  # the first shuffle puts every Ocean on top
            calls.append(len(x))
            if len(calls) == 1:
                x.sort(key=lambda c: not IS_OCEAN[c])
            else:
                super().shuffle(x)

    monkeypatch.setattr(random, "Random", Rigged)  # the module engines.pralaya.state draws from
    s = E.setup(1, 2, {"first_seat": 0})
    assert calls == [85, 85]
    assert any(c != EMPTY and not IS_OCEAN[c] for c in s.island)
    assert sorted(list(s.island) + list(s.deck)) == list(range(85))


def test_setup_events_match_the_first_start() -> None:
    """``events_on_setup`` repeats exactly the turn event the first START produced."""
    for seed in range(200):
        n = 2 + seed % 4
        opts = E.resolve_options({})
        s, ev = begin(deal(seed, n, opts))
        assert [(e.kind, e.text, dict(e.data)) for e in E.events_on_setup(s)] == [
            (e.kind, e.text, dict(e.data)) for e in ev
        ]
    s = rig(fresh(), island={"b2": "urn1", "c1": "gol1"})  # round 1, V 1, nothing affordable
    assert E.events_on_setup(s)[0].text == "Round 1 · {s0}'s turn · 1 Vitality · nothing affordable"


def test_every_event_kind_and_its_data() -> None:
    s = rig(
        fresh(),
        hands={0: ["sil1", "cop1"]},
        island={"a1": "dem1", "b2": "man1", "c5": "gre1"},
        deck_top=["fos1", "oce3"],
        round=2,
        active=0,
    )
    s, ev = act(s, "take b2")
    assert [(e.kind, dict(e.data)) for e in ev] == [("take", {"seat": 0, "cell": "b2", "card": "man1"})]
    s, ev = act(s, "done")
    assert [(e.kind, dict(e.data)) for e in ev] == [("done", {"seat": 0})]
    assert ev[0].text == "{s0} is done collecting"
    s, ev = act(s, "buy veda 0g 1s 1c")
    assert [(e.kind, dict(e.data)) for e in ev] == [
        ("buy", {"seat": 0, "card": "ve1", "paid": ["sil1", "cop1"]}),
        ("refill", {"cell": "b2", "card": "fos1"}),
        ("turn", {"seat": 1, "round": 2, "vitality": 3}),
    ]
    assert ev[0].text == "{s0} buys a Veda with 1 silver and 1 copper"
    assert ev[1].text == "b2 refilled: Fossil"
    assert ev[2].text == "Round 2 · {s1}'s turn · 3 Vitality"
    s, ev = act(s, "take a1", "done", "pass")
    assert [e.kind for e in ev] == ["take", "done", "pass", "refill", "turn"]
    assert ev[2].text == "{s1} buys nothing" and dict(ev[2].data) == {"seat": 1}
    assert dict(ev[3].data) == {"cell": "a1", "card": "oce3"}
    assert dict(ev[4].data) == {"seat": 0, "round": 3, "vitality": 4}  # the Veda counts now
    assert all(e.public for e in ev)


@pytest.mark.parametrize(
    "reason,text",
    [
        ("last_card", "The game ends: only one relic was left at the start of the turn."),
        ("all_escaped", "The game ends: every player has escaped."),
        ("island_empty", "The game ends: only Oceans are left on the island."),
    ],
)
def test_end_events(reason: str, text: str) -> None:
    if reason == "last_card":
        s = rig(fresh(), island={"a1": "dem1"}, round=2, active=0)
        moves = ["take a1", "pass"]
    elif reason == "all_escaped":
        s = rig(
            fresh(),
            hands={0: ["gol1", "cop1"]},
            dhoni={1: "dhx"},
            island={"a1": "dem1", "a2": "man1"},
            round=2,
            active=0,
        )
        moves = ["take a1", "done", "buy dhoni 1g 0s 1c"]
    else:
        s = rig(fresh(), island={"a1": "dem1", "a2": "man1"}, deck_top=["oce1", "oce2"], round=2, active=0)
        moves = ["take a1", "take a2", "pass"]
    s, ev = act(s, *moves)
    assert ev[-1].kind == "end" and dict(ev[-1].data) == {"reason": reason} and ev[-1].text == text
    assert s.end_reason == reason


def test_a_turn_with_nothing_to_take_and_nothing_to_buy_passes_by_itself() -> None:
    """Round 1, 2 players: seat 0 (V 1) can take nothing and escapes on Dhoni X for free; seat 1
    (V 2) can take neither 3-cost relic and cannot pay Dhoni 7 or the Veda, so its turn runs
    START -> BUY skipped -> END by itself, with no refill, and seat 0 discards in round 2."""
    s = rig(fresh(), island={"a1": "gol1", "b2": "bra1"})
    assert s.step == 2 and E.legal_actions(s, 0) == ["buy dhoni 0g 0s 0c", "pass"]
    s, ev = act(s, "buy dhoni 0g 0s 0c")
    assert [(e.kind, dict(e.data)) for e in ev] == [
        ("buy", {"seat": 0, "card": "dhx", "paid": []}),
        ("turn", {"seat": 1, "round": 1, "vitality": 2}),
        ("turn", {"seat": 0, "round": 2, "vitality": 0}),
    ]
    assert ev[1].text == "Round 1 · {s1}'s turn · 2 Vitality · nothing affordable"
    assert ev[2].text == "Round 2 · {s0}'s turn · escaped: discards a relic"
    assert s.active == 0 and s.round == 2 and E.view(s, 0)["step"] == "discard"
    assert E.legal_actions(s, 0) == ["discard a1", "discard b2"] and s.hands == ((), ())


def test_the_inline_shuffle_draws_as_random_shuffle() -> None:
    for seed in range(500):
        a, b = random.Random(seed), random.Random(seed)
        x, y = list(range(85)), list(range(85))
        a.shuffle(x)
        shuffle_deck(b, y)
        assert x == y
        assert a.getstate() == b.getstate()


def test_legal_lists_from_the_masks_match_the_costs() -> None:
    rng = random.Random(3)
    for n in (2, 3, 4, 5):
        s = fresh(n)
        for _ in range(300):
            island = tuple(rng.choice((-1, -1, *range(85))) for _ in CELLS[n])
            for step in (COLLECT, DISCARD):
                for v in range(5):
                    t = evolve(
                        s,
                        island=island,
                        avail=island_avail(island),
                        step=step,
                        v_left=v,
                        taken=rng.choice((0, 1)),
                    )
                    assert legal(t) == _plain_legal(t) == sorted(_plain_legal(t))


def test_can_buy_is_whether_a_buy_is_listed() -> None:
    s = fresh(3)
    coins = ["gol1", "gol2", "sil1", "sil2", "sil3", "cop1", "cop2", "cop3"]
    rng = random.Random(5)
    seen = set()
    for _ in range(400):
        hand = rng.sample(coins, rng.randrange(len(coins) + 1)) + rng.sample(
            ["dem1", "fos1"], rng.randrange(3)
        )
        veda = rng.choice(([], [0], [1]))
        dhoni = rng.choice((None, {1: "dhx"}, {1: "dhx", 2: "dh4"}, {0: "dhx"}))
        t = rig(s, hands={0: hand}, veda=veda, dhoni=dhoni, round=2, active=0)
        for price in (1, 4, 9, 10):
            u = evolve(t, veda_price=price, step=BUY)
            got = can_buy(u)
            assert got == bool(buy_actions(u))
            seen.add(got)
    assert seen == {True, False}
