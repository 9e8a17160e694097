"""``undo`` in ``bazaar play``: refused with nothing to take back, then a Pralaya take taken back;
the saved log holds the undo entry and replays to the state before the take; a move another seat
answered stays."""

from __future__ import annotations

import io
from pathlib import Path

from bot.offline.movelog import loads
from bot.offline.terminal import play_terminal
from engines import base
from tests.test_terminal import Answers


def test_undo_in_the_terminal(tmp_path: Path) -> None:
    save = tmp_path / "play.log"
    out = io.StringIO()
    read = Answers(["undo", "1", "undo", "quit"], out=out)
    play_terminal("pralaya", 3, 0, seed=1, read=read, out=out, save=save, level="easy")
    text = out.getvalue()
    log = loads(save.read_text())
    take = log.moves[0][1]
    assert log.moves == [(0, take), (0, "undo 1")]
    assert "✗ You have no move to take back." in text
    assert f"You took back '{take}'." in text
    engine = base.get("pralaya")
    options = engine.resolve_options(log.options)
    replayed = base.replay(engine, log.seed, log.players, options, log.moves)
    assert base.state_fingerprint(replayed) == base.state_fingerprint(engine.setup(1, 3, options))


def test_a_move_the_others_answered_stays(tmp_path: Path) -> None:
    out = io.StringIO()
    read = Answers(["1", "2", "undo", "quit"], out=out)  # take, then pass: the AI seats play on
    save = tmp_path / "play.log"
    play_terminal("pralaya", 3, 0, seed=1, read=read, out=out, save=save, level="easy")
    assert "has played since your move, so it stays." in out.getvalue()
    assert all(not a.startswith("undo") for _, a in loads(save.read_text()).moves)
