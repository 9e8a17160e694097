"""The Ra engine (Reiner Knizia's Ra with the Ra: Traders module): the protocol methods.

The state machine itself lives in ``flow.py``, scoring in ``scoring.py``, the view in
``view.py``, component data in ``data.py``, the action text (parsing, the action space, labels)
in ``notation.py``. This module sets up games, lists and checks actions (with reasons a player
can read) and checks the invariants.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, ClassVar

from engines.base import (
    Action,
    BadNotation,
    Engine,
    Event,
    GameOver,
    IllegalAction,
    NotYourTurn,
    Option,
    Outcome,
    View,
)
from engines.prompt import Prompt
from engines.ra import data, determinize, flow, notation, playout, prompts, scoring
from engines.ra import view as ra_view
from engines.ra.notation import BID_TEXT, DISCARD_TEXT, GOD_TEXT, bad_form
from engines.ra.rng import shuffle
from engines.ra.state import (
    AUCTION,
    CODES,
    DISASTER,
    DISCARD,
    GOD,
    GOD_MORE,
    HELD,
    IDX,
    KEEP,
    NCODES,
    O_FLOOR,
    O_GOD_DISASTER,
    O_INVOKE_EMPTY,
    O_TRADERS,
    OPTION_NAMES,
    OVER,
    PENDING_CODES,
    RA,
    TRADER,
    TURN,
    VOLUNTARY,
    State,
    Work,
    new_state,
    tile_counts,
)

OPTIONS = (
    Option("traders", bool, True, "Ra: Traders module: 20 trader tiles and cargo crates."),
    Option("god_takes_disaster", bool, False, "A god may take a disaster tile (resolved at once)."),
    Option("score_floor_zero", bool, True, "Scores never fall below 0."),
    Option("tiebreak_highest_sun", bool, True, "The highest single sun breaks ties for a place."),
    Option("invoke_on_empty_track", bool, True, "Ra may be invoked on an empty auction track."),
    Option(
        "drought_floods_first",
        bool,
        True,
        "A drought takes floods first, then niles (off: the winner chooses).",
    ),
    Option("hidden_scores", bool, False, "Other players' totals stay hidden until the end."),
    Option("auto_pass", bool, True, "Bidders who can only pass are passed automatically."),
)
assert tuple(o.name for o in OPTIONS) == OPTION_NAMES


class RaEngine(Engine):
    """Ra and Ra: Traders for 2–5 players (spec /shared/specs/ra.md)."""

    name = "ra"
    title = "Ra"
    min_players = 2
    max_players = 5
    options = OPTIONS
    property_options = ({}, {"traders": False})
    search_iterations = {"normal": 100, "hard": 800}
    """Hard searches 8 times normal's iterations (a wide gap: hard must beat normal clearly).
    ``bazaar arena ra --levels hard:normal`` (2026-12-01, wall time on a machine loaded by
    other jobs, so above the CPU time a move takes): 2p, 40 games, hard's edge +0.350 (95% CI
    +0.238 … +0.462); ms per move hard median 820 p99 1790, normal median 88 p99 295, none
    over the cap; 3p, 20 games, hard's edge +0.300 (95% CI +0.123 … +0.477), hard median 747
    p99 1802, normal median 78 p99 247, none over the cap. 3p again on 2026-12-02, 40 games on
    a quiet machine: +0.300 (+0.184 … +0.416); hard median 226 p99 317, normal median 25 p99 56."""
    playout_depth = 12
    """A playout runs through the current auction and a few draws, then ``evaluate`` scores it:
    full playouts (hundreds of actions) were too noisy for a budget of 100 iterations."""
    common_players = 3
    """Ra is a 3-5 player game played most at 3 and 4 (its 2-player sun sets are a variant);
    3 is the cheaper of the two for the arena."""
    demo_options = property_options
    minor_events: ClassVar[dict[str, str]] = {
        "draw": "tiles drawn",
        "bid": "bids",
        "pass": "passes",
        "auction": "invocations of Ra",
        "unsold": "auctions nobody bid in",
        "done": "turns ended after a god",
    }
    """Event kinds a long stretch of others' play (a player out of suns) counts instead of
    listing (``bazaar play``): the wins, disasters, gods, crates and epoch ends are listed."""
    summary = (
        "Ra (Reiner Knizia), 2–5 players, 3 epochs. On your turn draw a tile onto the auction "
        "track, invoke Ra to auction it, or spend a god to take one tile from it. Bids are numbered "
        "suns, one bid each, the Ra player last; a player who invoked Ra by choice must bid if all "
        "others pass (not on a full track). The winner takes the lot and the centre sun face down "
        "(bid it from the next epoch) and leaves the bid sun in the centre. A drawn Ra tile forces an "
        "auction; the epoch ends with its last Ra tile or when nobody has a face-up sun.\n"
        "Tiles, scored at each epoch's end:\n"
        "• God: 2; or use it on your turn to take a tile from the track (not a god or a disaster)\n"
        "• Gold: 3 · Pharaoh: most +5, fewest −2\n"
        "• Nile and Flood: 1 each, only if you hold a Flood\n"
        "• Civilization (5 kinds): 3, 4, 5 kinds +5, +10, +15; none −5\n"
        "• Monument (8 kinds; only at the game's end): 1 per kind (7 kinds 10, 8 kinds 15), plus "
        "5, 10, 15 for 3, 4, 5 of one kind\n"
        "• Suns (at the end): highest total +5, lowest −5\n"
        "Pharaohs, Niles and monuments stay; the rest leave after each epoch's scoring.\n"
        "• Disasters come with a lot and cost you 2 tiles: Funeral 2 Pharaohs, Drought 2 Floods "
        "(then Niles), Unrest 2 civilizations, Earthquake 2 monuments.\n"
        "Ra: Traders (on by default): when you take trader tiles, every other player gets that "
        "many cargo crates per trader they hold; each trader and each crate scores 1 per epoch, "
        "then held traders leave the game and crates are reset."
    )

    # ------------------------------------------------------------------ set-up
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> State:
        """A new game: suns dealt, bag shuffled, first turn to the holder of the highest sun.
        Raises :class:`BadOption` for a bad player count or option."""
        self.check_players(n_players)
        opts = self.resolve_options(options)
        rng = random.Random(seed)
        sets = list(data.SUN_SETS[n_players])
        shuffle(rng, sets)  # rng.shuffle, written out (rng.py): the same numbers drawn
        bag = list(_BAGS[bool(opts["traders"])])
        shuffle(rng, bag)
        up = tuple([tuple(sorted(s)) for s in sets])
        top = [u[-1] for u in up]
        return new_state(
            n=n_players,
            opts=tuple([bool(opts[k]) for k in OPTION_NAMES]),
            bag=tuple(bag),
            bag_pos=0,
            epoch=1,
            step=TURN,
            cur=top.index(max(top)),
            ra_track=0,
            track=(),
            center=data.CENTER_START,
            up=up,
            down=((),) * n_players,
            tiles=((0,) * NCODES,) * n_players,
            score=(data.START_SCORE,) * n_players,
            crates=(0,) * n_players,
            box=(0,) * NCODES,
        )

    def events_on_setup(self, state: State) -> list[Event]:
        """One public event: the suns dealt and who starts."""
        suns = "; ".join(f"{{s{s}}} " + " ".join(map(str, state.up[s])) for s in range(state.n))
        traders = " with Ra: Traders" if state.opts[O_TRADERS] else ""
        return [
            Event(
                "setup",
                f"Ra{traders}, epoch 1. Suns: {suns}; centre 1. {{s{state.cur}}} starts.",
                {"seat": state.cur, "suns": [list(u) for u in state.up]},
            )
        ]

    # ------------------------------------------------------------------ turn and legality
    def to_move(self, state: State) -> tuple[int, ...]:
        """The one seat awaited, or () once the game is over."""
        step = state.step
        if step == AUCTION:
            return _ONE[state.a_order[state.a_idx]]
        if step == TURN or step == GOD_MORE:  # noqa: SIM109 (hot: a tuple test builds the tuple)
            return _ONE[state.cur]
        if step == DISCARD:
            return _ONE[state.p_seat]
        return ()

    _memo: tuple[Any, int, tuple[Action, ...]] = (None, -1, ())

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """The legal action texts of ``seat`` in spec §5 order; [] if it is not awaited.
        The last answer is remembered (by state identity) so that ``apply`` right after it does
        not enumerate again."""
        step = state.step
        if step == AUCTION:
            if seat != state.a_order[state.a_idx]:
                self._memo = (state, seat, ())
                return []
            high = state.a_high
            row = state.up[seat]
            bids = (_BIDS.get(row) or _bids(row))[high]
            if not high and seat == state.a_ra and state.a_kind == VOLUNTARY:
                bids = bids[:-1]  # the Ra player of a voluntary auction may not pass before a bid
        elif step == TURN:
            if seat != state.cur:
                self._memo = (state, seat, ())
                return []
            track = state.track
            bag_left = state.bag_pos < len(state.bag)
            bids = _TURN[len(track) < data.AUCTION_SLOTS and bag_left][
                bool(track) or not bag_left or state.opts[O_INVOKE_EMPTY]
            ]
            if track and state.tiles[seat][GOD]:
                bids += tuple([GOD_TEXT[c] for c in flow.god_targets(state, seat)])
        else:
            bids = tuple(self._legal(state, seat))
        self._memo = (state, seat, bids)
        return list(bids)

    def _legal(self, state: State, seat: int) -> list[Action]:
        """The legal list of the steps other than TURN and AUCTION."""
        step = state.step
        if step == GOD_MORE:
            if seat != state.cur:
                return []
            return [GOD_TEXT[c] for c in flow.god_targets(state, seat)] + ["done"]
        if step == DISCARD:
            if seat != state.p_seat:
                return []
            cat = flow.pending_category(state)
            row = state.tiles[seat]
            return [DISCARD_TEXT[c] for c in PENDING_CODES[cat] if row[c]]
        return []

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """Apply a legal action and every automatic step after it. Returns the new state and
        the events. Raises :class:`GameOver`, :class:`NotYourTurn`, or :class:`IllegalAction`
        (with the reason) and changes nothing."""
        memo = self._memo
        if memo[0] is state and memo[1] == seat:
            legal = memo[2]
        else:
            self.legal_actions(state, seat)
            legal = self._memo[2]
        if action not in legal:
            raise self._rejection(state, seat, action)
        handler, arg = _HANDLERS[action]
        w: Work = _new(Work)  # Work.of(state) and w.freeze(), written out: the hottest lines
        w.__dict__ = state.__dict__.copy()
        ev: list[Event] = []
        handler(w, arg, ev)
        w.__class__ = State  # type: ignore[assignment]
        return w, ev  # type: ignore[return-value]

    def _rejection(self, state: State, seat: int, action: Action) -> Exception:
        """The error explaining why ``action`` is not legal for ``seat`` now."""
        if state.step == OVER:
            return GameOver()
        awaited = self.to_move(state)
        if seat not in awaited:
            return NotYourTurn("It is not your turn: waiting for {s%d}." % awaited[0])
        try:
            well_formed = isinstance(action, str) and self.parse(action) == action
        except BadNotation:
            well_formed = False
        if not well_formed:
            return IllegalAction(bad_form(str(action)[:40]))
        return IllegalAction(_reason(state, seat, action))

    # ------------------------------------------------------------------ texts
    def parse(self, text: str) -> Action:
        """The canonical text of ``text``; see :func:`engines.ra.notation.parse`."""
        return notation.parse(text)

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        """``k`` well-formed texts drawn from :meth:`action_space` (small enough to list)."""
        spaces: dict[int, tuple[str, ...]] = self.__dict__.setdefault("_spaces", {})
        if n_players not in spaces:
            spaces[n_players] = tuple(self.action_space(n_players))
        space = spaces[n_players]
        return rng.choices(space, k=k)

    def action_space(self, n_players: int) -> Iterable[Action]:
        """Every well-formed action text for ``n_players``; see
        :func:`engines.ra.notation.action_space`."""
        return notation.action_space(n_players)

    def prompt(self, state: State, seat: int) -> Prompt:
        """``seat``'s controls now (see ``prompts.py``)."""
        return prompts.prompt(self, state, seat)

    def action_label(self, state: State, seat: int, action: Action) -> str:
        """A short button label; see :func:`engines.ra.notation.label`."""
        return notation.label(action)

    def irreversible(self, state: State, seat: int, action: Action) -> str | None:
        """Bidding the last face-up sun: the seat then sits out the rest of the epoch."""
        if action.startswith("bid ") and len(state.up[seat]) == 1:
            return (
                f"Sun {state.up[seat][0]} is your last sun this epoch: once it is spent you take "
                "no more turns until the epoch ends."
            )
        return None

    # ------------------------------------------------------------------ view, outcome, AI
    def view(self, state: State, viewer: int | None) -> ra_view.RaView:
        """See :func:`engines.ra.view.view` for the schema."""
        return ra_view.view(self, state, viewer)

    def outcome(self, state: State) -> Outcome | None:
        """The :class:`Outcome` once epoch 3 is scored, else None."""
        if state.step != OVER:
            return None
        return scoring.outcome(state)

    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The §12 heuristic (``ai.py``), reading only ``view``."""
        from engines.ra import ai

        return ai.choose(view, legal)

    def determinize(self, view: View, rng: random.Random) -> State:
        """A full state the viewer cannot tell from the true one (``determinize.py``): the bag's
        order drawn with ``rng``, everything else read off ``view``."""
        return determinize.determinize(view, rng)

    def playout_action(self, state: State, seat: int, rng: random.Random) -> Action:
        """The playout policy (``playout.py``): greedy on the lot's worth, sometimes random."""
        return playout.playout_action(self, state, seat, rng)

    def search_actions(self, state: State, seat: int) -> list[Action]:
        """The legal moves worth searching (``playout.py``): fewer bids, no pointless empty
        invocation."""
        return playout.search_actions(state, seat, self.legal_actions(state, seat))

    def evaluate(self, state: State) -> list[float]:
        """Each seat's expected reward from its estimated final score (``playout.py``)."""
        return playout.evaluate(state)

    def action_bound(self, n_players: int) -> int:
        """Spec §11: draws ≤ 200, invocations ≤ 3S + 21, n bids/passes per auction over
        ≤ 3S + 21 + 30 auctions, gods+done ≤ 16, discards ≤ 20 (431/554/641/782)."""
        s = len(data.SUN_SETS[n_players][0]) * n_players
        auctions = 3 * s + 21 + 30
        return 200 + (3 * s + 21) + n_players * auctions + 16 + 20

    def secrets(self, state: State, viewer: int | None) -> Iterable[str]:
        """The JSON text of the next nine bag codes, when nine or more remain. Nine consecutive
        codes can never appear by chance in a view (the track holds at most eight), so any
        match is a leak of the bag order."""
        rest = state.bag[state.bag_pos : state.bag_pos + 9]
        if len(rest) == 9:
            return [json.dumps([CODES[c] for c in rest])[1:-1]]
        return []

    # ------------------------------------------------------------------ invariants
    def invariants(self, state: State) -> None:
        """Spec §11 as assertions: tile and sun conservation, bounds, epoch-start holdings."""
        s = state
        n = s.n
        counts = tile_counts(s.opts[O_TRADERS])
        have = [0] * NCODES
        for c in s.bag[s.bag_pos :]:
            have[c] += 1
        for c in s.track:
            have[c] += 1
        have[RA] += s.ra_track
        for row in s.tiles:
            for c in range(NCODES):
                have[c] += row[c]
        for c in range(NCODES):
            have[c] += s.box[c]
        assert tuple(have) == counts, f"tile counts {have} != {counts}"
        assert sum(counts) == (data.TOTAL_TILES_TRADERS if s.opts[O_TRADERS] else data.TOTAL_TILES)
        assert RA not in s.track, "a Ra tile on the auction track"
        for row in s.tiles:
            assert all(row[c] == 0 for c in DISASTER) and row[RA] == 0, "held disaster or Ra"
            assert all(row[c] >= 0 for c in range(NCODES)), "negative holding"
        suns = [v for seat in range(n) for v in s.up[seat] + s.down[seat]] + [s.center]
        assert sorted(suns) == list(range(1, data.MAX_SUN[n] + 1)), f"suns {suns}"
        per = len(data.SUN_SETS[n][0])
        for seat in range(n):
            assert len(s.up[seat]) + len(s.down[seat]) == per, "a seat lost or gained a sun"
            assert list(s.up[seat]) == sorted(s.up[seat]) and list(s.down[seat]) == sorted(s.down[seat])
        assert 0 <= len(s.track) <= data.AUCTION_SLOTS
        assert 1 <= s.epoch <= data.EPOCHS
        assert all(c >= 0 for c in s.crates)
        if s.opts[O_FLOOR]:
            assert all(v >= 0 for v in s.score), "a score below 0 with the floor on"
        if s.step != OVER:
            assert 0 <= s.ra_track < data.RA_LIMIT[n]
            assert self.legal_actions(s, self.to_move(s)[0]), "the actor has no legal action"
        if s.step == AUCTION:
            bids = [b for b in s.a_bids if b]
            assert bids == sorted(set(bids)), "bids must strictly increase"
            assert s.a_high == (bids[-1] if bids else 0)
            assert len(s.a_bids) == s.a_idx < len(s.a_order)
            assert s.a_order[-1] == s.a_ra
        if s.step == DISCARD:
            assert any(s.p_left) and s.p_seat >= 0
        if s.step != OVER and not any(s.down):
            # Nobody has won anything this epoch (a god comes only from a win), so the holdings
            # are those of the epoch start: only keepers, no crates, no traders.
            for seat in range(n):
                row = s.tiles[seat]
                assert all(row[c] == 0 for c in HELD if c not in KEEP), "non-keeper at epoch start"
                assert s.crates[seat] == 0


