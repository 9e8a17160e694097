"""The Kathai view: the typed schema through a game, what each viewer may see."""

from __future__ import annotations

import json
import random
from typing import get_type_hints

from engines.base import (
    VIEW_KEYS,
)
from engines.kathai import ENGINE as E
from engines.kathai import view as kv
from engines.kathai.positions import build
from engines.kathai.state import OVER
from tests.kathai.helpers import go


def _keys(td: type) -> set[str]:
    return set(get_type_hints(td))


def test_views_match_the_typed_dicts_through_a_game() -> None:
    rng = random.Random(2)
    s = E.setup(2, 4, {})
    seen_offer = seen_over = False
    steps = 0
    while True:
        for viewer in (None, 0, 1, 2, 3):
            v = E.view(s, viewer)
            json.dumps(v)
            assert set(v) == _keys(kv.KathaiView) and set(VIEW_KEYS) <= set(v)
            assert all(set(slot) == _keys(kv.PriceSlot) for slot in v["market"])
            assert all(set(p) == _keys(kv.PlayerView) for p in v["players"])
            assert all(set(x) == _keys(kv.SaleView) for x in v["sales"])
            if v["lock"] is not None:
                assert set(v["lock"]) == _keys(kv.LockView)
            if v["offer"] is not None:
                seen_offer = True
                assert set(v["offer"]) == _keys(kv.OfferView)
            if viewer is None:
                assert v["me"] is None
            else:
                me = v["me"]
                assert set(me) == _keys(kv.MeView)
                assert all(set(c) == _keys(kv.CardView) for c in me["hand"])
                assert all(set(x) == _keys(kv.SellNow) for x in me["sell_now"])
        if s.step == OVER:
            seen_over = True
            assert v["outcome"] is not None and v["sheet"] is not None
            break
        q = E.to_move(s)[0]
        legal = E.legal_actions(s, q)
        a = E.choose(E.view(s, q), legal) if rng.random() < 0.8 else rng.choice(legal)
        s = E.apply(s, q, a)[0]
        steps += 1
    assert seen_offer and seen_over and steps > 50


# --------------------------------------------------------------------------- views


def test_views_hide_hands_pile_and_foreign_offers() -> None:
    s = build(n=4, hands=["t1 t2", "t3 t4", "t5 t30", "t40 t41 t42 t43 t44 t45 t46"])
    s = go(s, 0, "offer all t1 t2 for silk 1")
    for viewer in (None, 0, 1, 2, 3):
        text = json.dumps(E.view(s, viewer))
        for secret in E.secrets(s, viewer):
            assert secret not in text
    assert E.view(s, 1)["offer"]["give"][0]["id"] == "t1"
    assert E.view(s, 3)["offer"]["give"] is None and E.view(s, None)["offer"]["give"] is None
    assert E.view(s, None)["me"] is None
    v = E.view(s, 2)
    assert v["me"]["offer_for_me"] and v["me"]["eligible"] == ["t5", "t30"]
    assert v["offer"]["awaiting"] == [1, 2] and v["offer"]["skipped"] == [3]


def test_view_sell_now_and_lock_card_for_its_owner() -> None:
    s = build(hands=["t5 t13 t31 t40 t41", "t7"], lock=("gold", "tea", "t8", 0))
    me = E.view(s, 0)["me"]
    salt = next(x for x in me["sell_now"] if x["goods"] == "salt")
    assert salt == {
        "goods": "salt",
        "pos": 2,
        "min": 5,
        "items": 7,
        "cards": 4,
        "can_sell": True,
        "points": 6,
    }
    assert me["lock_card"] == "t8" and E.view(s, 1)["lock"]["card"] is None
    assert E.view(s, None)["lock"]["pair"] == ["gold", "tea"]
