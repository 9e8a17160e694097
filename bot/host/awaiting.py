"""Who a published batch awaits and with which controls, asked of the engine by the host: the
people the rules await, the prompt shown under the board (everyone awaited may click it) and
the prompts offered only privately (in a seat's DM and its My hand answer). The surface draws
what this says; it never asks the engine itself."""

from __future__ import annotations

from engines import prompt as pr

from .live import Batch
from .store import SeatRow


def board_prompt(batch: Batch) -> tuple[list[SeatRow], pr.Prompt | None, dict[int, pr.Prompt]]:
    """Who must act (the people awaited), the prompt shown under the board, and the prompts
    offered only privately (seat -> prompt: in the seat's DM and its My hand answer).

    A prompt goes under the board when it is public and it is the only one: one person
    awaited, or several whose public prompts are the same (everyone may click; each click
    is checked for the clicker's own seat). Any other prompt is private to its seat."""
    engine, state = batch.engine, batch.state
    awaited = [batch.seats[s] for s in engine.to_move(state)]
    people = [s for s in awaited if not s.is_ai and not s.ai_takeover and s.user_id is not None]
    prompts = {s.seat: engine.prompt(state, s.seat) for s in people}
    shared = {(p.controls, p.text) for p in prompts.values()}
    on_board: pr.Prompt | None = None
    if prompts and len(shared) == 1 and all(p.public for p in prompts.values()):
        on_board = next(iter(prompts.values()))
    private = {s: p for s, p in prompts.items() if on_board is None and p.controls}
    return people, on_board, private
