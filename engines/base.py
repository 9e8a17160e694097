"""The engine protocol shared by every game, its errors, events, outcomes and the registry.

An engine is pure: a state is an immutable value, ``apply`` returns a new one, and the only
randomness is the engine's own ``random.Random(seed)`` used during ``setup``. Actions are their
canonical text (a ``str``): the same strings feed the legal lists, the parser, the stored move
log, autocomplete, buttons and tests.

Games plug in by subclassing :class:`Engine` and calling :func:`register`; nothing here changes.
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

if TYPE_CHECKING:
    from engines.prompt import Prompt

Action = str
"""An action is its canonical text, e.g. ``"take b4"`` or ``"bid 13"``."""

View = Mapping[str, Any]
"""What one viewer may see of a state: a JSON-serialisable dict (see each engine's ``view``; an
engine may declare its own ``TypedDict`` for it, which this accepts)."""


# --------------------------------------------------------------------------- errors


class RuleError(Exception):
    """Base of every rejection a player can cause. ``str(err)`` is a sentence a player can read."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class BadNotation(RuleError):
    """The text does not parse as any action of this game."""


InvalidAction = BadNotation  # the name some specs use


class NotYourTurn(RuleError):
    """The seat is not among those the engine awaits."""


class IllegalAction(RuleError):
    """Well-formed, but not allowed now; ``reason`` says why."""


class GameOver(RuleError):
    """The game has ended; no more actions are accepted."""


class StaleState(RuleError):
    """The action was chosen on an older version of the game (e.g. a button on an old board)."""


class BadOption(RuleError):
    """A game option is unknown or out of range, or the player count is not supported."""


# --------------------------------------------------------------------------- events / outcome


@dataclass(frozen=True)
class Event:
    """Something that happened. ``text`` is one line a human reads ("Ann takes b4 (Gold Coin)").

    ``private_to`` is None for public events, else the seat (an ``int``) or the seats (a
    ``frozenset``) that may see it. ``twin`` is what everyone else sees of a private event
    instead (a public :class:`Event`, e.g. "Ann and Bob trade 2 cards" for "Ann gives Bob t3
    t7"), or None when the others see nothing of it.
    ``data`` is a small JSON-serialisable dict for renderers and tests (``{"seat": 0, ...}``).
    Seat numbers in ``text`` are written as ``{s0}``, ``{s1}``… so the host can put names in;
    :func:`format_text` does that. The same holds for the reasons of every :class:`RuleError`.
    """

    kind: str
    text: str
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: int | frozenset[int] | None = None
    twin: Event | None = None

    @property
    def public(self) -> bool:
        return self.private_to is None

    @property
    def audience(self) -> frozenset[int] | None:
        """The seats a private event is for (None for a public event)."""
        p = self.private_to
        if p is None:
            return None
        return p if isinstance(p, frozenset) else frozenset((p,))

    def visible_to(self, viewer: int | None) -> bool:
        """Whether ``viewer`` (a seat, or None for a spectator) may see this event itself."""
        p = self.private_to
        if p is None:
            return True
        if viewer is None:
            return False
        return viewer == p if isinstance(p, int) else viewer in p

    def seen_by(self, viewer: int | None) -> Event | None:
        """What ``viewer`` sees of this event: itself, its public ``twin``, or None."""
        if self.visible_to(viewer):
            return self
        return self.twin


def events_for(events: Iterable[Event], viewer: int | None) -> list[Event]:
    """What ``viewer`` (None: everyone, a spectator) sees of ``events``, in order: each event
    itself, its public twin, or nothing."""
    out = []
    for e in events:
        seen = e.seen_by(viewer)
        if seen is not None:
            out.append(seen)
    return out


_SEAT_TOKEN = re.compile(r"\{s(\d)\}")


def format_text(text: str, names: Sequence[str] | None = None) -> str:
    """Replace ``{s0}``, ``{s1}``… with player names (default "Seat 1", "Seat 2"…), in one pass:
    a name that itself reads ``{s1}`` stays as it is (it cannot take another seat's place)."""
    if "{s" not in text:
        return text

    def name(m: re.Match[str]) -> str:
        s = int(m.group(1))
        return names[s] if names and s < len(names) else f"Seat {s + 1}"

    return _SEAT_TOKEN.sub(name, text)