# --------------------------------------------------------------------------- legal tables

_new = object.__new__
_HANDLERS = flow.HANDLERS

_BAGS = {t: tuple([i for i, k in enumerate(tile_counts(t)) for _ in range(k)]) for t in (False, True)}
"""The bag before shuffling, with and without the Traders module."""

_TURN = ((((), ("invoke",))), (("draw",), ("draw", "invoke")))
"""``_TURN[may draw][may invoke]``: a turn's legal texts before any god."""

_BIDS: dict[tuple[int, ...], tuple[tuple[Action, ...], ...]] = {}
"""Face-up suns -> for each high bid, the bid texts above it and ``pass`` (at most a few
thousand keys: the sets of up to five of the 16 suns)."""

_MAX_SUN = max(data.MAX_SUN.values())

_ONE = tuple((s,) for s in range(max(data.SUN_SETS)))
"""``_ONE[seat]``: the 1-tuple ``to_move`` answers, made once."""


def _bids(row: tuple[int, ...]) -> tuple[tuple[Action, ...], ...]:
    got = _BIDS[row] = tuple(
        (*[BID_TEXT[v] for v in row if v > high], "pass") for high in range(_MAX_SUN + 1)
    )
    return got


# --------------------------------------------------------------------------- reasons


_STEP_HINT = {
    TURN: "it is a turn: draw, invoke Ra, or use a god",
    GOD_MORE: "you may use another god or say done",
    AUCTION: "it is an auction: bid or pass",
    DISCARD: "you must discard tiles first",
}


