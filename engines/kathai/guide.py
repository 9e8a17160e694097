"""Kathai's guided first game: the script and what the guide says at each kind of step, as data
(the runner is :mod:`engines.guide`). The sentences follow docs/rules/kathai.md#automatic-draw,
#trade-protocol and #final-turns."""

from __future__ import annotations

from engines.guide import Guide

INTRO = (
    "Kathai: trade goods cards and sell them into a row of prices that shifts with every sale. "
    "Each sale scores one point per card plus its place's bonus, and the sold goods moves to the "
    "cheap end of the row. When the pile runs out everyone has two more turns. You play first, "
    "against two AI seats."
)

TIPS = {
    "sell": (
        "Sell cards of one goods: a point per card plus the bonus of its place in the row. Sell "
        "when you reach the place's minimum with many cards or a high bonus; the goods then goes last."
    ),
    "bribe": (
        "Bribe to swap two neighbouring goods in the row, paying a card (or a profit card): move "
        "the goods you hold many of toward the rich end before you sell it."
    ),
    "buy": "Buy a card with a profit card: worth it when you need one more card to sell well.",
    "swap": (
        "Swap a card you do not want for the top of the pile: clear a goods you will never sell "
        "for a fresh chance at one you collect."
    ),
    "offer": (
        "Offer a trade: give cards you do not need for cards of the goods you collect. Ask for few "
        "cards of the goods you need; others accept only what helps them too."
    ),
    "accept": (
        "Accept the offer with the cards you can spare best: take it when what you get helps a "
        "sale of yours more than what you give helps the active player."
    ),
    "decline": "Decline when the trade helps the active player sell more than it helps you.",
    "pass": "Pass: end your turn without a sale; keep cards for a better sale later.",
}

NOTES = {  # the learner's step -> what this step of the script is about
    1: (
        "selling silk now would score 1 point; spice needs 1 more to sell (your t51 shows 2, its "
        "place's min is 3: My hand says so), so ask for spice."
    ),
    2: (
        "nobody accepted; salt needs 4 more to sell (your t3 shows 1, its place's min is 5), so "
        "trade t3 for a fresh card."
    ),
    3: "{s1} gives a tea card for your silk card: tea is a goods you collect.",
    12: "your spice cards reach the minimum of spice's place: your first sale.",
    13: "you pay the bribe with the profit card your first sale gave you.",
    38: "a profit card buys the top card of the pile while the pile lasts.",
    40: "the pile is empty: these are the final turns, for selling what you hold.",
}

GUIDE = Guide(
    game="kathai",
    players=3,
    seat=0,
    seed=1,
    options={"first_player": "seat0"},
    script="""
0 offer all t3 for spice 1
1 decline
2 decline
0 swap t3
1 offer all t10 for silk 1
0 accept t27
1 pass
2 offer all t11 for spice 1
0 decline
1 decline
2 swap t11
0 offer all t6 for spice 1
1 decline
2 accept t38
0 pass
1 offer all t27 for tea 1
0 decline
2 accept t39
1 pass
2 offer all t4 for spice 1
0 decline
1 decline
2 swap t4
0 offer all t12 for tea 1
1 decline
2 decline
0 swap t12
1 offer all t26 for silk 1
0 decline
2 decline
1 swap t26
2 sell silk t6 t16 t23 t27 t33 t34
0 sell spice t38 t50 t51
1 sell salt t13 t40 t43
2 bribe salt spice profit
0 bribe salt silk profit
1 bribe silk spice profit
2 offer all t30 for salt 1
0 decline
1 decline
2 swap t30
0 sell tea t10 t20 t35 t53 t54
1 offer all t19 for gold 1
0 decline
2 decline
1 swap t19
2 offer all t36 for spice 1
0 decline
1 accept t24
2 pass
0 offer all t22 for spice 1
1 decline
2 decline
0 swap t18
1 sell gold t1 t21 t36 t39
2 offer all t15 for tea 1
0 decline
1 decline
2 swap t15
0 bribe gold tea profit
1 offer all t45 for spice 1
0 decline
2 decline
1 swap t48
2 offer all t44 for salt 1
0 decline
1 decline
2 swap t14
0 offer all t2 for silk 1
1 decline
2 decline
0 swap t2
1 offer all t29 for spice 1
0 decline
2 decline
1 swap t7
2 sell spice t8 t24 t28 t46
0 offer all t17 for salt 1
1 decline
2 decline
0 swap t17
1 bribe gold tea profit
2 bribe silk tea profit
0 offer all t5 for salt 1
1 decline
2 decline
0 swap t5
1 sell silk t41 t45
2 offer all t11 for spice 1
0 decline
1 decline
2 swap t11
0 sell gold t12 t37
1 bribe gold silk profit
2 offer all t4 for spice 1
0 decline
1 accept t55
2 pass
0 offer all t9 for salt 1
1 decline
2 accept t30
0 pass
1 sell spice t18 t49
2 sell tea t9 t25 t52 t55
0 sell salt t22 t30 t31 t42
1 bribe salt tea profit
2 offer all t2 for silk 1
0 decline
1 decline
2 swap t2
0 buy
1 sell salt t3 t4 t14 t26 t32
2 offer all t2 for silk 1
0 decline
1 decline
2 pass
0 sell spice t17 t48
1 offer all t29 for salt 1
0 decline
2 decline
1 pass
2 bribe salt spice profit
0 sell tea t19 t47
1 pass
2 pass
""",
    intro=INTRO,
    tips=TIPS,
    notes=NOTES,
    covers=("offer", "accept", "sell", "bribe", "swap"),
)
