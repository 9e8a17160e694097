"""Every sentence the bot posts, in one place. Pure functions of games, batches and views.

Seat tokens ``{s0}``… are replaced by display names (never mentions, so nobody is pinged by a
log line); only "who must act next" and reminders mention people.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from engines import base
from engines.base import Engine

from ..host import guides
from ..host.clock import format_duration
from ..host.live import Batch, Listing, LiveGame
from ..host.names import shown
from ..host.store import SeatRow
from . import emojis, levels

LIMIT = 2000  # Discord's message length

APOLOGY = (
    "Sorry, something went wrong on my side while doing that{where}. It has been logged; "
    "nothing was changed unless a board was posted. Please try again."
)
NO_POST = (
    "I cannot post in this channel. Give me View Channel, Send Messages, Attach Files and "
    "Read Message History here (and Create Public Threads + Send Messages in Threads for a "
    "thread per game)."
)

NO_FILES = (
    "🖼️ I may not attach pictures here (give me **Attach Files**); `/game status` shows you the "
    "board picture privately."
)


STORE_DOWN = (
    "⚠️ Could not save {what}: the bot's database is not answering just now. Nothing "
    "changed; try again in a moment."
)


def store_down(what: str) -> str:
    """The private answer when the database refused a write (or a read): nothing changed."""
    moves = ("move", "menu", "form")
    return STORE_DOWN.format(what="your move" if what in moves else "that")


def slow_down(wait: float) -> str:
    """The answer to a user who sends commands faster than the flood guard allows."""
    return f"Slow down: too many commands at once. Try again in {max(1, round(wait + 0.5))} s."


def apology(game_id: int | None) -> str:
    """The message for an unexpected error, naming the game if known."""
    return APOLOGY.format(where=f" in game #{game_id}" if game_id else "")


def clip(text: str, limit: int = LIMIT) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def fit_lines(head: Sequence[str], body: Sequence[str], tail: Sequence[str], limit: int = LIMIT) -> str:
    """Join ``head``, ``body`` and ``tail`` lines; when too long, drop the oldest body lines first
    (replaced by "…"), so the newest events and the tail always show."""
    body = list(body)
    dropped = False
    while body:
        text = "\n".join([*head, *(["…"] if dropped else []), *body, *tail])
        if len(text) <= limit:
            return text
        body.pop(0)
        dropped = True
    return clip("\n".join([*head, *(["…"] if dropped else []), *tail]), limit)


def seat_label(seat: SeatRow) -> str:
    """ "Ann", "AI 1 🤖", "Bob (AI plays)"."""
    name = shown(seat.name)
    if seat.is_ai and seat.user_id is None:
        return f"{name} 🤖"
    if seat.is_ai:
        return f"{name} (resigned, AI plays)"
    if seat.ai_takeover:
        return f"{name} (AI plays until they /move)"
    return name


def mention(seat: SeatRow) -> str:
    """A ping for a person's seat, the plain name for an AI seat."""
    return f"<@{seat.user_id}>" if seat.user_id is not None and not seat.is_ai else shown(seat.name)


def options_line(engine: Engine, options: dict[str, Any]) -> str:
    """ "open_hands=false, veda_price=4" (all options, as resolved)."""
    return (
        ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in sorted(options.items()))
        or "none"
    )


def rated_line(game: LiveGame) -> str:
    """What a lobby says of the ratings: "Rated", "Rated (against the AI)" or "Unrated"."""
    if not game.rated:
        return "Unrated"
    return "Rated (against the AI)" if any(s.is_ai and s.user_id is None for s in game.seats) else "Rated"


def lobby(game: LiveGame) -> str:
    """The lobby message."""
    e, row = game.engine, game.row
    seats = "\n".join(f"{s.seat + 1}. {seat_label(s)}" for s in game.seats) or "(nobody yet)"
    if row.status == "lobby":
        starter = f"<@{row.creator_id}>" if row.creator_id else "A player"  # 0: a forgotten creator
        state = (
            f"Press **Join** to play. {starter} presses **Start** with "
            f"{e.min_players}–{e.max_players} players (**Add AI** fills seats)."
        )
    elif row.status == "active":
        where = f"<#{row.thread_id}>" if row.thread_id else "this channel"
        state = f"Started: the game is played in {where}."
    else:
        state = "This lobby is closed."
    return clip(
        f"🎲 **{game.title}** — lobby\n"
        f"Players ({len(game.seats)}/{e.max_players}):\n{seats}\n"
        f"Turn clock: {format_duration(row.clock_seconds)} · Options: {options_line(e, row.options)}"
        f" · {rated_line(game)}\n"
        + (f"{levels.lobby_line(e.name)}\n" if row.status == "lobby" else "")
        + f"{state}"
    )


