"""Phraya's guided first game: the script and what the guide says at each kind of step, as data
(the runner is :mod:`engines.guide`). The sentences follow docs/rules/phraya.md#turn,
#merchant, #barge, #return-to-pier, #actions and #scoring."""

from __future__ import annotations

from engines.guide import Guide

INTRO = (
    "Phraya: each turn you play a card, row your boat along the channels of the floating market "
    "and trade at the two stalls where it stops, and with the King when the Royal Barge is near. "
    "Points come from coins, the Temple, the King's chart, orders delivered, cards and who owns "
    "the most stalls of each good. This guided game is short (6 rounds); you play first, against "
    "two AI seats."
)

TIPS = {
    "boat": "Place your boat on the rim: start near stalls you want to trade at or own.",
    "stall": (
        "Take a goods stall: every trade others make there gives you a flower, and the most "
        "stalls of a good score at the end (veg most, meat least)."
    ),
    "play b1": (
        "Return to Pier takes your discard pile back (a coin per card) but skips moving and "
        "trading: play it when your good cards are spent."
    ),
    "play b2": (
        "Haggle moves the Merchant one space and nudges two prices: raise what you sell, lower what you buy."
    ),
    "play b3": (
        "Rumour moves the Merchant two spaces and moves prices more: use it to swing a price you trade in."
    ),
    "play b4": (
        "Procession moves the Royal Barge one crossing; every stall you own beside it pays a flower. "
        "Steer it next to your stalls, or to a crossing where you can reach the King."
    ),
    "play b5": (
        "Grand Procession moves the Barge one or two crossings: a longer reach to your stalls or the King."
    ),
    "play m#": (
        "Play a market card you bought: its effect now, and what it counts for at the end, "
        "make it stronger than a basic card."
    ),
    "merchant": "Choose how far the Merchant goes: his space decides which two goods change price.",
    "price": "Give the rise to a good you will sell and the fall to one you will buy.",
    "barge": (
        "Choose the Barge's crossing: next to your own stalls "
        "for blessings, or where your boat can meet the King."
    ),
    "discard": "Trade goods or flowers as the card allows: flowers pay for the Temple and cards.",
    "done": "Stop trading goods or flowers here once the next one is worth more kept than traded.",
    "premove": (
        "The card carries your boat two sections first: pick the side that leaves you the better move."
    ),
    "move": (
        "Row to a section: you trade at its two stalls (and with the King if the Barge is on one "
        "of its crossings). Pick the section whose stalls fit your goods and coins."
    ),
    "refresh": "Refresh the display when its first card is of no use to you, to see a new one.",
    "keep": "Keep the display as it is when its first card is one you may buy later.",
    "buy": "Buy goods while they are cheap: you need them for orders and Temple offerings.",
    "sell": "Sell goods while their price is high: coins buy cards, stalls and points (one per 5 coins).",
    "basket": "Buy the basket here: more room for goods, so that one trip fills an order or an offering.",
    "rower": "Hire a rower: your boat can then go one section further each turn.",
    "deliver": "Deliver the restaurant's order: its coins now and its points at the end.",
    "temple": (
        "Make an offering at the Temple: a disk in the good's row scores that row's value, and "
        "the most disks in each part of the Temple score more."
    ),
    "scribe": "Buy a card from the display: a stronger card for your hand and its points at the end.",
    "king": (
        "Make an offering to the King: a disk on his chart and a favor. The most disks, and one in "
        "each row, score at the end."
    ),
    "end": "End your turn when no stall here fits your goods and coins: unspent coins still score.",
}

NOTES = {  # the learner's step -> what this step of the script is about
    1: "you are the first player, so you place your boat before the others choose theirs.",
    2: (
        "h12n is the veg stall on the north (upper) side of section h12; veg is the good whose "
        "stall majority scores most (14 for the most stalls)."
    ),
    3: (
        "you hold the five basic cards b1 to b5; a card played stays in "
        "your discard pile until Return to Pier takes the pile back."
    ),
    7: "the Royal Barge lies on a crossing of this section, so the King takes an offering from you here.",
    8: "spend the favor the King just gave you: one unit bought for free.",
    18: "paying the scribe in flowers keeps your coins, which score a point per 5.",
    19: "the market card you bought plays like a basic card, with a stronger effect.",
    22: "Return to Pier: your played cards come back to your hand, a coin for each; no move this turn.",
    24: "the last round: this guided game stops after round 6.",
}

GUIDE = Guide(
    game="phraya",
    players=3,
    seat=0,
    seed=14,
    options={"round_limit": 6},
    script="""
0 boat v00
1 boat v03
2 boat v20
2 stall h00s
1 stall h03s
0 stall h12n
0 play b2
0 merchant +1
0 price fish +1 meat -1
0 move h11
0 king c1
0 buy h11n 1 favor 1
1 play b2
1 merchant +1
1 price fish +1 veg -1
1 move h22
1 buy h22s 1
2 play b2
2 merchant +1
2 price fruit +1 meat -1
2 move h12
2 king c2
2 buy h12n 1
2 end
0 play b3
0 merchant +2
0 price fish +2 fruit -1
0 move h00
0 temple meat
0 buy h00s 1
1 play b3
1 merchant +2
1 price veg +2 fruit -1
1 move h20
1 temple veg
1 buy h20n 1
2 play b3
2 merchant +2
2 price veg +2 fish -1
2 move h03
2 temple veg
2 end
0 play b4
0 barge x12
0 move v01
0 scribe m18 flowers
1 play b4
1 barge x02
1 move v03
1 rower meat
2 play b4
2 barge x01
2 move v20
2 end
0 play m18
0 move h00
0 temple veg
1 play b1
1 keep
2 play b1
2 keep
0 play b1
0 keep
1 play b2
1 merchant +1
1 price fish +1 fruit -1
1 move v00
1 basket
1 buy v00w 1
2 play b2
2 merchant +1
2 price meat +1 veg -1
2 move h02
2 buy h02n 1
0 play b5
0 barge x11
0 move h01
1 play b3
1 merchant +2
1 price fish +2 meat -1
1 move h00
1 temple fruit
2 play b3
2 merchant +2
2 price meat +2 fruit -1
2 move h03
2 temple meat favor
""",
    intro=INTRO,
    tips=TIPS,
    notes=NOTES,
    covers=(
        "play b1",
        "play b2",
        "play b3",
        "play b4",
        "play b5",
        "play m#",
        "merchant",
        "price",
        "barge",
        "move",
        "buy",
        "temple",
        "king",
        "scribe",
    ),  # fmt: skip
    defer={"play b1": "scribe"},
)
