"""The Ra engine's speed devices keep the outward results: the written-out shuffle draws what
``random.Random.shuffle`` draws, set-up builds the same state as the dataclass constructor, and
events and states come out as the real classes, equal to ones built the ordinary way."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engines import base
from engines.base import Event
from engines.ra import data
from engines.ra import state as ra_rng
from engines.ra.rules import RaEngine
from engines.ra.state import State, new_state

ENGINE = RaEngine()


@pytest.mark.parametrize("length", [0, 1, 2, 3, 5, 17, 180, 200, 257])
def test_shuffle_draws_what_random_shuffle_draws(length: int) -> None:
    for seed in range(40):
        a, b = list(range(length)), list(range(length))
        ra, rb = random.Random(seed), random.Random(seed)
        ra.shuffle(a)
        ra_rng.shuffle(rb, b)
        assert a == b
        assert ra.getstate() == rb.getstate()


def test_setup_equals_the_constructor_and_consumes_the_rng_as_shuffle_does() -> None:
    for n in range(2, 6):
        for traders in (True, False):
            for seed in range(10):
                s = ENGINE.setup(seed, n, {"traders": traders})
                assert type(s) is State
                assert s == State(**{f.name: getattr(s, f.name) for f in dataclasses.fields(State)})
                rng = random.Random(seed)
                sets = list(data.SUN_SETS[n])
                rng.shuffle(sets)
                bag = sorted(s.bag)
                rng.shuffle(bag)
                assert tuple(bag) == s.bag
                assert s.up == tuple(tuple(sorted(x)) for x in sets)


def test_new_state_refuses_missing_or_unknown_fields() -> None:
    s = ENGINE.setup(1, 3, {})
    values = {f.name: getattr(s, f.name) for f in dataclasses.fields(State)}
    assert new_state(**values) == s
    del values["bag"]
    with pytest.raises(TypeError):
        new_state(**values)
    with pytest.raises(TypeError):
        new_state(**{**dataclasses.asdict(s), "colour": 1})


def test_apply_returns_real_states_and_events_and_leaves_the_old_state_alone() -> None:
    for n in (2, 3, 5):
        rng = random.Random(n)
        s = ENGINE.setup(n, n, {})
        while ENGINE.outcome(s) is None:
            seat = base.first_awaited(ENGINE, s)
            before = dataclasses.asdict(s)
            s2, events = ENGINE.apply(s, seat, rng.choice(ENGINE.legal_actions(s, seat)))
            assert dataclasses.asdict(s) == before
            assert type(s2) is State and type(events) is list
            with pytest.raises(dataclasses.FrozenInstanceError):
                s2.step = 0  # type: ignore[misc]
            for e in events:
                assert type(e) is Event
                assert e == Event(e.kind, e.text, dict(e.data))
                assert list(vars(e)) == ["kind", "text", "data", "private_to", "twin"]
            s = s2
