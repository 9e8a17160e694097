"""A click on a prompt's controls, read under the game's lock: a part of the game service (see
:mod:`bot.host.core`). A menu's pick, a form's Send and a dialog's answers each build the action
text they stand for (played afterwards like any move); a form's menu saves its values in the
clicker's draft. Each checks that the clicker is awaited at the version the controls were made
at, and the control still exists, so a stale or forged click is refused with a reason and
nothing changes. The Discord layer calls these instead of taking the game's lock itself.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from engines import base
from engines import prompt as pr

from . import reading
from .core import Core
from .live import LiveGame, Refusal

FORM_GONE = "That form is out of date: use the latest message."
MENU_GONE = "That menu is out of date: use the latest message."
DIALOG_GONE = "That dialog is out of date: use the latest message."


def forms(p: pr.Prompt | None) -> list[pr.Form]:
    """The forms of ``p`` (at any depth)."""
    return [c for c in pr.walk(p.controls) if isinstance(c, pr.Form)] if p is not None else []


class Clicks:
    """The clicks on a prompt's controls (see the module docstring)."""

    def __init__(self, core: Core) -> None:
        self.core = core

    @staticmethod
    def awaited_prompt(game: LiveGame, user_id: int, version: int) -> tuple[int, pr.Prompt]:
        """The caller's seat and prompt now, for a click on controls made at ``version``. Raises
        ``StaleState`` for an old version, :class:`Refusal` when the caller has no seat and the
        game's own reason (``NotYourTurn``, over, not started) when the caller is not awaited."""
        if version != game.row.version:
            raise base.StaleState()
        seat = game.seat_of(user_id)
        if seat is None:
            raise Refusal(f"You are not playing in {game.title}.")
        if reading.awaited_seat(game, user_id) is None:
            reading.check_playable(game)  # over, not started or needing attention: its own reason
            raise base.NotYourTurn(base.not_your_turn_reason(game.awaited()))
        p = reading.prompt_for(game, seat.seat)
        assert p is not None
        return seat.seat, p

    @classmethod
    def _form(cls, game: LiveGame, user_id: int, version: int, key: str) -> tuple[int, pr.Prompt, pr.Form]:
        seat, p = cls.awaited_prompt(game, user_id, version)
        f = p.find(key)
        if not isinstance(f, pr.Form):
            raise Refusal(FORM_GONE)
        return seat, p, f

    @classmethod
    def dialog(cls, game: LiveGame, user_id: int, version: int, key: str) -> pr.Dialog:
        """The dialog ``key`` of the caller's prompt now (see :meth:`awaited_prompt`)."""
        _, p = cls.awaited_prompt(game, user_id, version)
        d = p.find(key)
        if not isinstance(d, pr.Dialog):
            raise Refusal(DIALOG_GONE)
        return d

    async def pick_action(
        self, game: LiveGame, user_id: int, version: int, key: str, values: Sequence[str]
    ) -> str:
        """The action the menu ``key`` of the caller's prompt builds from ``values``."""
        async with game.lock:
            _, p = self.awaited_prompt(game, user_id, version)
            pick = p.find(key)
            if not isinstance(pick, pr.Pick):
                raise Refusal(MENU_GONE)
            try:
                return pick.build(values)
            except pr.PromptError as err:
                raise Refusal(str(err)) from None

    async def save_draft(
        self, game: LiveGame, user_id: int, version: int, form: str, pick: str, values: Sequence[str]
    ) -> tuple[pr.Prompt, dict[str, dict[str, list[str]]]]:
        """Put ``values`` (checked against the pick's choices) into the caller's draft of
        ``form``; returns the caller's prompt and the drafts of its forms, to show."""
        async with game.lock:
            seat, p, f = self._form(game, user_id, version, form)
            part = f.pick(pick)
            if part is None:
                raise Refusal(FORM_GONE)
            try:
                part.joined(values)
            except pr.PromptError as err:
                raise Refusal(str(err)) from None
            await self.core.store.save_draft(game.id, seat, form, version, {pick: list(values)})
            return p, await self.drafts(game.id, seat, version, p)

    async def form_action(self, game: LiveGame, user_id: int, version: int, form: str) -> str:
        """The action the caller's draft of ``form`` builds (its Send button)."""
        async with game.lock:
            seat, _, f = self._form(game, user_id, version, form)
            try:
                return f.build(await self.core.store.draft(game.id, seat, form, version))
            except pr.PromptError as err:
                raise Refusal(str(err)) from None

    async def dialog_action(
        self, game: LiveGame, user_id: int, version: int, key: str, values: Mapping[str, Sequence[str]]
    ) -> str:
        """The action the dialog ``key`` builds from its answers (checked against its choices)."""
        async with game.lock:
            d = self.dialog(game, user_id, version, key)
            try:
                return d.build({k: list(v) for k, v in values.items()})
            except pr.PromptError as err:
                raise Refusal(str(err)) from None

    async def drafts(
        self, game_id: int, seat: int, version: int, prompt: pr.Prompt | None
    ) -> dict[str, dict[str, list[str]]]:
        """The stored drafts of ``prompt``'s forms (form key -> pick key -> values)."""
        out: dict[str, dict[str, list[str]]] = {}
        for form in forms(prompt):
            draft = await self.core.store.draft(game_id, seat, form.key, version)
            if draft:
                out[form.key] = draft
        return out
