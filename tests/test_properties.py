"""The property suite, run over every registered engine, player count and option set.

Each case plays many random seeded games (``BAZAAR_PROPERTY_SEEDS``, default 200) choosing
uniformly among the legal actions, and checks the protocol's promises at every step: someone is
awaited with legal actions until the outcome, nobody else has any, every legal action applies and
round-trips through the parser, garbage and well-formed illegal text raise the right error and
change nothing, views carry no secret, the engine's own invariants hold, games end within the
engine's bound, the move log replays to the same state, and the global ``random`` is never used.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engines import base, prompt
from engines.base import (
    VIEW_KEYS,
    BadNotation,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Outcome,
    play,
    replay,
    state_fingerprint,
)

N_SEEDS = int(os.environ.get("BAZAAR_PROPERTY_SEEDS", "200"))
CHUNKS = 4  # seeds are split in chunks so pytest-xdist can spread them over cores
DEEP_SEEDS = 12  # in these seeds every legal action is applied and every check runs at every step
SAMPLE = 60  # a longer legal list (Kathai's offers run to 30,000) is checked on a random sample
GARBAGE = [
    "",
    "   ",
    "xyzzy",
    "take",
    "bid",
    "bid -1",
    "take z9",
    "42",
    "💥",
    "take b4 b4",
    "buy veda 1g",
    "discard",
    "god",
    "pass pass",
    "draw 1",
    "done now",
    "\x00",
]


def _cases() -> Iterator[Any]:
    for engine in base.games():
        for n in range(engine.min_players, engine.max_players + 1):
            for oi, opts in enumerate(engine.property_options):
                for chunk in range(CHUNKS):
                    yield pytest.param(
                        engine.name, n, dict(opts), chunk, id=f"{engine.name}-{n}p-opt{oi}-c{chunk}"
                    )


def _seeds(chunk: int) -> range:
    per = -(-N_SEEDS // CHUNKS)
    return range(chunk * per, min(N_SEEDS, (chunk + 1) * per))


def _check_view(engine: base.Engine, state: Any, viewer: int | None, n: int) -> None:
    v = engine.view(state, viewer)
    for key in VIEW_KEYS:
        assert key in v, f"view lacks {key!r}"
    assert v["viewer"] == viewer and v["n_players"] == n and v["game"] == engine.name
    text = json.dumps(v)  # also proves the view is JSON-serialisable
    for secret in engine.secrets(state, viewer):
        assert secret not in text, f"view for {viewer} leaks {secret!r}"


def _check_rejections(
    engine: base.Engine, state: Any, actor: int, legal: list[str], n: int, rng: random.Random
) -> None:
    before = state_fingerprint(state)
    for g in rng.sample(GARBAGE, 4):
        try:
            res = engine.parse(g)
        except BadNotation:
            with pytest.raises(BadNotation):
                play(engine, state, actor, g)
        else:  # garbage that happens to be well-formed must then be illegal here
            assert res not in legal
            with pytest.raises(IllegalAction):
                play(engine, state, actor, g)
    legal_set = set(legal)
    sampled = engine.sample_actions(n, rng, 40)
    for a in sampled:
        assert engine.parse(a) == a, f"a sampled action {a!r} is not canonical"
    illegal = [a for a in sampled if a not in legal_set]
    for a in illegal[:3]:
        with pytest.raises(IllegalAction) as err:
            play(engine, state, actor, a)
        assert err.value.reason.strip(), "an illegal action needs a reason"
        assert engine.is_legal(state, actor, a), "is_legal accepts what apply refuses"
    for a in rng.sample(legal, min(3, len(legal))):
        assert engine.is_legal(state, actor, a) is None, f"is_legal refuses the legal {a!r}"
    for other in range(n):
        if other not in engine.to_move(state):
            with pytest.raises(NotYourTurn):
                play(engine, state, other, legal[0])
            break
    assert state_fingerprint(state) == before, "a rejected action changed the state"


def _check_prompt(engine: base.Engine, state: Any, seat: int, legal: list[str]) -> None:
    """The seat's prompt offers only legal moves (every button, and a sample of what each pick
    builds) and fits a Discord message: 5 rows, one of them the host's own button under a board."""
    p = engine.prompt(state, seat)
    assert p.seat == seat
    legal_set = set(legal)
    for a in p.actions():
        assert a in legal_set, f"the prompt offers the illegal {a!r}"
    for c in prompt.walk(p.controls):
        if isinstance(c, prompt.Pick):
            values = [ch.value for ch in c.choices][: max(c.min, 1)]
            if c.min <= len(values) <= c.max:
                built = c.build(values)
                assert engine.is_legal(state, seat, built) is None, f"pick {c.key} builds {built!r}"
    # a public prompt shares the board with the host's My hand button; a private one has the
    # seat's DM (or private answer) to itself
    assert prompt.rows(p.controls) <= (4 if p.public else 5), "a prompt must fit one Discord message"


def _check_complete(engine: base.Engine, state: Any, seat: int, legal: list[str], rng: random.Random) -> None:
    """Autocomplete offers at most 25 entries, and each is a legal move, or the start of one
    labelled with what comes next (a pair may be typed in either order: its start need not be
    the canonical text's)."""
    for prefix in ["", legal[0][:1], rng.choice(legal)]:
        got = engine.complete(state, seat, prefix)
        assert len(got) <= 25
        for value, label in got:
            assert label
            if prompt.THEN in label:
                assert engine.is_legal(state, seat, value) is not None, label
            else:
                assert engine.is_legal(state, seat, value) is None, (value, label)
    assert engine.complete(state, seat, ""), "no completion for an awaited seat"


