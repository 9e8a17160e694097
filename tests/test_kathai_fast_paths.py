"""Kathai's shortcuts past frozen-dataclass ``__init__`` build the same values as the classes."""

from __future__ import annotations

import dataclasses
import pickle

from engines.base import Event
from engines.kathai import apply as flow
from engines.kathai.positions import build
from engines.kathai.state import ALL, Offer, declined_by, upd


def test_event_shortcut_equals_event() -> None:
    assert [f.name for f in dataclasses.fields(Event)] == ["kind", "text", "data", "private_to", "twin"]
    twin = Event("trade", "{s0} and {s1} trade.", {"seat": 1})
    want = Event("trade", "{s0} gives t3.", {"seat": 1, "given": ["t3"]}, private_to=frozenset({0, 1}), twin=twin)
    got = flow._event("trade", "{s0} gives t3.", {"seat": 1, "given": ["t3"]}, frozenset({0, 1}),
                      flow._event("trade", "{s0} and {s1} trade.", {"seat": 1}))
    assert got == want and repr(got) == repr(want)
    assert pickle.loads(pickle.dumps(got)) == want
    assert flow._event("pass", "{s2} ends the turn.", {"seat": 2}) == Event("pass", "{s2} ends the turn.", {"seat": 2})


def test_declined_by_and_upd_equal_the_constructors() -> None:
    o = Offer(by=0, target=ALL, give=(3, 5), want=1, k=2, addressees=(1, 2), skipped=(), declined=(1,))
    assert declined_by(o, 2) == dataclasses.replace(o, declined=(1, 2))
    assert o.declined == (1,)
    s = build(3, hands=["t1 t2", "t3", "t4"])
    assert upd(s, active=2, traded=True) == dataclasses.replace(s, active=2, traded=True)
    assert s.active == 0 and not s.traded