@dataclass(frozen=True)
class Outcome:
    """The result of a finished game.

    ``ranks[s]``: 1 is best; tied seats share a rank. ``scores[s]``: the final total, or None for a
    seat that scores nothing (e.g. a Pralaya player who never escaped). ``breakdown[s]`` maps each
    of ``categories`` to points (None for seats that do not score). ``winners``: seats ranked 1.
    ``notes[s]``: a short extra line for the score sheet ("escaped via Dhoni 7").
    """

    ranks: tuple[int, ...]
    scores: tuple[int | None, ...]
    categories: tuple[str, ...]
    breakdown: tuple[Mapping[str, int] | None, ...]
    winners: tuple[int, ...]
    notes: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        return {
            "ranks": list(self.ranks),
            "scores": list(self.scores),
            "categories": list(self.categories),
            "breakdown": [dict(b) if b is not None else None for b in self.breakdown],
            "winners": list(self.winners),
            "notes": list(self.notes),
        }


# --------------------------------------------------------------------------- options


@dataclass(frozen=True)
class Option:
    """One game option. ``kind`` is ``bool``, ``int`` (with optional bounds) or ``str`` (one of
    ``choices``, e.g. Kathai's ``first_player``: ``random`` or ``s0``…)."""

    name: str
    kind: type
    default: Any
    help: str
    min: int | None = None
    max: int | None = None
    choices: tuple[str, ...] = ()

    def values(self) -> tuple[str, ...]:
        """The values a player may pick from, as text (``true``/``false`` for a bool, the
        choices of a str option; () for an int)."""
        if self.kind is bool:
            return ("true", "false")
        if self.kind is str:
            return self.choices
        return ()

    def coerce(self, value: Any) -> Any:
        """Return ``value`` converted to this option's type, or raise :class:`BadOption`."""
        if self.kind is str:
            text = value.strip().lower() if isinstance(value, str) else None
            if text is None or text not in self.choices:
                shown = value if isinstance(value, str) else repr(value)
                raise BadOption(
                    f"Option `{self.name}` takes one of {', '.join(self.choices)}, not `{shown[:40]}`."
                )
            return text
        if self.kind is bool:
            if isinstance(value, bool):
                return value
            if isinstance(value, str) and value.strip().lower() in ("true", "yes", "on", "1"):
                return True
            if isinstance(value, str) and value.strip().lower() in ("false", "no", "off", "0"):
                return False
            if isinstance(value, int) and value in (0, 1):
                return bool(value)
            raise BadOption(f"Option `{self.name}` takes true or false, not {value!r}.")
        if self.kind is int:
            try:
                if isinstance(value, bool):
                    raise ValueError
                v = int(value)
            except (TypeError, ValueError):
                raise BadOption(f"Option `{self.name}` takes a whole number, not {value!r}.") from None
            if (self.min is not None and v < self.min) or (self.max is not None and v > self.max):
                raise BadOption(f"Option `{self.name}` must be between {self.min} and {self.max}; got {v}.")
            return v
        raise BadOption(f"Option `{self.name}` has an unsupported type.")


# --------------------------------------------------------------------------- the protocol