END_KINDS = frozenset({"over", "game_over"})
"""The engines' end-of-game events ("Game over: …, scores"): the final message leaves them out,
its head says the game is over and its ranking gives every score."""


def event_lines(batch: Batch, leave_out: frozenset[str] = frozenset()) -> list[str]:
    """What everyone sees of the batch's events, one line each: the public events and the public
    twins of private ones (a private event itself never appears here), but none of a kind in
    ``leave_out``."""
    return [
        "• " + batch.fmt(emojis.in_text(batch.engine.name, ev.text))  # the pieces' emojis, names after
        for step in batch.steps
        for ev in base.events_for(step.events, None)
        if ev.kind not in leave_out
    ]


def turn_lines(batch: Batch) -> list[str]:
    """The body lines a board shows for ``batch``: its notes, then its public events, then the
    guide's words of a guided game (they speak about the position the events led to)."""
    notes = [batch.fmt(n) for n in batch.notes]
    guide = [n for n in notes if n.startswith(guides.MARK)]
    return [n for n in notes if not n.startswith(guides.MARK)] + event_lines(batch) + guide


HOW = {
    "buttons": "the buttons below or `/move`",
    "menu": "the menu below or `/move`",
    None: "`/move` (it lists your moves)",
    "private": "your moves are in your DM and under **My hand** (only you see them), or use `/move`",
}
"""How a turn message says to play, by :func:`bot.surface.controls.kind` ("private": the
moves depend on what the player hides, so only their own My hand answer offers them)."""


def board_head(title: str, version: int) -> str:
    """The first line of the board of ``title`` at ``version`` (how a board is recognised again
    after a restart, see ``Publisher.landed``)."""
    return f"**{title}** · move {version}"


def final_head(title: str) -> str:
    """The first line of a game's final score sheet."""
    return f"🏁 **{title}** is over."


def sheet_head(title: str) -> str:
    """How an interim score sheet's caption begins."""
    return f"📊 **{title}** · "


def turn(
    batch: Batch,
    headline: str,
    awaited: Iterable[SeatRow],
    deadline: float | None,
    controls: str | None = None,
    earlier: Sequence[str] = (),
    extra: Sequence[str] = (),
) -> str:
    """A turn message: notes, the events, whose turn it is (mentioned), how to play (``controls``
    is what the message carries: "buttons", "menu", None, or "private" for moves offered only
    in the player's My hand answer) and the clock. ``earlier`` are lines of the same turn already
    shown (when the board is edited in place), put before this batch's."""
    head = [board_head(batch.title, batch.version)]
    body = [*earlier, *turn_lines(batch)]
    people = [mention(s) for s in awaited]
    tail = []
    if headline:
        tail.append(f"**{batch.fmt(headline)}**")
    if people:
        when = f" (turn clock: until <t:{int(deadline)}:R>)" if deadline else ""
        hint = "" if controls == "private" else "; **My hand** shows your view"
        tail.append(f"➡️ {', '.join(people)}: your move{when} — {HOW.get(controls, HOW[None])}{hint}.")
    tail.extend(extra)
    return fit_lines(head, body, tail)


def footer(batch: Batch, deadline: float | None, *, final: bool = False) -> str:
    """The small line under a V2 message: the game, the move and the turn clock ("Pralaya —
    move 12 — turn clock ends <t:…:R>"), or "… — final" for a finished game's sheet (not "·
    move", which begins a board's first line)."""
    parts = [batch.engine.name.capitalize(), f"move {batch.version}"]
    if final:
        parts.append("final")
    elif deadline:
        parts.append(f"turn clock ends <t:{int(deadline)}:R>")
    return " — ".join(parts)


