"""The ratings' pictures, shared by every game (not per game): the ``/leaderboard`` table
(:func:`leaderboard.draw`) and the ``/profile`` card (:func:`profile.draw`), 1000 px wide and
about square like the boards, from the plain values of :mod:`render.ratings.cards`."""