class Engine:
    """Base class of every game engine. Subclasses set the class attributes and implement the
    seven protocol methods; everything else has a default.

    Contract:
      * ``setup(seed, n_players, options)`` -> State. Deterministic in its arguments.
      * ``to_move(state)`` -> tuple of seats awaited (empty once the game is over).
      * ``legal_actions(state, seat)`` -> sorted list of canonical action texts; [] if not awaited.
      * ``apply(state, seat, action)`` -> (new State, [Event]); raises :class:`IllegalAction`
        (with a reason) for anything not in ``legal_actions``; never mutates ``state``.
      * ``view(state, viewer)`` -> JSON-serialisable dict of what ``viewer`` (a seat, or None for a
        spectator) may see. It carries at least the keys of :data:`VIEW_KEYS`.
      * ``outcome(state)`` -> :class:`Outcome` or None while the game runs.
      * ``parse(text)`` -> canonical action text; raises :class:`BadNotation` if malformed.
    """

    name: ClassVar[str] = ""
    title: ClassVar[str] = ""
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[tuple[Option, ...]] = ()
    summary: ClassVar[str] = ""  # a few lines of rules for /rules and the terminal
    hidden_hands: ClassVar[bool] = False
    """Whether seats hold something the other seats may not see (Pralaya's relics, Kathai's
    cards); the property suite then proves its leak check catches one seat's view shown to
    another."""

    # -- the seven protocol methods
    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> Any:
        raise NotImplementedError

    def to_move(self, state: Any) -> tuple[int, ...]:
        raise NotImplementedError

    def legal_actions(self, state: Any, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: Any, seat: int, action: Action) -> tuple[Any, list[Event]]:
        raise NotImplementedError

    def view(self, state: Any, viewer: int | None) -> View:
        raise NotImplementedError

    def outcome(self, state: Any) -> Outcome | None:
        raise NotImplementedError

    def parse(self, text: str) -> Action:
        raise NotImplementedError

    # -- used by the AI seats, the property suite and the bot
    def choose(self, view: View, legal: Sequence[Action]) -> Action:
        """The AI's pick from ``legal``, reading only ``view`` (the AI seat's own view)."""
        raise NotImplementedError

    # -- what the search AI (engines.search) needs of a game; determinize is the one it must have
    search_iterations: ClassVar[Mapping[str, int]] = {"normal": 200, "hard": 800}
    """ISMCTS iterations a move at each search level (sized so that a move stays under
    ``engines.search.TIME_CAPS`` at the 99th percentile on one core: see ``bazaar arena``)."""

    playout_depth: ClassVar[int | None | Mapping[str, int | None]] = None
    """Actions a playout plays before :meth:`evaluate` scores it; None plays to the end. A mapping
    gives a depth per search level (``{"normal": 8, "hard": 20}``); a level it leaves out plays to
    the end."""

    # Optional: ``search_rewards(outcome) -> Sequence[float]``, each seat's reward in [0, 1] for
    # a finished game as the search should value it, where a game values more than the win and
    # the rank (Pralaya pays for escaping); without it the search uses engines.search.rewards.

    default_ai_level: ClassVar[str] = "normal"
    """The level of the turn clock's stand-in and of ``/game addbot`` without ``level:``."""

    has_escapes: ClassVar[bool] = False
    """Whether a seat may leave the scoring race by an escape (Pralaya), which ``bazaar arena``
    then counts: seats that had one among their legal moves (:meth:`irreversible` names it) and
    took one (scored at the end)."""

    common_players: ClassVar[int] = 3
    """The player count most tables have (the arena plays it besides 2)."""

    def arena_counts(self) -> list[int]:
        """The player counts ``bazaar arena`` plays by default: 2 (or the minimum) and the most
        common count."""
        return sorted({max(2, self.min_players), self.common_players})

    def determinize(self, view: View, rng: random.Random) -> Any:
        """A full state consistent with ``view`` (a seat's own view): the hidden parts (other
        seats' hands, the deck's or bag's order) drawn with ``rng`` from what that seat cannot
        rule out, so that ``view(determinize(view, rng), view["viewer"]) == view``."""
        raise NotImplementedError(f"{self.name} has no determinize(); its AI cannot search")

    def search_actions(self, state: Any, seat: int) -> Sequence[Action]:
        """The actions the search considers for ``seat`` (awaited) in a full ``state``. Default:
        the legal list; a game whose list is huge returns the moves worth considering (it must
        hold every action of the legal list for a root decision the host might ask about, or the
        search falls back to :meth:`choose`)."""
        return self.legal_actions(state, seat)

    def playout_action(self, state: Any, seat: int, rng: random.Random) -> Action:
        """The playout policy's move for ``seat`` in a full ``state``. Default: uniform among
        :meth:`search_actions`. Games supply a cheap, better-than-random policy."""
        acts = self.search_actions(state, seat)
        return acts[rng.randrange(len(acts))]

    def evaluate(self, state: Any) -> Sequence[float]:
        """Each seat's expected reward in [0, 1] (as :func:`engines.search.rewards` scores a
        finished game) for a running ``state``; needed when :attr:`playout_depth` is set."""
        raise NotImplementedError(f"{self.name} has no evaluate()")

    def step(self, state: Any, seat: int, action: Action) -> Any:
        """``apply`` without the events, for searches and playouts; games may make it faster."""
        return self.apply(state, seat, action)[0]

    def action_bound(self, n_players: int) -> int:
        """An upper bound on the number of actions in any game (the property suite checks it)."""
        raise NotImplementedError

    def sample_actions(self, n_players: int, rng: random.Random, k: int) -> list[Action]:
        """``k`` well-formed canonical action texts for this player count, drawn with ``rng``
        (legal or not in any given state): ``parse(a) == a`` for each. The property suite and the
        fuzz tests use them to check that ``parse``, ``is_legal`` and ``apply`` agree without
        enumerating every well-formed text (Kathai's offers alone run past 200 million)."""
        raise NotImplementedError

    # -- what the host asks besides the seven methods; each has a default from the legal list
    def is_legal(self, state: Any, seat: int, text: str) -> str | None:
        """None if ``text`` is a legal action for ``seat`` now, else the reason (a sentence with
        ``{s0}`` tokens), without applying anything. The default parses the text and looks it up
        in the legal list, taking the reason from :meth:`apply`; games with huge legal lists
        override it."""
        try:
            action = self.parse(text)
        except BadNotation as err:
            return err.reason
        if self.outcome(state) is not None:
            return "This game is over; no more moves are accepted."
        awaited = self.to_move(state)
        if seat not in awaited:
            return not_your_turn_reason(awaited)
        if action in self.legal_actions(state, seat):
            return None
        try:
            self.apply(state, seat, action)
        except RuleError as err:
            return err.reason
        return "That move is not allowed now."  # apply accepted what the list lacks: an engine bug

    def complete(self, state: Any, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]:
        """Autocomplete for ``/move``: up to ``limit`` ``(value, label)`` pairs for what ``seat``
        may type after ``prefix``. The default keeps the legal actions whose text or label
        (:meth:`action_label`) holds every word typed, in order; games whose list is
        huge return the distinct next tokens instead (see :func:`next_tokens`)."""
        words = prefix.lower().split()
        out: list[tuple[str, str]] = []
        for a in self.legal_actions(state, seat):
            label = self.action_label(state, seat, a)
            hay = f"{a} {label}".lower()
            if all(w in hay for w in words):
                out.append((a, label))
                if len(out) >= limit:
                    break
        return out

    def timeout_action(self, state: Any, seat: int) -> Action | None:
        """What the turn clock plays for ``seat`` when its time runs out. Default None: the host
        plays the AI's choice at :attr:`default_ai_level` from the seat's own view; a game where
        the AI would commit a person to something (a trade) returns a neutral move instead
        (``decline``, ``pass``)."""
        return None

    def prompt(self, state: Any, seat: int) -> Prompt:
        """What ``seat`` (awaited) can do now, as controls (see :mod:`engines.prompt`). Default:
        built from the legal list by :func:`engines.prompt.from_legal`; each game's
        ``prompts.py`` says more where it can."""
        return self.legal_prompt(state, seat, str(self.view(state, seat).get("headline") or ""))

    def legal_prompt(self, state: Any, seat: int, text: str) -> Prompt:
        """The prompt :func:`engines.prompt.from_legal` builds from ``seat``'s legal list, labelled
        by :meth:`action_label`, public as :meth:`public_actions` says, headed by ``text``."""
        from engines.prompt import from_legal

        legal = self.legal_actions(state, seat)
        labels = [self.action_label(state, seat, a) for a in legal]
        return from_legal(seat, text, legal, labels, public=self.public_actions(state, seat))

    def secrets(self, state: Any, viewer: int | None) -> Iterable[str]:
        """Strings that must not appear in the serialised ``view(state, viewer)``: other seats'
        hidden card ids, the order of a hidden deck or bag. The property suite searches for them."""
        return ()

    def public_actions(self, state: Any, seat: int) -> bool:
        """Whether ``seat``'s legal list reveals nothing hidden, so that it may be shown to
        everyone (as buttons under the public board). Default: True unless the seat knows
        something a spectator does not (some of the spectator's ``secrets`` are not the seat's),
        since then an action such as "buy veda 1g 0s 0c" may tell what a hidden hand holds.
        Engines override it for steps whose list depends only on public information."""
        return not (set(self.secrets(state, None)) - set(self.secrets(state, seat)))

    def invariants(self, state: Any) -> None:
        """Raise AssertionError if a rules invariant of the spec is broken (conservation of
        cards, bounds…). The property suite calls it after every action. Default: nothing."""

    property_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets the property suite plays every player count with (e.g. with and without an
    expansion)."""

    demo_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets ``bazaar demo`` plays by default (e.g. Ra with and without Traders)."""

    def events_on_setup(self, state: Any) -> list[Event]:
        """Events describing what setup produced (first turn and so on). Default: none."""
        return []

    def action_label(self, state: Any, seat: int, action: Action) -> str:
        """A short button label for ``action`` (≤ 80 chars). Default: the action text."""
        return action

    def irreversible(self, state: Any, seat: int, action: Action) -> str | None:
        """A warning to confirm before ``action`` (legal for ``seat``) is played for a person,
        when it gives up something they may not expect and cannot take back (a Pralaya escape
        ends their collecting); None for an ordinary move (the default). One sentence with
        ``{s0}`` tokens, worded as what the move does ("Escaping ends your collecting: …")."""
        return None

    def read_names(self, state: Any, seat: int, text: str, names: Sequence[str]) -> str:
        """``text`` as typed by ``seat``, with player names (``names``, in seat order) it uses
        in place of seat codes turned into the codes the grammar reads ("offer bilal t5 for
        salt 1" -> "offer s1 t5 for salt 1"). Hosts call it before :func:`play` and
        :meth:`is_legal` on what a person typed. Raises :class:`BadNotation` naming the players
        of this game when a name fits none. Default: ``text`` unchanged."""
        return text

    def auto_answer(self, state: Any, seat: int) -> tuple[Action, str] | None:
        """A move a host may play for a person without asking, with the reason to show (a
        sentence with ``{s0}`` tokens): their only legal move, where answering at once tells
        the others nothing they could not see anyway (the terminal, against AI seats that read
        only their views). Default None; Kathai: ``decline`` without a card to give."""
        return None

    def menu(self, state: Any, seat: int) -> Menu | None:
        """The moves a person chooses between, for a numbered list (the terminal): the ones worth
        listing first, each with what it does, and lines of syntax for kinds of moves too many
        to list. None (the default) lists the legal actions as they are."""
        return None

    # -- derived helpers, same for every game
    def default_options(self) -> dict[str, Any]:
        return {o.name: o.default for o in self.options}

    def resolve_options(self, options: Mapping[str, Any] | None) -> dict[str, Any]:
        """Defaults overlaid with ``options`` (coerced); unknown names raise :class:`BadOption`."""
        out = self.default_options()
        known = {o.name: o for o in self.options}
        for key, value in (options or {}).items():
            if key not in known:
                names = ", ".join(sorted(known)) or "none"
                raise BadOption(f"{self.title} has no option `{key}`. Its options: {names}.")
            out[key] = known[key].coerce(value)
        return out

    def check_players(self, n_players: int) -> None:
        if not self.min_players <= n_players <= self.max_players:
            raise BadOption(
                f"{self.title} is for {self.min_players}–{self.max_players} players, not {n_players}."
            )

    def is_over(self, state: Any) -> bool:
        return self.outcome(state) is not None


