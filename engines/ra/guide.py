"""Ra's guided first game: the script and what the guide says at each kind of step, as data
(the runner is :mod:`engines.guide`). The sentences follow docs/rules/ra.md#a-turn, #auction,
#several-gods, #disasters and #scoring."""

from __future__ import annotations

from engines.guide import Guide

INTRO = (
    "Ra: tiles come out of the bag onto the auction track, and you buy the whole track with one "
    "of your suns. Pharaohs, the Nile, civilizations, gods, gold and traders score at each epoch's "
    "end (monuments and the sums of suns at the last); a Ra tile drawn starts an auction and ends "
    "the epoch when the Ra track fills. You play against two AI seats, through epoch 2."
)

START_NOTE = (
    "The guide played epoch 1 for everyone and it scored: {s0} 16, {s1} 17, {s2} 10. You kept a "
    "pharaoh and five monuments (pharaohs, Niles and the monuments are kept from one epoch to the next; "
    "the other tiles leave), your suns are face up again (5, 8, 10 and 13), and you start epoch 2."
)

STOP_NOTE = (
    "The Ra track is full: epoch 2 is over and has scored as epoch 1 did (gods 2 each, gold 3, "
    "most pharaohs +5 and fewest -2, niles and floods 1 each with a flood, civilizations by their "
    "kinds, traders 1 each). That is the end of the guided game. In a whole game epoch 3 follows, "
    "and at its end monuments score too (by different kinds, and 5 to 15 for three to five of one "
    "kind) and the highest sum of suns gains 5, the lowest loses 5."
)

TIPS = {
    "draw": (
        "Draw a tile onto the auction track: each tile makes the lot bigger for whoever buys it. "
        "Draw while the track is small or holds little you want; a Ra tile may come and force an auction."
    ),
    "invoke": (
        "Invoke Ra to auction the track now, with you bidding last. Do it when the lot is worth "
        "one of your suns to you and before the others can take it cheaply; you must bid if nobody else does."
    ),
    "god": (
        "Spend a god tile to take one tile of the track for free: good when one tile is worth more "
        "than the god's own points (a pharaoh in a race, a monument you collect)."
    ),
    "done": "Stop using gods for this turn: take more only when another tile on the track is worth a god.",
    "bid": (
        "Bid one of your suns for the whole track. A high sun buys big lots and the sun from the "
        "centre comes to you for the next epoch; keep your low suns for small lots."
    ),
    "pass": (
        "Pass: let the lot go. Pass when it is worth less than your cheapest sun that would win, "
        "or is full of disasters; your suns are all you can buy with this epoch."
    ),
    "discard": (
        "A disaster you won costs two tiles of its kind: give up those you need least (a monument "
        "kind you will not complete, a civilization you already hold twice)."
    ),
}

NOTES = {  # the learner's step (counting epoch 1's moves too) -> what this step of the script is about
    22: "a new epoch begins with an empty track: a single tile is too little yet to spend a sun on.",
    23: (
        "a Ra tile started this auction and nobody has bid yet, so a low sun is enough to bid for "
        "this small lot (the others may bid higher); nobody has to bid, and an unsold lot stays "
        "on the track."
    ),
    29: "the track is full: if nobody buys, all eight tiles are discarded.",
    30: (
        "the lot you won held two unrests and an earthquake, disasters that cost two tiles each "
        "(civilizations, monuments): choose the monuments to lose, keeping the kinds you hold most of."
    ),
    34: "a god tile takes the pharaoh from the track with no auction at all.",
}

GUIDE = Guide(
    game="ra",
    players=3,
    seat=0,
    seed=164,
    options={},
    script="""
2 draw
0 draw
1 draw
2 invoke
0 bid 4
1 bid 6
2 bid 8
0 draw
1 draw
2 draw
0 invoke
1 bid 3
2 bid 5
0 bid 7
1 draw
2 draw
0 draw
1 invoke
2 bid 2
0 bid 4
1 bid 6
2 draw
0 draw
1 pass
2 bid 2
0 pass
1 draw
2 draw
0 draw
1 bid 3
2 bid 5
0 pass
1 draw
2 draw
0 bid 4
1 pass
2 pass
0 draw
1 draw
2 draw
0 draw
1 invoke
2 bid 13
0 draw
1 draw
0 draw
1 god astronomy
0 draw
1 invoke
0 bid 10
1 pass
0 draw
1 draw
0 draw
1 invoke
0 bid 11
1 pass
1 draw
1 draw
1 draw
1 invoke
1 bid 3
1 draw
1 draw
1 god agriculture
1 done
1 draw
1 draw
1 invoke
1 bid 9
1 draw
1 draw
1 draw
1 god religion
1 done
1 draw
1 invoke
1 bid 12
0 draw
1 draw
2 draw
0 bid 5
1 bid 7
0 draw
1 draw
2 invoke
0 bid 5
1 bid 9
0 draw
1 draw
2 draw
0 draw
1 draw
2 draw
0 draw
1 draw
2 invoke
0 bid 5
1 pass
2 pass
0 discard fortress
0 discard obelisk
0 draw
1 pass
2 pass
0 pass
1 draw
2 draw
0 god pharaoh
1 draw
2 draw
0 draw
1 invoke
2 bid 1
0 bid 8
1 pass
2 draw
0 draw
1 draw
2 draw
0 invoke
1 bid 3
2 bid 4
0 bid 10
1 draw
2 pass
0 pass
1 pass
2 draw
0 draw
1 draw
2 invoke
0 bid 13
1 draw
2 draw
1 bid 3
2 bid 4
1 draw
2 pass
1 pass
2 draw
1 draw
2 bid 1
1 bid 3
2 draw
1 draw
2 invoke
1 bid 11
2 draw
2 draw
2 draw
2 draw
2 draw
2 draw
2 draw
2 pass
2 draw
2 draw
2 draw
0 draw
1 bid 3
2 pass
0 pass
1 draw
2 draw
0 draw
1 draw
2 invoke
0 bid 5
1 bid 7
2 pass
0 draw
1 draw
2 bid 1
0 pass
1 bid 4
2 draw
0 draw
1 pass
2 pass
0 pass
1 draw
2 draw
0 pass
1 pass
2 bid 1
0 draw
1 draw
2 draw
0 draw
1 pass
2 pass
0 pass
1 draw
2 draw
0 draw
1 draw
2 invoke
0 pass
1 pass
2 bid 2
2 discard step-pyramid
2 discard fortress
0 draw
1 draw
2 draw
0 pass
1 pass
2 pass
0 draw
1 pass
2 pass
0 pass
1 draw
2 invoke
0 bid 5
1 pass
2 bid 6
0 draw
""",
    intro=INTRO,
    tips=TIPS,
    notes=NOTES,
    covers=("draw", "invoke", "bid", "pass", "god", "discard"),
    start=78,  # epoch 1, played by the guide
    start_note=START_NOTE,
    stop=158,  # epoch 2's scoring
    stop_note=STOP_NOTE,
)
