"""The Kathai view follows its schema (``engines.kathai.view.KathaiView``) for every viewer."""
from __future__ import annotations

import json
import random
from typing import get_type_hints

from engines.base import VIEW_KEYS
from engines.kathai import ENGINE as E
from engines.kathai import view as kv
from engines.kathai.state import OVER


def _keys(td) -> set[str]:
    return set(get_type_hints(td))


def test_views_match_the_typed_dicts_through_a_game():
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