@dataclass(frozen=True)
class Menu:
    """What :meth:`Engine.menu` returns: ``moves``, ``(action, label)`` pairs to number in this
    order (each action legal; the label says what it does, ``{s0}`` tokens allowed);
    ``notes``, lines shown after them for the moves not listed (how to type them, with an
    example); ``total``, how many legal actions there are in all."""

    moves: tuple[tuple[Action, str], ...]
    notes: tuple[str, ...] = ()
    total: int = 0


VIEW_KEYS = ("game", "viewer", "n_players", "to_move", "over", "headline")
"""Keys every view carries: the game name, the viewer seat (or None), the player count, the seats
awaited, whether the game is over, and a one-line summary of whose turn it is and what step."""


# --------------------------------------------------------------------------- the shared entry point


@dataclass(frozen=True)
class Played:
    """The result of :func:`play`: the new state, the events, and the canonical action applied."""

    state: Any
    events: list[Event]
    action: Action


def play(
    engine: Engine,
    state: Any,
    seat: int,
    text: str,
    *,
    version: int | None = None,
    expected_version: int | None = None,
) -> Played:
    """Parse ``text``, check game over and turn, apply, and return the result.

    Raises :class:`StaleState` if ``expected_version`` is given and differs from ``version``,
    :class:`GameOver`, :class:`BadNotation`, :class:`NotYourTurn`, or :class:`IllegalAction`.
    ``state`` is never changed (states are immutable values).
    """
    if expected_version is not None and version is not None and expected_version != version:
        raise StaleState("That board is out of date: the game has moved on since. Use the latest message.")
    if engine.outcome(state) is not None:
        raise GameOver("This game is over; no more moves are accepted.")
    action = engine.parse(text)
    awaited = engine.to_move(state)
    if seat not in awaited:
        raise NotYourTurn(not_your_turn_reason(awaited))
    new_state, events = engine.apply(state, seat, action)
    return Played(new_state, events, action)


