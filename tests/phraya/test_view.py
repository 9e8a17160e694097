"""What each seat sees of a Phraya game (docs/rules/phraya.md#hidden-information)."""

from __future__ import annotations

import json
import random

from engines import base
from engines.phraya import ENGINE as E
from engines.phraya import scoring
from engines.phraya.data import board
from engines.phraya.state import CARD, State, put, put_player
from tests.search_helpers import states


def _canon(view: object) -> str:
    return json.dumps(base.to_jsonable(view), sort_keys=True)


def test_the_preview_does_not_show_other_seats_hidden_guild_cards() -> None:
    s = next(x for x in states(E, 3, {"hidden_hands": True, "round_limit": 6}, 1, 1) if x.step == CARD)
    mine = next(i for i, q in enumerate(s.owner) if q == 0)
    good = s.board.stalls[board.STALLS[mine]].good
    guild = {"veg": "m02", "fruit": "m03", "fish": "m04", "meat": "m05"}[str(good)]

    def holding(card: str) -> State:
        p = s.players[1]
        return put(s, players=(s.players[0], put_player(p, hand=(*p.hand, card)), s.players[2]))

    plain, with_guild = holding("m23"), holding(guild)  # m23 has no end-game effect
    # the guild changes seat 0's stall majority, so a preview from the true state would show it
    assert scoring.sheet(plain, final=False)[0] != scoring.sheet(with_guild, final=False)[0]
    assert _canon(E.view(plain, 0)) == _canon(E.view(with_guild, 0))


def test_to_move_is_always_one_seat_the_search_reads_the_searching_seat() -> None:
    # engines.search takes to_move(state)[0] as the seat choosing: in Phraya that is always the
    # only seat awaited, and the one whose view and legal list the host passes.
    for n in (2, 3, 4):
        for s in states(E, n, {"round_limit": 6}, n, 1):
            awaited = E.to_move(s)
            assert len(awaited) == 1
            assert [q for q in range(n) if E.legal_actions(s, q)] == list(awaited)
            d = E.determinize(E.view(s, awaited[0]), random.Random(1))
            assert E.to_move(d) == awaited
