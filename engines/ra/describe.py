"""Ra in words for people: the rules summary, the set-up event, the headline and the prompt
line of a view, and why an action is refused (a sentence a player can read)."""

from __future__ import annotations

from engines.contract import Action
from engines.errors import BadNotation, GameOver, IllegalAction, NotYourTurn
from engines.events import Event
from engines.ra import data
from engines.ra.legal import god_targets, pending_category, to_move
from engines.ra.notation import bad_form, parse
from engines.ra.scoring import outcome
from engines.ra.state import (
    AUCTION,
    DISASTER,
    DISCARD,
    GOD,
    GOD_MORE,
    IDX,
    O_GOD_DISASTER,
    O_TRADERS,
    OVER,
    PENDING_CODES,
    TRADER,
    TURN,
    VOLUNTARY,
    State,
)

SUMMARY = (
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
"""A few lines of rules for ``/rules`` and the terminal."""


def setup_events(state: State) -> list[Event]:
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


# --------------------------------------------------------------------------- a view's lines

_CAT_WORD = ("river", "civilization", "monument")

_KIND_WORDS = ("Ra tile", "voluntary", "full track")  # by KIND_NAMES index, for the headline


def _or_list(items: list[str]) -> str:
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + " or " + items[-1]


def headline(state: State) -> str:
    """One line: epoch, step, who acts, and the auction's high bid."""
    s = state
    if s.step == OVER:
        out = outcome(s)
        who = " and ".join(f"{{s{w}}}" for w in out.winners)
        return f"Game over · {who} {'win' if len(out.winners) > 1 else 'wins'} with {max(s.score)}"
    head = f"Epoch {s.epoch} · "
    if s.step == TURN:
        return head + f"{{s{s.cur}}} to play · Ra {s.ra_track}/{data.RA_LIMIT[s.n]} · track {len(s.track)}/8"
    if s.step == GOD_MORE:
        return head + f"{{s{s.cur}}} may use another god"
    if s.step == AUCTION:
        bidder = s.a_order[s.a_idx]
        if s.a_high:
            return head + (
                f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} to bid · "
                f"high {s.a_high} by {{s{s.a_high_seat}}}"
            )
        if s.a_kind == VOLUNTARY and bidder == s.a_ra:
            if len(s.a_order) == 1:
                return head + (
                    f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} must bid: "
                    "nobody else has a sun to bid"
                )
            return head + f"Auction ({_KIND_WORDS[s.a_kind]}) · everyone passed: {{s{bidder}}} must bid"
        return head + f"Auction ({_KIND_WORDS[s.a_kind]}) · {{s{bidder}}} to bid · no bid yet"
    cat = next(i for i, k in enumerate(s.p_left) if k)
    k = s.p_left[cat]
    return head + f"{{s{s.p_seat}}} must discard {k} {_CAT_WORD[cat]} tile{'s' if k > 1 else ''}"


def prompt_text(state: State, seat: int, legal: list[str]) -> str:
    """What ``seat`` is asked to do now (or who is awaited)."""
    s = state
    if s.step == OVER:
        return "The game is over."
    if not legal:
        actor = (
            s.cur if s.step in (TURN, GOD_MORE) else (s.a_order[s.a_idx] if s.step == AUCTION else s.p_seat)
        )
        return f"Waiting for {{s{actor}}}."
    if s.step == TURN:
        options = []
        if "draw" in legal:
            options.append("draw a tile")
        if "invoke" in legal:
            options.append("invoke Ra")
        if any(a.startswith("god ") for a in legal):
            options.append("use a god")
        return "Your turn: " + _or_list(options) + "."
    if s.step == GOD_MORE:
        return "Use another god, or done."
    if s.step == AUCTION:
        bids = [a.split()[1] for a in legal if a.startswith("bid ")]
        if "pass" not in legal:
            choice = "Bid " + _or_list(bids)
        elif bids:
            choice = "Bid " + ", ".join(bids) + " or pass"
        else:
            choice = "You can only pass"
        if s.a_high:
            return f"High bid {s.a_high} ({{s{s.a_high_seat}}}). {choice}."
        if "pass" not in legal:
            return f"You must bid: you invoked Ra on this track. {choice}."
        return f"No bid yet. {choice}."
    cat = next(i for i, k in enumerate(s.p_left) if k)
    k = s.p_left[cat]
    if k == 1:
        return f"Discard 1 {_CAT_WORD[cat]} tile."
    return f"Discard {k} {_CAT_WORD[cat]} tiles, one at a time."


# --------------------------------------------------------------------------- reasons


def rejection(state: State, seat: int, action: Action) -> Exception:
    """The error explaining why ``action`` is not legal for ``seat`` now."""
    if state.step == OVER:
        return GameOver()
    awaited = to_move(state)
    if seat not in awaited:
        return NotYourTurn("It is not your turn: waiting for {s%d}." % awaited[0])
    try:
        well_formed = isinstance(action, str) and parse(action) == action
    except BadNotation:
        well_formed = False
    if not well_formed:
        return IllegalAction(bad_form(str(action)[:40]))
    return IllegalAction(reason(state, seat, action))


_STEP_HINT = {
    TURN: "it is a turn: draw, invoke Ra, or use a god",
    GOD_MORE: "you may use another god or say done",
    AUCTION: "it is an auction: bid or pass",
    DISCARD: "you must discard tiles first",
}


def reason(state: State, seat: int, action: Action) -> str:
    """Why ``action`` is illegal for the awaited ``seat`` (a sentence a player can read)."""
    step = state.step
    verb, _, arg = action.partition(" ")
    if verb in ("draw", "invoke") and step != TURN:
        return f"You cannot {verb} now: {_STEP_HINT[step]}."
    if verb == "draw":
        god = " or use a god" if god_targets(state, seat) else ""
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
        cat = pending_category(state)
        code = IDX[arg]
        if code not in PENDING_CODES[cat]:
            what = ("river", "civilization", "monument")[cat]
            return f"You must discard {what} tiles now."
        return f"You hold no {data.TILE_NAME[arg]}."
    return f"`{action}` is not possible now: {_STEP_HINT.get(step, 'the game is over')}."