def first_awaited(engine: Engine, state: Any) -> int:
    """The lowest seat awaited: the seat that answers first when every awaited seat is played by
    the AI (a replay of AI-only play is then the same everywhere). Raises ``GameOver`` when none."""
    awaited = engine.to_move(state)
    if not awaited:
        raise GameOver("This game is over; no more moves are accepted.")
    return min(awaited)


def not_your_turn_reason(awaited: Sequence[int]) -> str:
    """The reason given to a seat that is not awaited (names the seats that are)."""
    if not awaited:
        return "Nobody can move right now."
    who = ", ".join("{s%d}" % s for s in awaited)
    return f"It is not your turn: waiting for {who}."


def replay_steps(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, str]],
) -> Iterator[tuple[Any, Played | None]]:
    """Set up, then apply every ``(seat, action)`` in order: yields ``(setup state, None)`` first,
    then ``(state after the move, what play returned)`` per move. The one place a game is
    rebuilt from its seed and move log (the host's loading, its history and repair, ``bazaar
    replay``). Raises whatever :func:`play` raises at the first move that does not fit."""
    state = engine.setup(seed, n_players, options)
    yield state, None
    for seat, text in moves:
        played = play(engine, state, seat, text)
        state = played.state
        yield state, played


def replay(
    engine: Engine,
    seed: int,
    n_players: int,
    options: Mapping[str, Any] | None,
    moves: Iterable[tuple[int, str]],
) -> Any:
    """Set up and apply every ``(seat, action)`` in order; return the final state.

    Raises whatever :func:`play` raises if the log does not fit the rules."""
    final = None
    for state, _ in replay_steps(engine, seed, n_players, options, moves):
        final = state
    return final