def _playout(
    engine: base.Engine, seed: int, n: int, opts: dict[str, Any], deep: bool
) -> tuple[Any, list[tuple[int, str]]]:
    rng = random.Random(10_000 + seed)
    state = engine.setup(seed, n, opts)
    moves: list[tuple[int, str]] = []
    bound = engine.action_bound(n)
    while True:
        engine.invariants(state)
        full_step = deep or rng.random() < 0.1
        if full_step:
            for viewer in [None, *range(n)]:
                _check_view(engine, state, viewer, n)
        if engine.outcome(state) is not None:
            break
        awaited = engine.to_move(state)
        assert awaited, "the game is not over but nobody is awaited"
        legal_by_seat = {s: engine.legal_actions(state, s) for s in range(n)}
        for s in range(n):
            if s in awaited:
                assert legal_by_seat[s], f"seat {s} is awaited but has no legal action"
                assert len(set(legal_by_seat[s])) == len(legal_by_seat[s]), "a legal list repeats itself"
            else:
                assert legal_by_seat[s] == [], f"seat {s} is not awaited but has legal actions"
        actor = rng.choice(awaited)
        legal = legal_by_seat[actor]
        if full_step:
            _check_prompt(engine, state, actor, legal)
            _check_complete(engine, state, actor, legal, rng)
        some = legal if len(legal) <= SAMPLE else rng.sample(legal, SAMPLE)
        for a in some:
            assert engine.parse(a) == a, f"parse(str(a)) != a for {a!r}"
            assert engine.parse("  " + a.upper().replace(" ", "   ") + " ") == a
        if deep:
            for a in some:
                new_state, events = engine.apply(state, actor, a)
                assert new_state is not state
                assert all(isinstance(e, base.Event) and e.text for e in events)
        if full_step:
            _check_rejections(engine, state, actor, legal, n, rng)
        action = rng.choice(legal)
        result = play(engine, state, actor, action)
        assert result.action == action
        state = result.state
        moves.append((actor, action))
        assert len(moves) <= bound, f"game exceeded the bound of {bound} actions"
    return state, moves


@pytest.mark.parametrize("game,n,opts,chunk", list(_cases()))
def test_random_playouts(game: str, n: int, opts: dict[str, Any], chunk: int) -> None:
    engine = base.get(game)
    for seed in _seeds(chunk):
        final, moves = _playout(engine, seed, n, opts, deep=seed < DEEP_SEEDS)
        out = engine.outcome(final)
        assert isinstance(out, Outcome)
        assert len(out.ranks) == n and len(out.scores) == n and len(out.breakdown) == n
        assert set(out.winners) == {s for s in range(n) if out.ranks[s] == 1}
        assert min(out.ranks) == 1
        assert engine.to_move(final) == ()
        assert all(engine.legal_actions(final, s) == [] for s in range(n))
        with pytest.raises(GameOver):
            play(engine, final, 0, moves[-1][1])
        for s in range(n):
            b = out.breakdown[s]
            if b is not None and out.scores[s] is not None:
                assert set(b) <= set(out.categories)
        # the move log reproduces the game
        assert state_fingerprint(replay(engine, seed, n, opts, moves)) == state_fingerprint(final)


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_global_random_changes_nothing(game: str) -> None:
    """Seeding and drawing from the global ``random`` between moves must not change a game."""
    engine = base.get(game)
    n = engine.min_players + 1 if engine.max_players > engine.min_players else engine.min_players
    opts = dict(engine.property_options[0])  # the engine's own short games (Kathai's turn limit)
    for seed in range(5):
        random.seed(1)
        final, moves = _playout(engine, seed, n, opts, deep=False)
        random.seed(999_999)
        state = engine.setup(seed, n, opts)
        for seat, action in moves:
            random.random()
            random.shuffle(list(range(10)))
            state = play(engine, state, seat, action).state
        assert state_fingerprint(state) == state_fingerprint(final)


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_setup_is_deterministic_and_seed_dependent(game: str) -> None:
    engine = base.get(game)
    n = engine.min_players
    a = state_fingerprint(engine.setup(7, n, {}))
    assert a == state_fingerprint(engine.setup(7, n, {}))
    assert len({state_fingerprint(engine.setup(s, n, {})) for s in range(6)}) > 1


@pytest.mark.parametrize("game", [e.name for e in base.games()])
@settings(max_examples=300, deadline=None)
@given(text=st.text(max_size=30))
def test_parse_fuzz(game: str, text: str) -> None:
    """Any text either parses to a canonical action of this game or raises BadNotation."""
    engine = base.get(game)
    try:
        parsed = engine.parse(text)
    except BadNotation as err:
        assert err.reason
    else:
        assert engine.parse(parsed) == parsed, "a parsed action is not canonical"


@pytest.mark.parametrize("game", [e.name for e in base.games()])
def test_the_leak_check_is_not_vacuous(game: str) -> None:
    """The view check above searches for ``secrets``: mid-game every viewer has some, and a view
    built for another seat (which shows that seat's hidden cards) is caught when the engine has
    per-seat hidden cards."""
    engine = base.get(game)
    n = engine.max_players
    rng = random.Random(3)
    state = engine.setup(3, n, {})
    for _ in range(12):
        seat = rng.choice(engine.to_move(state))
        state = engine.apply(state, seat, rng.choice(engine.legal_actions(state, seat)))[0]
    caught = 0
    for viewer in [None, *range(n)]:
        secrets = list(engine.secrets(state, viewer))
        assert secrets, f"no secrets for viewer {viewer}: the leak check would be vacuous"
        for other in range(n):
            if other != viewer:
                text = json.dumps(engine.view(state, other))
                caught += any(s in text for s in secrets)
    if engine.hidden_hands:
        assert caught, "showing one seat's own view to another is never detected"
