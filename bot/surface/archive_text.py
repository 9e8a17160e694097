"""The sentences of looking back: a replay's text at one move, a person's history, a game's server
figures (``/stats``). Pure functions of what the host's archive gives (public only)."""

from __future__ import annotations

from collections.abc import Sequence

from ..host.archive import Frame, Past
from ..host.gamestats import Stats
from .text import clip


def replay(frame: Frame) -> str:
    """A replay's text: the game and the move shown, who played, what a spectator read of the
    move, and the result at the last move of a finished game."""
    state = {"finished": "finished", "ended": "ended early", "active": "running"}.get(
        frame.status, frame.status
    )
    where = "the setup" if frame.move == 0 else f"move {frame.move} of {frame.last}"
    lines = [f"⏪ **{frame.title}** — replay — {where} ({state})", "Players: " + ", ".join(frame.names)]
    lines += [f"• {line.text}" for line in frame.lines] or ["• (nothing a spectator could see)"]
    if frame.status == "active" and frame.move == frame.last:
        lines.append("This is the newest move; **Last** shows the moves played since.")
    if frame.result:
        lines.append(f"🏁 {frame.result}")
    return clip("\n".join(lines), 3800)


def replay_footer(frame: Frame) -> str:
    """The small line under a replay."""
    return f"{frame.kind.capitalize()} #{frame.game_id} — replay — only you see this"


def history(name: str, games: Sequence[Past]) -> str:
    """``/history``: one line per game, the newest first."""
    if not games:
        return f"{name} has played no game on this server yet."
    lines = [f"📜 **{name}**'s last games on this server (newest first):"]
    for i, g in enumerate(games, 1):
        when = f"<t:{int(g.row.updated_at)}:d>"
        lines.append(f"{i}. **{g.title}** · {when} · {', '.join(g.names)} — {g.result}")
    lines.append("Press a game's button to replay it.")
    return clip("\n".join(lines))


def stats(title: str, s: Stats) -> str:
    """``/stats``: the figures of one game on this server."""
    if not s.games:
        return f"No game of {title} has been finished on this server yet."
    lines = [
        f"📊 **{title}** on this server",
        f"Games finished: {s.games}",
        f"Average length: {s.average_moves:.1f} moves, {s.average_minutes:.1f} minutes (first move to last)",
    ]
    if s.by_players:
        lines.append("Wins by seat position (a shared first place counts for each):")
    for n in sorted(s.by_players):
        games = s.by_players[n]
        parts = [f"seat {p + 1} {100 * s.wins[n][p] / games:.0f}%" for p in range(n)]
        lines.append(f"• {n} players ({games} game{'s' if games != 1 else ''}): " + " · ".join(parts))
    if s.ai:
        lines.append("The AI against people (each person it played with: ahead–level–behind):")
    for level in sorted(s.ai):
        r = s.ai[level]
        lines.append(
            f"• {level}: {r.games} seat{'s' if r.games != 1 else ''}, {r.ahead}–{r.level}–{r.behind}"
        )
    if s.counted < s.games:
        lines.append(f"({s.games - s.counted} game(s) no longer replay; their results are left out.)")
    return clip("\n".join(lines))


def stats_summary(s: Stats) -> str:
    """The picture's line under its header."""
    games = f"{s.games} game{'s' if s.games != 1 else ''}"
    return f"{games} · {s.average_moves:.1f} moves · {s.average_minutes:.1f} minutes on average"