def final(batch: Batch, outcome: base.Outcome | None) -> str:
    """The end message: the last events, the ranking with scores and notes."""
    head = [final_head(batch.title)]
    body = [batch.fmt(n) for n in batch.notes] + event_lines(batch, leave_out=END_KINDS)
    tail: list[str] = []
    if outcome is not None:
        order = sorted(range(len(outcome.ranks)), key=lambda s: (outcome.ranks[s], s))
        for s in order:
            score = outcome.scores[s]
            note = outcome.notes[s] if s < len(outcome.notes) and outcome.notes[s] else ""
            pts = "no score" if score is None else f"{score} pts"
            medal = {1: "🥇", 2: "🥈", 3: "🥉"}.get(outcome.ranks[s], f"{outcome.ranks[s]}.")
            tail.append(f"{medal} {batch.text_names[s]} — {pts}{f' ({batch.fmt(note)})' if note else ''}")
        winners = " and ".join(batch.text_names[w] for w in outcome.winners)
        tail.append(f"Winner: **{winners}**" if winners else "No winner.")
    return fit_lines(head, body, tail)


def ended(batch: Batch) -> str:
    """The message when a game is ended early."""
    head = [f"🛑 **{batch.title}** has been ended."]
    return fit_lines(head, turn_lines(batch), [])


def place(rank: int) -> str:
    """1 → "1st", 2 → "2nd", 11 → "11th"."""
    suffix = "th" if 10 <= rank % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(rank % 10, "th")
    return f"{rank}{suffix}"


def rank_line(outcome: base.Outcome, seat: int) -> str:
    """What a player's final DM says of them: "You finished 2nd of 3 with 41 pts", tied places
    said as such, a seat that scores nothing (a Pralaya player who never escaped) too."""
    n = len(outcome.ranks)
    rank = outcome.ranks[seat]
    tied = sum(r == rank for r in outcome.ranks) > 1
    where = f"{'tied ' if tied else ''}{place(rank)} of {n}"
    score = outcome.scores[seat]
    won = " 🏆" if seat in outcome.winners else ""
    return f"You finished **{where}**{won} " + ("with no score" if score is None else f"with {score} pts")


def dm(
    batch: Batch,
    seat: int,
    link: str,
    private_events: Sequence[str],
    body: str,
    extra: Sequence[str] = (),
    outcome: base.Outcome | None = None,
) -> str:
    """A DM with the private view: names the game, links to it, private events, the text, then
    ``extra`` (what the controls below are for). With ``outcome`` (the game is over) it is the
    player's final DM: its first line says the game is over and the player's rank, once."""
    if outcome is not None:
        head = [
            f"🏁 **{batch.title}** is over (move {batch.version}). {rank_line(outcome, seat)}."
            f" Final sheet: {link}"
        ]
        return fit_lines(head, [f"• {batch.fmt(e)}" for e in private_events], [body] if body else [])
    head = [
        f"🎴 **{batch.title}** — your private view as {batch.text_names[seat]} (move {batch.version}): {link}"
    ]
    game = batch.engine.name
    events = [f"• {emojis.in_text(game, batch.fmt(e))}" for e in private_events]
    body = emojis.in_text(game, body)
    return fit_lines(head, events, [*([body] if body else []), *extra])


def dm_closed(user_id: int, title: str) -> str:
    """The one-time notice that DMs to a player fail."""
    return (
        f"<@{user_id}>, I cannot send you direct messages for **{title}** (your DMs are closed "
        f"to me). Use the **My hand** button or `/hand` to see your private view."
    )


def hand_outdated(title: str) -> str:
    """What a private answer says once a newer one replaced it (Discord refused its edit)."""
    return f"-# 🎴 **{title}**: this view is outdated; your current one is below."


def reminder(title: str, people: Sequence[str], left: float) -> str:
    """The half-time reminder."""
    return (
        f"⏳ {', '.join(people)}: half of your turn time in **{title}** is gone. "
        f"{format_duration(left)} left before the AI plays your turn."
    )


def rearmed(title: str, people: Sequence[str], grace: float) -> str:
    """The notice that a turn clock ran out while the bot was offline and was extended."""
    return (
        f"⏳ {', '.join(people)}: your turn clock in **{title}** ran out while I was offline, so you "
        f"get {format_duration(grace)} more before the AI plays your turn."
    )