# --------------------------------------------------------------------------- serialisation


def to_jsonable(obj: Any) -> Any:
    """Dataclasses, tuples, lists, dicts and scalars -> plain JSON types (dict keys -> str)."""
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return {f.name: to_jsonable(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    if isinstance(obj, (list, tuple)):
        return [to_jsonable(x) for x in obj]
    if isinstance(obj, (set, frozenset)):
        return sorted(to_jsonable(x) for x in obj)
    if isinstance(obj, Mapping):
        return {str(k): to_jsonable(v) for k, v in obj.items()}
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise TypeError(f"cannot serialise {type(obj).__name__}")


def state_fingerprint(state: Any) -> str:
    """A canonical JSON text of a state, used to check a replay against the stored snapshot."""
    return json.dumps(to_jsonable(state), sort_keys=True, separators=(",", ":"))


# --------------------------------------------------------------------------- registry

_REGISTRY: dict[str, Engine] = {}


def register(engine: Engine) -> Engine:
    """Add an engine instance to the registry under ``engine.name``; returns it."""
    if not engine.name:
        raise ValueError("an engine needs a name")
    _REGISTRY[engine.name] = engine
    return engine


def get(name: str) -> Engine:
    """The registered engine called ``name``; raises :class:`BadOption` with the choices."""
    from engines import load_all

    load_all()
    key = (name or "").strip().lower()
    if key not in _REGISTRY:
        choices = ", ".join(sorted(_REGISTRY)) or "none"
        raise BadOption(f"There is no game called `{name}`. Games: {choices}.")
    return _REGISTRY[key]


def games() -> list[Engine]:
    """Every registered engine, by name."""
    from engines import load_all

    load_all()
    return [_REGISTRY[k] for k in sorted(_REGISTRY)]
