"""What the host asks in Phraya: the controls of each step and the labels of every listed move."""

from __future__ import annotations

import random

from engines.phraya import ENGINE as E
from engines.phraya.positions import build
from engines.phraya.state import ACT, CARD, MOVE, State
from engines.prompt import rows
from tests.phraya.helpers import act


def _label(s: State, action: str) -> str:
    lab = E.action_label(s, 0, action)
    assert lab.lower().startswith(action.lower()) and " · " in lab and len(lab) <= 80
    return lab


def test_act_prompt_groups() -> None:
    s = build(
        4,
        boats={0: "h22"},
        barge="x21",
        step=ACT,
        fill_boats=True,
        players={0: {"coins": 30, "goods": {"veg": 0}}},
    )
    p = E.prompt(s, 0)
    labels = [str(getattr(c, "label", "")) for c in p.controls]
    assert labels[-1] == "End" and any("King" in lab for lab in labels)
    assert rows(p.controls) <= 4


def test_every_listed_move_says_what_it_does() -> None:
    rng = random.Random(7)
    for seed in (3, 4):
        s = E.setup(seed, 3, {"starting_boats": seed == 4})
        for _ in range(300):
            if E.outcome(s) is not None:
                break
            seat = E.to_move(s)[0]
            for a in E.legal_actions(s, seat):
                lab = E.action_label(s, seat, a)
                assert lab.lower().startswith(a) and " · " in lab and len(lab) <= 80, (a, lab)
            s, _ = E.apply(s, seat, E.playout_action(s, seat, rng))


def test_labels_carry_the_facts() -> None:
    s = build(
        3,
        step=MOVE,
        boats={0: "h12"},
        fill_boats=True,
        orders_on={"h02s": "r1d"},
        owners={"h02n": 1},
        prices={"meat": 6},
        players={0: {"goods": {"fish": 1, "meat": 1}}},
    )
    move = _label(s, "move h02")
    assert "meat 6c" in move and "orange" in move and "fish+meat" in move and "deliver" in move
    a = act(
        orders_on={"h02s": "r1d"},
        owners={"h02n": 1},
        prices={"meat": 6},
        players={0: {"goods": {"fish": 1, "meat": 0}, "coins": 20}},
    )
    buy = _label(a, "buy h02n 1")
    assert "1 meat for 6c" in buy and "orange" in buy
    m = build(3, step=CARD, boats={0: "h12"}, fill_boats=True)
    assert "Haggle" in _label(m, "play b2") and "Merchant" in _label(m, "play b2")
    mer = build(3, step=3, boats={0: "h12"}, fill_boats=True, pending="mer 1-1 +1/-1", card="b2")
    assert "fish/meat" in _label(mer, "merchant +1")
    t = build(3, step=ACT, boats={0: "h00"}, fill_boats=True, players={0: {"goods": {"veg": 1}}})
    assert "2 VP" in _label(t, "temple veg") and "veg" in _label(t, "temple veg")


def test_the_terminal_list_and_the_move_menu_show_the_description() -> None:
    from bot.offline.wording import description
    from engines.prompt import Pick, walk

    s = build(3, step=MOVE, boats={0: "h12"}, fill_boats=True, players={0: {"rowers": 4}})
    legal = E.legal_actions(s, 0)
    assert len(legal) > 10  # a menu, not buttons
    for a in legal:
        assert description(a, E.action_label(s, 0, a))
    picks = [c for c in walk(E.prompt(s, 0).controls) if isinstance(c, Pick)]
    assert picks and all(ch.description for ch in picks[0].choices)
    assert any("order" in ch.description for ch in picks[0].choices)


def test_autocomplete_matches_words_of_the_description() -> None:
    s = build(
        3,
        step=MOVE,
        boats={0: "h12"},
        fill_boats=True,
        orders_on={"h02s": "r1d"},
        players={0: {"goods": {"fish": 1, "meat": 1}}},
    )
    found = E.complete(s, 0, "deliver")
    assert found and all(v.startswith("move ") for v, _ in found)
    assert ("move h02", E.action_label(s, 0, "move h02")) in found


def test_labels_keep_basket_goods_hidden() -> None:
    s = build(3, step=ACT, boats={0: "v00"}, fill_boats=True, players={0: {"coins": 20}})
    tile = s.stall_baskets[s.board.baskets.index("v00e")]
    from engines.phraya.data import BASKET

    lab = _label(s, "basket")
    assert str(BASKET[tile][2]) in lab and f"{BASKET[tile][0]}/" not in lab


def test_a_delivered_order_is_named_as_it_was_listed() -> None:
    s = act(orders_on={"h02s": "r1d"}, players={0: {"goods": {"fish": 1, "meat": 1}}})
    label = E.action_label(s, 0, "deliver")
    _, events = E.apply(s, 0, "deliver")
    text = " ".join(e.text for e in events if e.kind == "deliver")
    for part in ("h02s", "fish+meat"):
        assert part in label and part in text
    assert "r1d" not in text and "r1d" not in label


def test_the_icons_name_the_pieces_of_the_controls() -> None:
    """Buying, selling or owning a stall carries its goods (the one its label names); a discard,
    a rower or a Temple offering the goods paid; the King, the Scribe, a basket and a card their
    piece; moves and prices no icon (docs/playing.md#emojis)."""
    from engines.phraya import icons
    from engines.phraya.data import GOODS
    from tests.icon_checks import controls, random_prompts

    seen: set[str] = set()
    pieces = {"king": "crown", "scribe": "scroll", "basket": "basket", "play": "card"}
    for _, _, p in random_prompts("phraya", seeds=2):
        for action, label, icon in controls(p):
            seen.add(icon)
            verb, *args = action.split()
            if verb in ("buy", "sell", "stall"):
                good = icon.removeprefix("phraya_")
                assert good in GOODS and f" {good}" in label, (label, icon)
            elif verb in ("discard", "rower", "temple"):
                assert icon == f"phraya_{args[0]}", action
            else:
                assert icon == (f"phraya_{pieces[verb]}" if verb in pieces else ""), action
    assert {f"phraya_{g}" for g in GOODS} | {"phraya_crown", "phraya_card"} <= seen
    assert seen - {""} <= set(icons.KEYS)
