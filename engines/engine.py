"""The base every game's engine is built on: defaults for the three parts of the contract.

:mod:`engines.contract` states the contract as three protocols. Here each part is a class:
:class:`RulesBase` (the rules every game writes, and the option handling all share),
:class:`HostBase` (what a host asks, each from the legal list by default) and :class:`SearchBase`
(what the search needs). :class:`GameEngine` joins them; a game's engine class
(``engines/<game>/rules.py``) subclasses ``GameEngine[State, View]`` with its own state and view
types and names, in its methods, the module of the game that does each job.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from engines.errors import BadNotation, BadOption, GameOver, IllegalAction, RuleError, not_your_turn_reason
from engines.events import Event
from engines.options import Option
from engines.outcome import Menu, Outcome
from engines.values import Action, View

if TYPE_CHECKING:
    from engines.prompt import Prompt

S = TypeVar("S")
V = TypeVar("V", bound=View)


class RulesBase(Generic[S, V]):
    """The rules part: subclasses set the class attributes and implement the seven methods
    (:class:`engines.contract.Rules` says what each returns)."""

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

    def setup(self, seed: int, n_players: int, options: Mapping[str, Any] | None = None) -> S:
        raise NotImplementedError

    def to_move(self, state: S) -> tuple[int, ...]:
        raise NotImplementedError

    def legal_actions(self, state: S, seat: int) -> list[Action]:
        raise NotImplementedError

    def apply(self, state: S, seat: int, action: Action) -> tuple[S, list[Event]]:
        raise NotImplementedError

    def view(self, state: S, viewer: int | None) -> V:
        raise NotImplementedError

    def outcome(self, state: S) -> Outcome | None:
        raise NotImplementedError

    def parse(self, text: str) -> Action:
        raise NotImplementedError

    def invariants(self, state: S) -> None:
        """Raise AssertionError if an invariant of the game's rules is broken (conservation of
        cards, bounds…). The property suite calls it after every action. Default: nothing."""

    property_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets the property suite plays every player count with (e.g. with and without an
    expansion)."""

    demo_options: ClassVar[tuple[Mapping[str, Any], ...]] = ({},)
    """Option sets ``bazaar demo`` plays by default (e.g. Ra with and without Traders)."""

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

    def is_over(self, state: S) -> bool:
        return self.outcome(state) is not None


