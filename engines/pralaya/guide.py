"""Pralaya's guided first game: the script and what the guide says at each kind of step, as
data (the runner is :mod:`engines.guide`). The sentences follow docs/rules/pralaya.md#turn,
#components and #scoring."""

from __future__ import annotations

from engines.guide import Guide

INTRO = (
    "Pralaya: the island sinks while you gather relics. Each turn you take relics with your "
    "Vitality, then may buy the Veda or a Dhoni with coins. Buying a Dhoni is your escape: only "
    "players who escape score. You play first, against two AI seats."
)

TIPS = {
    "take": (
        "Take a relic whose Vitality cost (its V) you can still pay. Coins pay for the Veda and a "
        "Dhoni, and what is left of them scores; the other relics score in sets: pairs of "
        "manuscripts, three urns, Great Statues their count squared, 15 for the most Fossils."
    ),
    "done": "Stop taking relics for this turn when nothing left is worth your Vitality.",
    "buy veda": (
        "Buy the Veda: your Vitality goes from 3 to 4 for every later turn, and it makes the "
        "Brahmin worth 15. Buy it early, while many turns are left to use it."
    ),
    "buy dhoni": (
        "Buy the Dhoni and escape: from now on you only sink relics. Escape once what you hold "
        "scores well, before the cheap Dhoni is gone, since a player who never escapes scores nothing."
    ),
    "pass": "Buy nothing this turn: keep your coins for the Veda or a Dhoni later.",
    "discard": (
        "You have escaped: sink a relic the others want most (their urns, the Fossils they race "
        "for), so that they score less than you."
    ),
}

NOTES = {  # the learner's step -> what this step of the script is about
    1: (
        "you play first, and in round 1 the first player has only 1 Vitality: one relic costing "
        "1 V is all you can take."
    ),
    10: "one silver and one copper pay the Veda's price of 4 exactly; it counts from your next turn.",
    11: "your first turn with the Veda: 4 Vitality instead of 3.",
    25: "a gold coin pays for the Dhoni: you escape with everything you collected.",
    26: "escaped players never buy again, and each turn sink one relic; your coins still score.",
}

GUIDE = Guide(
    game="pralaya",
    players=3,
    seat=0,
    seed=3,
    options={"first_seat": 0},
    script="""
0 take b5
0 pass
1 take c4
1 pass
2 take b3
2 pass
0 take c4
0 take a4
0 pass
1 take a5
1 take a4
1 pass
2 take a5
2 take b1
2 pass
0 take b5
0 take b2
0 pass
1 take b5
1 pass
2 take a5
2 take b5
2 pass
0 take a5
0 buy veda 0g 1s 1c
1 take b5
1 take a4
1 pass
2 take a4
2 take a2
2 pass
0 take a1
0 take b4
0 pass
1 take b5
1 take c1
1 pass
2 take b4
2 take a2
2 pass
0 take c1
0 take b4
0 take b1
0 pass
1 take c1
1 take b4
1 pass
2 take b5
2 take b4
2 take c1
2 pass
0 take a1
0 take b4
0 pass
1 take a1
1 take c1
1 pass
2 take a2
2 take a1
2 buy dhoni 1g 1s 0c
0 take a1
0 take c4
0 take c5
0 done
0 buy dhoni 1g 0s 0c
1 take c4
1 take a1
1 pass
2 discard a1
0 discard c4
1 take c4
1 take c3
1 buy dhoni 0g 2s 1c
""",
    intro=INTRO,
    tips=TIPS,
    notes=NOTES,
    covers=("take", "buy veda", "buy dhoni", "discard"),
    defer={"buy dhoni": "buy veda"},
)
