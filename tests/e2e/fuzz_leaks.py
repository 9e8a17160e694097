"""The fuzz's privacy check: no message, DM, ephemeral answer, autocomplete choice or log line
reached someone who may not see what it holds.

What is hidden comes from each engine's own ``secrets(state, viewer)`` (the ids that
``view(state, viewer)`` may not contain: other seats' cards, the deck and bag order). A message
first seen at checkpoint ``k`` was made before the game reached the version noted there, so an
id counts as hidden from a viewer only if it was hidden from them at every version up to that
one: what they were never shown (a seat may be reminded of its own card that it put back under
the pile; a card offered to everyone is known to everyone at the table, but not to spectators).
Examples in help texts (``e.g. `offer all t1 t2 for salt 1` ``) are not searched, nor what
an engine's ``parse`` answers about the text the user sent (it depends on that text alone).
Ids are matched as whole words (``t5`` does not match ``t50``); secrets that are not single
words (Ra's next nine bag codes, as JSON) are matched as substrings. Text a user typed or sent
themselves is not held against the answers to them.

What it does not check: pictures (boards and hands are PNGs), and information shown by name
rather than by id (Pralaya's hands are drawn as relic names, which several cards share).
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import Any

from engines import base
from tests.e2e.bazaar_harness import replay_states

WORD = re.compile(r"[A-Za-z0-9_]+")
EXAMPLE = re.compile(r"e\.g\. `[^`]*`")


def _tokens(secrets: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    words: set[str] = set()
    phrases: set[str] = set()
    for s in secrets:
        inner = s[1:-1] if len(s) >= 2 and s[0] == s[-1] == '"' else s
        (words if WORD.fullmatch(inner) else phrases).add(inner)
    return frozenset(words), frozenset(phrases)


class Leaks:
    """Built after a fuzz run from the games' move logs; :meth:`check` returns the leaks."""

    def __init__(self, fuzz: Any) -> None:
        self.fuzz = fuzz
        self.games: dict[int, tuple[base.Engine, list[Any], dict[int, int]]] = {}
        self._prefix: dict[tuple[int, int | None], list[tuple[frozenset[str], frozenset[str]]]] = {}
        self._secret_ids: dict[tuple[int, int, int | None], tuple[frozenset[str], frozenset[str]]] = {}

    async def load(self) -> None:
        svc = self.fuzz.t.bot.service
        for gid in self.fuzz.places:
            g = await svc.get(gid)
            moves = await self.fuzz.t.db_moves(gid)
            states = replay_states(g.engine, g.row.seed, len(g.seats), g.row.options, moves)
            seat_of = {s.user_id: s.seat for s in g.seats if s.user_id}
            self.games[gid] = (g.engine, states, seat_of)

    def hidden(self, gid: int, hi: int, seat: int | None) -> tuple[frozenset[str], frozenset[str]]:
        """Ids (words, phrases) hidden from ``seat`` (None: a spectator) at every version up to
        ``hi``: what that viewer has never been shown. (What a seat once saw, such as its own
        card it put back under the pile, it may be reminded of.)"""
        key = (gid, seat)
        known = self._prefix.setdefault(key, [])
        while len(known) <= hi:
            v = len(known)
            states = self.games[gid][1]
            w, p = self._secrets(gid, min(v, len(states) - 1), seat)
            if known:
                w, p = known[-1][0] & w, known[-1][1] & p
            known.append((w, p))
        return known[hi]

    def _secrets(self, gid: int, v: int, seat: int | None) -> tuple[frozenset[str], frozenset[str]]:
        key = (gid, v, seat)
        if key not in self._secret_ids:
            engine, states, _ = self.games[gid]
            self._secret_ids[key] = _tokens(engine.secrets(states[v], seat))
        return self._secret_ids[key]

    def window(self, gid: int, phase: int) -> tuple[int, int] | None:
        """The versions game ``gid`` went through while items first seen at checkpoint
        ``phase`` were made (None if it did not exist yet)."""
        cps = self.fuzz.checkpoints
        phase = min(phase, len(cps) - 1)
        if gid not in cps[phase]:
            return None
        lo = cps[phase - 1].get(gid, 0) if phase >= 1 else 0
        return lo, cps[phase][gid]

    def found(self, text: str, viewer: int | None, phase: int, typed: str = "") -> list[str]:
        """The hidden ids ``text`` (seen by user ``viewer``, None: anyone) shows; ``typed`` is
        what that user sent themselves."""
        text = EXAMPLE.sub("", text)  # "e.g. `offer all t1 t2 for salt 1`" names no real card
        words = set(WORD.findall(text)) - set(WORD.findall(typed))
        out = []
        for gid, (_, _, seat_of) in self.games.items():
            win = self.window(gid, phase)
            if win is None:
                continue
            seat = seat_of.get(viewer) if viewer is not None else None
            w, p = self.hidden(gid, win[1], seat)
            out += [f"game {gid}: {x}" for x in sorted(words & w)]
            out += [f"game {gid}: {x[:40]}" for x in p if x in text and x not in typed]
        return out

    def check(self) -> tuple[list[str], int]:
        """``(leaks, number of texts searched)``."""
        fake = self.fuzz.fake
        leaks: list[str] = []
        searched = 0
        typed_by: dict[int, str] = {i.id: _sent(i.payload.get("data")) for i in fake.interactions}
        for msg in fake.message_store.values():
            channel = fake.channels[msg.channel_id]
            viewer = channel.recipient_id if channel.is_dm else msg.visible_to if msg.ephemeral else None
            typed = typed_by.get(msg.interaction_id or -1, "") if viewer is not None else ""
            snaps = [
                *msg.versions,
                {"content": msg.content, "embeds": msg.embeds, "components": msg.components},
            ]
            for j, snap in enumerate(snaps):
                phase = self.fuzz.seen.get((msg.id, j), len(self.fuzz.checkpoints) - 1)
                text = json.dumps(snap, ensure_ascii=False, default=str)
                searched += 1
                leaks += [
                    f"message {msg.id} v{j} (phase {phase}) to {viewer} in {channel.name}: {x} in "
                    f"{_around(text, x.split(': ', 1)[1])}"
                    for x in self.found(text, viewer, phase, typed)
                ]
        for i in fake.interactions:
            if i.choices:
                phase = self._phase_of(i)
                text = json.dumps([(c.name, c.value) for c in i.choices], ensure_ascii=False)
                searched += 1
                leaks += [
                    f"autocomplete {i.id} to {i.user.id}: {x}"
                    for x in self.found(text, i.user.id, phase, typed_by.get(i.id, ""))
                ]
        for line, phase in self.fuzz.logs:
            searched += 1
            leaks += [f"log line {line[:60]!r}: {x}" for x in self.found(line, None, phase)]
        return leaks, searched

    def _phase_of(self, interaction: Any) -> int:
        """The phase an interaction was answered in (noted by the fuzz when it was sent)."""
        phase: int = self.fuzz.phase_of.get(interaction.id, len(self.fuzz.checkpoints) - 1)
        return phase


def _around(text: str, token: str) -> str:
    """``text`` around the first whole-word ``token``, for a readable report."""
    m = re.search(rf"(?<![A-Za-z0-9_]){re.escape(token)}(?![A-Za-z0-9_])", text)
    at = m.start() if m else text.find(token)
    return repr(text[max(0, at - 150) : at + 80])


def _strings(data: Any) -> list[str]:
    if isinstance(data, str):
        return [data, *data.split(":")]  # a custom id's action part too
    if isinstance(data, dict):
        return [x for v in data.values() for x in _strings(v)]
    if isinstance(data, list):
        return [x for v in data for x in _strings(v)]
    return []


def _sent(data: Any) -> str:
    """What an interaction sent (its options, custom id and values) plus what each engine's
    ``parse`` says about each of those texts: a notation error ("cards are t1 to t55") depends
    on the text alone, never on a game's state, so it cannot reveal anything."""
    out = [json.dumps(data, ensure_ascii=False)]
    for text in _strings(data):
        for engine in base.games():
            try:
                engine.parse(text)
            except Exception as err:
                out.append(str(getattr(err, "reason", None) or err))
    return "\n".join(out)