def attention(game: LiveGame) -> str:
    """The notice that a game cannot be loaded consistently."""
    who = " ".join(mention(s) for s in game.humans())
    return clip(
        f"⚠️ **{game.title}** needs attention: {game.row.attention}. Moves are paused so "
        f"nothing gets worse; the creator or a server manager can `/game end` it. {who}"
    )


def playable_again(game: LiveGame) -> str:
    """The notice that a game flagged as needing attention checks out again and takes moves."""
    who = " ".join(mention(s) for s in game.humans())
    return clip(
        f"✅ **{game.title}** is playable again: its saved history checks out now, so moves are "
        f"accepted and the turn clock starts afresh. The last board's buttons work. {who}"
    )


def status(game: LiveGame, view: Mapping[str, Any] | None) -> str:
    """/game status: the state, the seats, whose turn, the clock."""
    row = game.row
    lines = [
        f"**{game.title}** — {row.status}" + (f" (needs attention: {row.attention})" if row.attention else "")
    ]
    where = f"<#{row.thread_id}>" if row.thread_id else f"<#{row.channel_id}>"
    lines.append(
        f"Played in {where} · turn clock {format_duration(row.clock_seconds)} · "
        f"options: {options_line(game.engine, row.options)}"
    )
    awaited = set(game.awaited())
    for s in game.seats:
        lines.append(f"{'➡️' if s.seat in awaited else '▫️'} {s.seat + 1}. {seat_label(s)}")
    if view and view.get("headline"):
        lines.append(game.fmt(str(view["headline"])))
    if row.status == "active" and row.deadline:
        lines.append(f"Turn clock runs out <t:{int(row.deadline)}:R>.")
    return clip("\n".join(lines))


def game_list(games: Sequence[Listing]) -> str:
    """/game list."""
    if not games:
        return "No games are open on this server. Start one with `/game new`."
    lines = []
    for g in games:
        where = f"<#{g.row.thread_id}>" if g.row.thread_id else f"<#{g.row.channel_id}>"
        who = ", ".join(shown(s.name) for s in g.seats)
        lines.append(f"**#{g.id}** {g.engine.title} — {g.row.status} in {where} — {who}")
    return fit_lines(["Open games:"], lines, [])


def rules(engine: Engine) -> str:
    """/rules: title, players, summary and every option (by name only when the whole would not
    fit one message: the autocomplete of `/game new options:` describes them)."""
    head = [f"**{engine.title}** ({engine.min_players}–{engine.max_players} players)", engine.summary.strip()]
    tail = ["Play with `/move` (autocomplete lists your legal moves) or the buttons under the board."]
    full: list[str] = []
    if engine.options:
        full.append("**Options** (`/game new options:` as `name=value`, space-separated):")
        for o in engine.options:
            rng = f", {o.min}–{o.max}" if o.kind is int and o.min is not None else ""
            default = str(o.default).lower() if isinstance(o.default, bool) else o.default
            full.append(f"• `{o.name}` ({o.kind.__name__}{rng}, default {default}): {o.help}")
    text = "\n".join(x for x in [*head, *full, *tail] if x)
    if len(text) > LIMIT and engine.options:
        names = ", ".join(f"`{o.name}`" for o in engine.options)
        short = f"**Options** (`/game new options:` as `name=value`, described as you type): {names}."
        text = "\n".join(x for x in [*head, short, *tail] if x)
    return clip(text)


def log(game: LiveGame, history: Sequence[tuple[int, int, str, str, list[str]]]) -> str:
    """/log: the last moves with who played them and what happened."""
    if not history:
        return f"No moves have been played in **{game.title}** yet."
    lines = []
    by_note = {"ai": " (AI)", "clock": " (clock ran out, AI)", "player": ""}
    for version, seat, action, by, events in history:
        what = "; ".join(game.fmt(e) for e in events) or action or "a move that stays hidden"
        typed = f"`{action}` — " if action else ""  # "" when the text names hidden cards
        lines.append(f"`{version:>3}` {game.text_names[seat]}{by_note.get(by, '')}: {typed}{what}")
    return fit_lines([f"**{game.title}** — last moves:"], lines, [])


def played(action: str, private_events: Sequence[str]) -> str:
    """The ephemeral confirmation of the caller's move."""
    extra = "".join(f"\n• {e}" for e in private_events)
    return clip(f"✅ Played `{action}`.{extra}")
