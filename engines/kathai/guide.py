"""Kathai's guided first game: the script and what the guide says at each kind of step, as data
(the runner is :mod:`engines.guide`). The sentences follow docs/rules/kathai.md#automatic-draw,
#trade-protocol and #final-turns."""

from __future__ import annotations

from engines.guide import Guide

INTRO = (
    "Kathai: trade goods cards and sell them into a row of prices that shifts with every sale. "
    "Each sale scores one point per card plus its place's bonus, and the sold goods moves to the "
    "cheap end of the row. When the pile runs out everyone has two more turns. You play seat 1 "
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

GUIDE = Guide(
    game="kathai",
    players=3,
    seat=0,
    seed=2,
    options={"first_player": "seat0"},
    script="""
0 offer all t16 for spice 1
1 decline
2 decline
0 swap t16
1 offer all t5 for salt 1
0 accept t30
1 pass
2 offer all t27 for spice 1
0 decline
1 decline
2 swap t27
0 bribe gold salt t10
1 offer all t7 for gold 1
0 decline
2 decline
1 swap t7
2 offer all t8 for salt 1
0 decline
1 decline
2 swap t8
0 sell salt t32 t42
1 offer all t30 for gold 1
0 decline
2 accept t21
1 pass
2 offer all t19 for spice 1
0 decline
1 decline
2 swap t19
0 bribe salt silk profit
1 sell gold t21 t36 t40 t52
2 sell silk t15 t23 t30 t41 t44 t46 t54
0 offer all t5 for salt 1
1 decline
0 swap t5
1 bribe salt spice profit
2 offer all t2 for spice 1
0 decline
1 decline
2 swap t2
0 offer all t1 for spice 1
1 decline
2 decline
0 swap t1
1 offer all t31 for tea 1
0 decline
2 decline
1 swap t29
2 bribe gold silk profit
0 sell spice t18 t33
1 sell salt t22 t26 t31 t49
2 offer all t34 for gold 1
0 accept t12
2 pass
0 bribe salt spice profit
1 offer all t35 for gold 1
0 accept t37
1 pass
2 offer all t3 for silk 1
0 decline
1 decline
2 swap t3
0 sell salt t13 t14
1 bribe gold silk profit
2 offer all t12 for silk 1
0 decline
1 accept t47
2 pass
0 sell tea t9 t20 t25 t34 t35
1 sell gold t12 t37 t38 t39
2 sell spice t17 t28 t48 t51
0 bribe gold spice profit
1 bribe spice tea profit
2 offer all t53 for silk 1
0 decline
1 decline
2 swap t53
0 bribe gold tea profit
1 offer all t43 for gold 1
0 decline
2 decline
1 swap t43
2 offer all t6 for silk 1
0 decline
1 decline
2 swap t6
0 offer all t11 for salt 1
1 decline
2 decline
0 swap t4
1 offer all t5 for gold 1
0 decline
2 decline
1 swap t5
2 offer all t1 for silk 1
0 decline
1 decline
2 swap t1
0 offer all t11 for salt 1
1 decline
2 decline
0 swap t3
1 offer all t2 for salt 1
0 decline
2 decline
1 swap t2
2 offer all t4 for silk 1
0 decline
1 decline
2 swap t4
0 offer all t1 for salt 1
1 decline
2 decline
0 swap t1
1 offer all t2 for salt 1
0 decline
2 decline
1 swap t2
2 sell gold t1 t27 t29
0 sell spice t8 t50
1 sell tea t43 t55
2 sell spice t7
0 sell gold t2 t11
1 sell spice t24
2 pass
0 sell tea t19 t53
""",
    intro=INTRO,
    tips=TIPS,
    covers=("offer", "accept", "sell", "bribe", "swap"),
)
