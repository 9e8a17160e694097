"""The words of a game's messages, made by the host: the turn's board (its head, the batch's
notes and events, the headline and who must act), the final score sheet and its ranking, the
notice that a game ended early, each seat's DM, the footer under them, reminders, notices and
the lobby, and the answers to commands about a game (its status, the open games, its rules, its
last moves, a move played). Pure functions of games, batches and outcomes; no Discord here.

Seat tokens ``{s0}``… are replaced by display names (never mentions, so nobody is pinged by a
log line); only "who must act next" and reminders mention people.

An outbox carries the words of its messages as :class:`Words` (``Outbox.words``,
``Outbox.sheet``, ``Outbox.recap``, ``Letter.words``), lines kept apart, because two things stay
the surface's:

- fitting them to Discord's length limit (``bot.surface.text.fit_lines`` drops the oldest body
  lines first) and putting the pieces' application emojis before the words naming a piece in the
  body lines (``bot.surface.emojis.in_text``: the emojis are the bot's on Discord, so the host's
  words stay plain);
- how to play. Whether a prompt's controls can be drawn under the message (at most five rows of
  Discord components, custom ids within 100 characters: ``bot.surface.controls.fits``) and whether
  they are buttons or menus is Discord's presentation, so the host does not pass a kind in: its
  words carry what it knows (the mentions of the people awaited and the turn clock's deadline in
  :attr:`Words.call`, the headline in the tail, a DM's prompt line) and the surface ends the call
  with how to play ("— the buttons below or `/move`; …") and adds its own lines (what each row
  of controls is for, "Use `/move`…" when a DM's controls do not fit).

A board edited in place also shows the earlier lines of the same turn; whether it is edited in
place is decided on Discord (nothing posted below it since), so the surface puts those first.
A DM's head ends where the jump link to the game's board goes (:meth:`Words.linked`): only the
surface knows where the board landed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from engines import base
from engines.base import Engine
from engines.prompt import Prompt

from . import guides
from .clock import format_duration
from .live import Batch, Entry, Listing, LiveGame
from .names import shown
from .store import SeatRow


@dataclass(frozen=True)
class Words:
    """What one message says, in parts: ``head`` lines (always shown), ``body`` lines (the
    notes and events; the oldest are dropped first when the whole is too long), ``tail`` lines
    (always shown), ``call`` (who must act, mentioned, and until when: the surface ends it with
    how to play, see the module docstring; "" when nobody is awaited) and the ``footer`` (the
    small line under a V2 message)."""

    head: tuple[str, ...] = ()
    body: tuple[str, ...] = ()
    tail: tuple[str, ...] = ()
    footer: str = ""
    call: str = ""

    def linked(self, link: str) -> Words:
        """These words with ``link`` (the jump link to the game's board) ending the head, as a
        DM's head says it."""
        if not self.head:
            return self
        return replace(self, head=(*self.head[:-1], self.head[-1] + link))


# ------------------------------------------------------------------ seats, options, lobby


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


def lobby(game: LiveGame, levels: str = "") -> str:
    """The lobby message; ``levels`` is its line on the AI levels while the lobby is open (the
    surface's: the measured win rates ship with it), left out when empty."""
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
    return (
        f"🎲 **{game.title}** — lobby\n"
        f"Players ({len(game.seats)}/{e.max_players}):\n{seats}\n"
        f"Turn clock: {format_duration(row.clock_seconds)} · Options: {options_line(e, row.options)}"
        f" · {rated_line(game)}\n" + (f"{levels}\n" if row.status == "lobby" and levels else "") + f"{state}"
    )


# ------------------------------------------------------------------ a turn's lines


END_KINDS = frozenset({"over", "game_over"})
"""The engines' end-of-game events ("Game over: …, scores"): the final message leaves them out,
its head says the game is over and its ranking gives every score."""


def event_lines(batch: Batch, leave_out: frozenset[str] = frozenset()) -> list[str]:
    """What everyone sees of the batch's events, one line each: the public events and the public
    twins of private ones (a private event itself never appears here), but none of a kind in
    ``leave_out``."""
    return [
        "• " + batch.fmt(ev.text)
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


def board_head(title: str, version: int) -> str:
    """The first line of the board of ``title`` at ``version`` (how a board is recognised again
    after a restart, see ``Publisher.landed``)."""
    return f"**{title}** · move {version}"


def final_head(title: str) -> str:
    """The first line of a game's final score sheet."""
    return f"🏁 **{title}** is over."


def sheet_head(title: str) -> str:
    """How an interim score sheet's caption begins (the sheet's own head, drawn with it in the
    workers, follows)."""
    return f"📊 **{title}** · "


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


def call(awaited: Iterable[SeatRow], deadline: float | None) -> str:
    """Who must act, mentioned, and the turn clock ("➡️ <@1>, <@2>: your move (turn clock:
    until <t:…:R>)"); "" when nobody is awaited. The surface ends it with how to play."""
    people = [mention(s) for s in awaited]
    if not people:
        return ""
    when = f" (turn clock: until <t:{int(deadline)}:R>)" if deadline else ""
    return f"➡️ {', '.join(people)}: your move{when}"


# ------------------------------------------------------------------ the public messages


def turn(batch: Batch, headline: str, awaited: Iterable[SeatRow], deadline: float | None) -> Words:
    """A turn's board: its head, the batch's notes and events, the ``headline`` (the view's
    words on the position, seat tokens unformatted) and who must act until ``deadline``."""
    return Words(
        head=(board_head(batch.title, batch.version),),
        body=tuple(turn_lines(batch)),
        tail=(f"**{batch.fmt(headline)}**",) if headline else (),
        footer=footer(batch, deadline),
        call=call(awaited, deadline),
    )


def final(batch: Batch, outcome: base.Outcome | None) -> Words:
    """The final score sheet: the last events (not the engines' own end lines), then the
    ranking with scores and notes, and the winner."""
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
    return Words(
        head=(final_head(batch.title),),
        body=tuple([batch.fmt(n) for n in batch.notes] + event_lines(batch, leave_out=END_KINDS)),
        tail=tuple(tail),
        footer=footer(batch, None, final=True),
    )


def ended(batch: Batch) -> Words:
    """The notice that a game was ended early, with the batch's notes and events."""
    return Words(head=(f"🛑 **{batch.title}** has been ended.",), body=tuple(turn_lines(batch)))


def notes(batch: Batch) -> Words:
    """The batch's notes alone (a game without a state: one that needs attention)."""
    return Words(body=tuple(batch.fmt(n) for n in batch.notes))


def sheet(batch: Batch) -> Words:
    """An interim score sheet above the board: its head begins the caption (the sheet's own
    head, drawn in the workers, ends it)."""
    return Words(head=(sheet_head(batch.title),), footer=footer(batch, None))


def recap_head(title: str) -> str:
    """The text of a finished game's recap message (posted below its final score sheet)."""
    return f"🎞️ **{title}** — the whole game, turn by turn"


def recap(batch: Batch) -> Words:
    """A finished game's animated recap, below its final sheet (how it is recognised again
    after a restart, see ``Publisher.landed``)."""
    return Words(head=(recap_head(batch.title),))


# ------------------------------------------------------------------ a seat's DM


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
    private_events: Sequence[str],
    prompt: Prompt | None = None,
    outcome: base.Outcome | None = None,
) -> Words:
    """A seat's DM with its private view: names the game (its head ends where the jump link to
    the board goes, :meth:`Words.linked`), the private events, then the line of the ``prompt``
    awaiting it (its controls go below). With ``outcome`` (the game is over) it is the player's
    final DM: its first line says the game is over and the player's rank, once. The seat's view
    as text (drawn in the workers) goes between the events and the tail."""
    events = tuple(f"• {batch.fmt(e)}" for e in private_events)
    if outcome is not None:
        head = (
            f"🏁 **{batch.title}** is over (move {batch.version}). {rank_line(outcome, seat)}. Final sheet: "
        )
        return Words(head=(head,), body=events, footer=footer(batch, None))
    mine = f"🎴 **{batch.title}** — your private view as {batch.text_names[seat]} (move {batch.version}): "
    tail = (f"➡️ {batch.fmt(prompt.text)}" if prompt.text else "➡️ Your move:",) if prompt else ()
    deadline = batch.row.deadline if prompt else None
    return Words(head=(mine,), body=events, tail=tail, footer=footer(batch, deadline))


def hand_head(game: LiveGame, seat: int) -> str:
    """The first line of a seat's private view asked for (My hand, ``/hand``); the view as text
    follows."""
    return f"🎴 **{game.title}** — your private view as {game.text_names[seat]}"


# ------------------------------------------------------------------ reminders and notices


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
    return (
        f"⚠️ **{game.title}** needs attention: {game.row.attention}. Moves are paused so "
        f"nothing gets worse; the creator or a server manager can `/game end` it. {who}"
    )


def playable_again(game: LiveGame) -> str:
    """The notice that a game flagged as needing attention checks out again and takes moves."""
    who = " ".join(mention(s) for s in game.humans())
    return (
        f"✅ **{game.title}** is playable again: its saved history checks out now, so moves are "
        f"accepted and the turn clock starts afresh. The last board's buttons work. {who}"
    )


# ------------------------------------------------------------------ answers to commands


def status(game: LiveGame, view: Mapping[str, Any] | None) -> str:
    """/game status: the state, the seats, whose turn, the headline of the public ``view``, the
    clock."""
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
    return "\n".join(lines)


NO_GAMES = "No games are open on this server. Start one with `/game new`."
"""/game list with no game open."""


def game_list(games: Sequence[Listing]) -> Words:
    """/game list: one line per open game (see :data:`NO_GAMES` for none)."""
    lines = []
    for g in games:
        where = f"<#{g.row.thread_id}>" if g.row.thread_id else f"<#{g.row.channel_id}>"
        who = ", ".join(shown(s.name) for s in g.seats)
        lines.append(f"**#{g.id}** {g.engine.title} — {g.row.status} in {where} — {who}")
    return Words(head=("Open games:",), body=tuple(lines))


def rules(engine: Engine, *, short: bool = False) -> str:
    """/rules: title, players, summary and every option, described, or by name only when
    ``short`` (the autocomplete of `/game new options:` describes them)."""
    head = [f"**{engine.title}** ({engine.min_players}–{engine.max_players} players)", engine.summary.strip()]
    tail = ["Play with `/move` (autocomplete lists your legal moves) or the buttons under the board."]
    middle: list[str] = []
    if engine.options and short:
        names = ", ".join(f"`{o.name}`" for o in engine.options)
        middle.append(f"**Options** (`/game new options:` as `name=value`, described as you type): {names}.")
    elif engine.options:
        middle.append("**Options** (`/game new options:` as `name=value`, space-separated):")
        for o in engine.options:
            rng = f", {o.min}–{o.max}" if o.kind is int and o.min is not None else ""
            default = str(o.default).lower() if isinstance(o.default, bool) else o.default
            middle.append(f"• `{o.name}` ({o.kind.__name__}{rng}, default {default}): {o.help}")
    return "\n".join(x for x in [*head, *middle, *tail] if x)


def no_moves(game: LiveGame) -> str:
    """/log before the first move."""
    return f"No moves have been played in **{game.title}** yet."


def log(game: LiveGame, history: Sequence[Entry]) -> Words:
    """/log: the last moves with who played them and what happened (see :func:`no_moves` for
    none)."""
    lines = []
    by_note = {"ai": " (AI)", "clock": " (clock ran out, AI)", "player": ""}
    for version, seat, action, by, events in history:
        what = "; ".join(game.fmt(e) for e in events) or action or "a move that stays hidden"
        typed = f"`{action}` — " if action else ""  # "" when the text names hidden cards
        lines.append(f"`{version:>3}` {game.text_names[seat]}{by_note.get(by, '')}: {typed}{what}")
    return Words(head=(f"**{game.title}** — last moves:",), body=tuple(lines))


def played(action: str, private_events: Sequence[str]) -> str:
    """The private confirmation of the caller's move, with its private events."""
    extra = "".join(f"\n• {e}" for e in private_events)
    return f"✅ Played `{action}`.{extra}"
