"""render/ratings: the /leaderboard and /profile pictures stay 1000 px wide and about square
(shown whole on a phone) whatever they hold, and differ with what they show."""

from __future__ import annotations

from render.ratings import leaderboard, profile
from render.ratings.cards import Board, Line, Played, Profile, Standing


def _top(n: int, me: int | None = None) -> tuple[Line, ...]:
    return tuple(
        Line(i + 1, f"player {i} " + "x" * (i * 9), 2000 - 50 * i, 10 + i, i, i == me) for i in range(n)
    )


def test_leaderboards_are_about_square_and_show_the_askers_place() -> None:
    empty = leaderboard.draw(Board("Kathai", "this server", "people", (), None, 0))
    full = leaderboard.draw(Board("Kathai", "this server", "people", _top(10, me=3), _top(10, me=3)[3], 57))
    below = leaderboard.draw(Board("Ra", "all servers", "ai", _top(10), Line(23, "Zed", 812, 4, 0, True), 57))
    short = leaderboard.draw(Board("Ra", "this server", "people", _top(2, me=1), _top(2, me=1)[1], 2))
    stranger = leaderboard.draw(Board("Ra", "this server", "people", _top(2), None, 2))
    for img in (empty, full, below, short, stranger):
        assert img.width == 1000 and leaderboard.MIN_H <= img.height <= 1100, img.size
    assert full.tobytes() != below.tobytes()
    # a short table ends with the asker's card: their figures, or how to get on the table
    card = (0, short.height - 300, 1000, short.height)
    assert short.crop(card).tobytes() != stranger.crop(card).tobytes()


def test_profiles_are_about_square_with_their_trend_and_last_games() -> None:
    tables = tuple(Standing(g, "people", 1200 + i, i + 1, 9, 5, 2, 1300, 7) for i, g in enumerate("ABCDEFG"))
    last = tuple(Played(i, "Kathai", "ai", 1, 3, 1000, 1000 + i, 0.0) for i in range(5))
    full = profile.draw(
        Profile("Bea", "this server", tables, "A", tuple(range(1000, 1310, 10)), tables[0], last)
    )
    flat = profile.draw(Profile("Bea", "this server", tables[:1], "A", (1000, 1000), tables[0], last[:1]))
    nothing = profile.draw(Profile("Cy", "all servers", (), "", (), None, ()))
    for img in (full, flat, nothing):
        assert img.width == 1000 and 200 <= img.height <= 1100, img.size