class HostBase(RulesBase[S, V]):
    """What a host asks besides the rules (:class:`engines.contract.HostSupport`); each method has
    a default built from the legal list, which a game overrides where it can say more."""

    def is_legal(self, state: S, seat: int, text: str) -> str | None:
        """None if ``text`` is a legal action for ``seat`` now, else the reason (a sentence with
        ``{s0}`` tokens), without applying anything. The default parses the text and looks it up
        in the legal list, taking the reason from :meth:`apply`; games with huge legal lists
        override it."""
        try:
            action = self.parse(text)
        except BadNotation as err:
            return err.reason
        if self.outcome(state) is not None:
            return GameOver.default_reason
        awaited = self.to_move(state)
        if seat not in awaited:
            return not_your_turn_reason(awaited)
        if action in self.legal_actions(state, seat):
            return None
        try:
            self.apply(state, seat, action)
        except RuleError as err:
            return err.reason
        return IllegalAction.default_reason  # apply accepted what the list lacks: an engine bug

    def complete(self, state: S, seat: int, prefix: str, limit: int = 25) -> list[tuple[str, str]]:
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

    def timeout_action(self, state: S, seat: int) -> Action | None:
        """What the turn clock plays for ``seat`` when its time runs out. Default None: the host
        plays the AI's choice at :attr:`default_ai_level` from the seat's own view; a game where
        the AI would commit a person to something (a trade) returns a neutral move instead
        (``decline``, ``pass``)."""
        return None

    def prompt(self, state: S, seat: int) -> Prompt:
        """What ``seat`` (awaited) can do now, as controls (see :mod:`engines.prompt`). Default:
        built from the legal list by :func:`engines.prompt.from_legal`; each game's
        ``prompts.py`` says more where it can."""
        return self.legal_prompt(state, seat, str(self.view(state, seat).get("headline") or ""))

    def legal_prompt(self, state: S, seat: int, text: str) -> Prompt:
        """The prompt :func:`engines.prompt.from_legal` builds from ``seat``'s legal list, labelled
        by :meth:`action_label`, public as :meth:`public_actions` says, headed by ``text``."""
        from engines.prompt import from_legal

        legal = self.legal_actions(state, seat)
        labels = [self.action_label(state, seat, a) for a in legal]
        return from_legal(seat, text, legal, labels, public=self.public_actions(state, seat))

    def secrets(self, state: S, viewer: int | None) -> Iterable[str]:
        """Strings that must not appear in the serialised ``view(state, viewer)``: other seats'
        hidden card ids, the order of a hidden deck or bag. The property suite searches for them."""
        return ()

    def public_actions(self, state: S, seat: int) -> bool:
        """Whether ``seat``'s legal list reveals nothing hidden, so that it may be shown to
        everyone (as buttons under the public board). Default: True unless the seat knows
        something a spectator does not (some of the spectator's ``secrets`` are not the seat's),
        since then an action such as "buy veda 1g 0s 0c" may tell what a hidden hand holds.
        Engines override it for steps whose list depends only on public information."""
        return not (set(self.secrets(state, None)) - set(self.secrets(state, seat)))

    def private_action(self, state: S, seat: int, action: Action) -> bool:
        """Whether the text of ``action``, played by ``seat`` in ``state`` (the state before it),
        names something a spectator may not see once it is played (a card put back under a
        pile, the cards of an offer), so that a host shows everyone only the move's public
        events, never its text (``/log``, logs, other seats' messages). The game's rules decide
        it, not the text's look: a card the move itself shows to everyone (a sale, a card
        played face up and named by a public event) is not private. Default: False, for a game
        whose action texts name only what everyone sees; a game whose texts can name hidden
        things overrides it (``tests/test_private_actions.py`` checks every game against its
        ``secrets`` and public events)."""
        return False

    def reveals(self, state: S, seat: int, action: Action) -> str | None:
        """What playing ``action`` (legal for ``seat`` in ``state``, the state before it) shows
        that someone did not know (a card or tile drawn, a hidden hand's card shown, an auction
        won), or settles for the others (the game's end), as the end of a sentence "It cannot
        be taken back: …" (``{s0}`` tokens allowed); None when it reveals nothing new to anyone,
        so that a host may let its player take it back (undo). Each game derives it from its
        rules in ``engines/<game>/undo.py``; the default, for a game that says nothing, refuses."""
        return "this game does not say which moves can be taken back."

    def events_on_setup(self, state: S) -> list[Event]:
        """Events describing what setup produced (first turn and so on). Default: none."""
        return []

    def action_label(self, state: S, seat: int, action: Action) -> str:
        """A short button label for ``action`` (≤ 80 chars). Default: the action text."""
        return action

    def irreversible(self, state: S, seat: int, action: Action) -> str | None:
        """A warning to confirm before ``action`` (legal for ``seat``) is played for a person,
        when it gives up something they may not expect and cannot take back (a Pralaya escape
        ends their collecting); None for an ordinary move (the default). One sentence with
        ``{s0}`` tokens, worded as what the move does ("Escaping ends your collecting: …")."""
        return None

    def read_names(self, state: S, seat: int, text: str, names: Sequence[str]) -> str:
        """``text`` as typed by ``seat``, with player names (``names``, in seat order) it uses
        in place of seat codes turned into the codes the grammar reads ("offer bilal t5 for
        salt 1" -> "offer s1 t5 for salt 1"). Hosts call it before :func:`play` and
        :meth:`is_legal` on what a person typed. Raises :class:`BadNotation` naming the players
        of this game when a name fits none. Default: ``text`` unchanged."""
        return text

    def auto_answer(self, state: S, seat: int) -> tuple[Action, str] | None:
        """A move a host may play for a person without asking, with the reason to show (a
        sentence with ``{s0}`` tokens): their only legal move, where answering at once tells
        the others nothing they could not see anyway (the terminal, against AI seats that read
        only their views). Default None; Kathai: ``decline`` without a card to give."""
        return None

    def menu(self, state: S, seat: int) -> Menu | None:
        """The moves a person chooses between, for a numbered list (the terminal): the ones worth
        listing first, each with what it does, and lines of syntax for kinds of moves too many
        to list. None (the default) lists the legal actions as they are."""
        return None


class SearchBase(RulesBase[S, V]):
    """What the search AI needs of a game (:class:`engines.contract.SearchSupport`); determinize
    is the one a searching game must supply."""

    def choose(self, view: V, legal: Sequence[Action]) -> Action:
        """The AI's pick from ``legal``, reading only ``view`` (the AI seat's own view)."""
        raise NotImplementedError

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

    def determinize(self, view: V, rng: random.Random) -> S:
        """A full state consistent with ``view`` (a seat's own view): the hidden parts (other
        seats' hands, the deck's or bag's order) drawn with ``rng`` from what that seat cannot
        rule out, so that ``view(determinize(view, rng), view["viewer"]) == view``."""
        raise NotImplementedError(f"{self.name} has no determinize(); its AI cannot search")

    def search_actions(self, state: S, seat: int) -> Sequence[Action]:
        """The actions the search considers for ``seat`` (awaited) in a full ``state``. Default:
        the legal list; a game whose list is huge returns the moves worth considering (it must
        hold every action of the legal list for a root decision the host might ask about, or the
        search falls back to :meth:`choose`)."""
        return self.legal_actions(state, seat)

    def playout_action(self, state: S, seat: int, rng: random.Random) -> Action:
        """The playout policy's move for ``seat`` in a full ``state``. Default: uniform among
        :meth:`search_actions`. Games supply a cheap, better-than-random policy."""
        acts = self.search_actions(state, seat)
        return acts[rng.randrange(len(acts))]

    def evaluate(self, state: S) -> Sequence[float]:
        """Each seat's expected reward in [0, 1] (as :func:`engines.search.rewards` scores a
        finished game) for a running ``state``; needed when :attr:`playout_depth` is set."""
        raise NotImplementedError(f"{self.name} has no evaluate()")

    def step(self, state: S, seat: int, action: Action) -> S:
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


class GameEngine(HostBase[S, V], SearchBase[S, V]):
    """A whole game: its rules, what its host asks and what its search needs. Each game's engine
    class subclasses ``GameEngine[State, View]``."""