def _reason(state: State, seat: int, action: Action) -> str:
    """Why ``action`` is illegal for the awaited ``seat`` (a sentence a player can read)."""
    step = state.step
    verb, _, arg = action.partition(" ")
    if verb in ("draw", "invoke") and step != TURN:
        return f"You cannot {verb} now: {_STEP_HINT[step]}."
    if verb == "draw":
        god = " or use a god" if flow.god_targets(state, seat) else ""
        if len(state.track) >= data.AUCTION_SLOTS:
            return f"The auction track is full: invoke Ra{god}."
        return f"The bag is empty: invoke Ra{god}."
    if verb == "invoke":
        return "The auction track is empty: draw a tile first."
    if verb == "god":
        if step not in (TURN, GOD_MORE):
            return f"You cannot use a god now: {_STEP_HINT[step]}."
        code = IDX[arg]
        if code == TRADER and not state.opts[O_TRADERS]:
            return "This game is played without Ra: Traders (no trader tiles)."
        if not state.tiles[seat][GOD]:
            return "You hold no god tile."
        if code == GOD:
            return "A god cannot take another god."
        if code in DISASTER and not state.opts[O_GOD_DISASTER]:
            return "A god cannot take a disaster tile."
        return f"There is no {data.TILE_NAME[arg]} on the auction track."
    if verb == "done":
        return f"`done` only ends a turn after using a god; {_STEP_HINT[step]}."
    if verb in ("bid", "pass"):
        if step != AUCTION:
            return f"There is no auction now: {_STEP_HINT[step]}."
        if verb == "pass":
            return "You must bid: you invoked Ra on this track."
        v = int(arg)
        if v not in state.up[seat]:
            have = ", ".join(map(str, state.up[seat]))
            return f"You do not hold sun {v} face up (yours: {have})."
        return f"You can only bid higher than {state.a_high}."
    if verb == "discard":
        if step != DISCARD:
            return f"There is nothing to discard now: {_STEP_HINT[step]}."
        cat = flow.pending_category(state)
        code = IDX[arg]
        if code not in PENDING_CODES[cat]:
            what = ("river", "civilization", "monument")[cat]
            return f"You must discard {what} tiles now."
        return f"You hold no {data.TILE_NAME[arg]}."
    return f"`{action}` is not possible now: {_STEP_HINT.get(step, 'the game is over')}."
