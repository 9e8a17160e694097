"""engines.fastcopy: the fast copies agree with their dataclasses reference, field by field and
over whole seeded games of every game."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import FrozenInstanceError, dataclass, field
from typing import Any

import pytest

from engines import base, fastcopy


@dataclass(frozen=True)
class Toy:
    a: int
    b: tuple[int, ...]
    c: str = "x"


@pytest.fixture
def reference() -> Iterator[None]:
    fastcopy.use_reference(True)
    try:
        yield
    finally:
        fastcopy.use_reference(False)


def test_replace_matches_dataclasses_replace() -> None:
    t = Toy(1, (2, 3))
    fast = fastcopy.replace(t, a=5, c="y")
    ref = fastcopy.replace_reference(t, a=5, c="y")
    assert fast == ref == Toy(5, (2, 3), "y")
    assert vars(fast) == vars(ref)
    assert type(fast) is Toy and t == Toy(1, (2, 3))  # the original is unchanged
    with pytest.raises(FrozenInstanceError):
        fast.a = 9  # type: ignore[misc]


def test_update_matches_replace() -> None:
    t = Toy(1, (2, 3))
    fastcopy.remember(t, "_note", "x")
    changes = {"a": 5, "b": ()}
    fast = fastcopy.update(t, changes)
    assert fast == fastcopy.replace_reference(t, **changes) == Toy(5, (), "x")
    assert vars(fast) == vars(fastcopy.replace_reference(t, **changes))
    fastcopy.use_reference(True)
    try:
        assert vars(fastcopy.update(t, changes)) == vars(fast)
    finally:
        fastcopy.use_reference(False)


@pytest.mark.parametrize("ref", [False, True])
def test_thaw_dict_and_make_match_their_reference(ref: bool) -> None:
    t = Toy(1, (2, 3))
    fastcopy.remember(t, "_note", "x")
    fastcopy.use_reference(ref)
    try:
        w, d = fastcopy.thaw_dict(t)
        d["a"] = 5
        d["c"] = "y"
        built = fastcopy.make(Toy, {"a": 1, "b": (), "c": "z", "_note": "y"})
    finally:
        fastcopy.use_reference(False)
    assert w == Toy(5, (2, 3), "y") and type(w) is Toy and w is not t
    assert fastcopy.memo(w, "_note") == "x"  # memo entries ride along
    assert t == Toy(1, (2, 3)) and vars(t)["a"] == 1  # the original is unchanged
    assert vars(w) == vars(fastcopy.thaw_dict_reference(w)[0])
    assert built == Toy(1, (), "z") and fastcopy.memo(built, "_note") == "y"
    ref_built = fastcopy.make_reference(Toy, {"a": 1, "b": (), "c": "z", "_note": "y"})
    assert vars(built) == vars(ref_built)
    with pytest.raises(FrozenInstanceError):
        w.a = 9  # type: ignore[misc]


def test_build_matches_init_and_fills_defaults() -> None:
    assert fastcopy.build(Toy, a=1, b=()) == Toy(1, ()) == fastcopy.build_reference(Toy, a=1, b=())
    assert vars(fastcopy.build(Toy, a=1, b=())) == vars(Toy(1, ()))


def test_memo_entries_ride_along_unseen() -> None:
    t = Toy(1, ())
    fastcopy.remember(t, "_cache", 42)
    assert fastcopy.memo(t, "_cache") == 42 and t == Toy(1, ())
    for copy in (fastcopy.replace(t, a=2), fastcopy.replace_reference(t, a=2), fastcopy.thaw(t)):
        assert fastcopy.memo(copy, "_cache") == 42
    assert base.state_fingerprint(t) == base.state_fingerprint(Toy(1, ()))
    assert "_cache" not in repr(t)
    fastcopy.forget(t, "_cache")
    assert fastcopy.memo(t, "_cache", "gone") == "gone"


def test_peek_reads_what_memo_reads() -> None:
    t = Toy(1, ())
    assert fastcopy.peek(t, "_cache", "none") == fastcopy.memo(t, "_cache", "none") == "none"
    fastcopy.remember(t, "_cache", 42)
    assert fastcopy.peek(t, "_cache", None) == fastcopy.memo(t, "_cache") == 42
    assert vars(t) == {"a": 1, "b": (), "c": "x", "_cache": 42} and t == Toy(1, ())


def test_thaw_and_poke_leave_the_original_alone() -> None:
    t = Toy(1, (2,))
    w = fastcopy.thaw(t)
    fastcopy.poke(w, "a", 7)
    assert w == Toy(7, (2,)) and t == Toy(1, (2,))


def test_work_and_make_match_their_references() -> None:
    t = Toy(1, (2, 3))
    fastcopy.remember(t, "_note", "x")
    w = fastcopy.work(t)
    assert w == fastcopy.work_reference(t) == {"a": 1, "b": (2, 3), "c": "x", "_note": "x"}
    w["a"] = 5  # the work dict is a private copy: the original is unchanged
    assert t == Toy(1, (2, 3)) and fastcopy.work(t)["a"] == 1
    fast = fastcopy.make(Toy, w)
    ref = fastcopy.make_reference(Toy, dict(w))
    assert fast == ref == Toy(5, (2, 3), "x")
    assert vars(fast) == vars(ref) and fastcopy.memo(fast, "_note") == "x"
    assert type(fast) is Toy
    with pytest.raises(FrozenInstanceError):
        fast.a = 9  # type: ignore[misc]


def test_make_from_a_literal_equals_the_constructor() -> None:
    fast = fastcopy.make(Toy, {"a": 1, "b": (), "c": "y"})
    assert fast == Toy(1, (), "y") == fastcopy.make_reference(Toy, {"a": 1, "b": (), "c": "y"})
    assert vars(fast) == vars(Toy(1, (), "y"))
    with pytest.raises(TypeError):  # the reference refuses a missing field, as __init__ does
        fastcopy.make_reference(Toy, {"a": 1})


def test_reference_switch_routes_every_call(reference: None) -> None:
    t = Toy(1, ())
    assert fastcopy.replace(t, a=3) == Toy(3, ())
    assert fastcopy.build(Toy, a=1, b=()) == Toy(1, ())
    w = fastcopy.thaw(t)
    assert w == t and w is not t
    d = fastcopy.work(t)
    d["a"] = 4
    assert fastcopy.make(Toy, d) == Toy(4, ())


def _playthrough(name: str, seed: int) -> list[str]:
    engine = base.get(name)
    rng = random.Random(seed)
    n = engine.max_players
    state = engine.setup(seed, n)
    out = [base.state_fingerprint(state)]
    for _ in range(400):
        awaited = engine.to_move(state)
        if not awaited:
            break
        seat = min(awaited)
        legal = engine.legal_actions(state, seat)
        action = legal[rng.randrange(len(legal))]
        state, events = engine.apply(state, seat, action)
        out.append(action)
        out.extend(e.text for e in events)
        out.append(base.state_fingerprint(state))
    return out


@pytest.mark.parametrize("name", ["kathai", "phraya", "pralaya", "ra"])
def test_whole_games_agree_with_the_reference(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    fast = _playthrough(name, 7)
    calls = 0
    ref_replace, ref_build = fastcopy.replace_reference, fastcopy.build_reference
    ref_make = fastcopy.make_reference

    def counted_replace(obj: Any, /, **changes: Any) -> Any:
        nonlocal calls
        calls += 1
        return ref_replace(obj, **changes)

    def counted_build(cls: type[Any], /, **values: Any) -> Any:
        nonlocal calls
        calls += 1
        return ref_build(cls, **values)

    def counted_make(cls: type[Any], values: Any, /) -> Any:
        nonlocal calls
        calls += 1
        return ref_make(cls, values)

    # in reference mode every fastcopy call that makes an instance goes through these three
    # (looked up at call time; a work dict ends in make)
    monkeypatch.setattr(fastcopy, "replace_reference", counted_replace)
    monkeypatch.setattr(fastcopy, "build_reference", counted_build)
    monkeypatch.setattr(fastcopy, "make_reference", counted_make)
    fastcopy.use_reference(True)
    try:
        ref = _playthrough(name, 7)
    finally:
        fastcopy.use_reference(False)
    assert len(fast) > 20
    assert fast == ref
    if not calls:
        pytest.skip(f"{name} makes no engines.fastcopy call: both runs were the same code")


@dataclass(frozen=True)
class WithFactory:
    a: int
    items: tuple[int, ...] = ()
    notes: list[str] = field(default_factory=list)


def test_build_fills_default_factories_like_init() -> None:
    fast, ref = fastcopy.build(WithFactory, a=1), fastcopy.build_reference(WithFactory, a=1)
    assert fast == ref and vars(fast) == vars(ref)
    assert fastcopy.build(WithFactory, a=1).notes is not fast.notes  # a fresh value each time
    given = fastcopy.build(WithFactory, a=2, notes=["x"])
    assert given == fastcopy.build_reference(WithFactory, a=2, notes=["x"])


@pytest.mark.parametrize("ref", [False, True])
def test_maker_matches_its_reference_and_the_constructor(ref: bool) -> None:
    new_toy = fastcopy.maker(Toy, "b", "a")  # any order of the named fields; c at its default
    fastcopy.use_reference(ref)
    try:
        made = new_toy((2,), 1)
    finally:
        fastcopy.use_reference(False)
    expected = Toy(1, (2,))
    assert made == expected == fastcopy.maker_reference(Toy, "b", "a")((2,), 1)
    assert type(made) is Toy and list(vars(made).items()) == list(vars(expected).items())
    with pytest.raises(FrozenInstanceError):
        made.a = 9  # type: ignore[misc]


def test_maker_refuses_what_it_cannot_make() -> None:
    with pytest.raises(TypeError):
        fastcopy.maker(Toy, "a")  # b has no default
    with pytest.raises(TypeError):
        fastcopy.maker(Toy, "a", "b", "z")  # no such field
    with pytest.raises(TypeError):
        fastcopy.maker(WithFactory, "a")  # items is plain, notes a factory: not filled in
    with pytest.raises(TypeError):
        fastcopy.maker_reference(Toy, "a", "b")(1)  # too few values, as the constructor would


def test_public_event_is_the_event_constructor() -> None:
    made = base.Event("take", "{s0} takes a1", {"seat": 0})
    from engines.events import public_event

    fast = public_event("take", "{s0} takes a1", {"seat": 0})
    assert fast == made and vars(fast) == vars(made) and fast.public


@pytest.mark.parametrize("ref", [False, True])
def test_fields_of_a_thawed_copy_is_the_dict_thaw_dict_hands_out(ref: bool) -> None:
    t = Toy(1, (2, 3))
    fastcopy.remember(t, "_note", "x")
    fastcopy.use_reference(ref)
    try:
        w, d = fastcopy.thaw_dict(t)
        assert fastcopy.fields_of(w) is d
        fastcopy.fields_of(w)["a"] = 5
        copied = fastcopy.thaw(t)
        fastcopy.fields_of(copied)["c"] = "y"
    finally:
        fastcopy.use_reference(False)
    assert w == Toy(5, (2, 3)) and copied == Toy(1, (2, 3), "y")
    assert t == Toy(1, (2, 3)) and fastcopy.memo(w, "_note") == fastcopy.memo(copied, "_note") == "x"
