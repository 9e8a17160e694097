"""``bazaar learn``: every game's guided first game plays to its end by itself and explains each
of the learner's steps first; its script reaches every kind of action the game has; a learner who
plays something else hears why the suggestion is better and the guide goes on; a guided game left
halfway resumes to the same state; and the guide reads only the learner's view."""

from __future__ import annotations

import copy
import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bot.cli import main
from bot.offline import guidefind, saved
from bot.offline.learn import learn_terminal
from engines import base
from engines import guide as guides

GAMES = ("kathai", "phraya", "pralaya", "ra")

KINDS = {  # the kinds of action the guided game must reach, as the learner's action texts
    "ra": ("draw", "invoke", "bid", "pass", "god", "discard"),  # discard: a disaster's cost
    "kathai": ("offer", "accept", "sell", "bribe", "swap"),
    "pralaya": ("take", "buy veda", "buy dhoni", "discard"),  # discard: after the escape
    "phraya": (
        "play b1", "play b2", "play b3", "play b4", "play b5", "play m#", "merchant", "price",
        "barge", "move", "buy", "temple", "king", "scribe",
    ),
}  # fmt: skip


class Reader:
    """A ``read`` giving ``first`` in turn, then ``go`` to every move and ``y`` to every
    question; it ends the input (Ctrl-D) after ``stop`` lines when given."""

    def __init__(self, first: list[str], stop: int | None = None) -> None:
        self.first, self.stop, self.asked = list(first), stop, 0

    def __call__(self, prompt: str) -> str:
        self.asked += 1
        if self.stop is not None and self.asked > self.stop:
            raise EOFError
        if self.first:
            return self.first.pop(0)
        return "y" if "[y/N]" in prompt else "go"


@pytest.mark.parametrize("game", GAMES)
def test_autoplay_plays_the_script_to_its_end_explaining_every_step(game: str) -> None:
    out = io.StringIO()
    assert learn_terminal(game, autoplay=True, out=out) == 0
    lines = out.getvalue().splitlines()
    played = [i for i, line in enumerate(lines) if line.startswith("> ")]
    assert len(played) >= 15
    for i in played:  # each step: its number, the guide's words, then the move
        assert lines[i - 2].startswith("Step "), lines[i - 2]
        assert lines[i - 1].startswith("Guide: ") and len(lines[i - 1]) > 40, lines[i - 1]
    guide = guides.guide_for(game)
    assert ("Game over." in out.getvalue()) == (guide.stop is None)
    assert guide.stop is None or out.getvalue().rstrip().splitlines()[-3] == guide.stop_note
    assert [lines[i][2:] for i in played] == _advised(guide)
    assert guides.TARGET[0] <= len(played) <= guides.TARGET[1], f"{game}: {len(played)} steps"
    assert sum(" Here: " in lines[i - 1] for i in played) == len(guide.notes), "a note is never said"


def _advised(guide: guides.Guide) -> list[str]:
    """The learner's scripted moves that were a choice (the terminal plays the others alone),
    from the prepared position to the guide's stop."""
    engine = base.get(guide.game)
    out = []
    state = base.replay(engine, guide.seed, guide.players, guide.options, guide.prologue())
    for seat, action in guide.taught():
        if seat == guide.seat and engine.auto_answer(state, seat) is None:
            out.append(action)
        state = base.play(engine, state, seat, action).state
    return out


@pytest.mark.parametrize("game", GAMES)
def test_the_script_reaches_every_kind_of_action_and_has_words_for_each(game: str) -> None:
    guide = guides.guide_for(game)
    engine = base.get(game)
    own = [a for s, a in guide.taught() if s == guide.seat]  # what the learner plays
    for prefix in KINDS[game]:
        assert any(guides.matches(a, prefix) for a in own), f"{game}: the learner never plays {prefix}"
    for action in own:
        assert guides.kind(guide, action) in guide.tips, f"{game}: no words for `{action}`"
    final = base.replay(engine, guide.seed, guide.players, guide.options, guide.moves())
    assert engine.outcome(final) is not None, "the script does not end the game"


def test_ra_script_has_a_disaster_and_every_epoch_scored() -> None:
    """The script plays three epochs; the learner plays epoch 2 (epoch 1 is the prepared
    position), which has a disaster, a god and ends with its scoring, where the guide stops."""
    guide = guides.guide_for("ra")
    engine = base.get("ra")
    kinds: list[list[str]] = []
    for _, played in base.replay_steps(engine, guide.seed, guide.players, guide.options, guide.moves()):
        kinds.append([e.kind for e in played.events] if played is not None else [])
    assert sum(k.count("epoch_score") for k in kinds) == 3
    assert sum(k.count("epoch_score") for k in kinds[: guide.start + 1]) == 1  # epoch 1 before the learner
    taught = [kind for k in kinds[guide.start + 1 : guide.stop + 1 if guide.stop else None] for kind in k]
    assert "disaster" in taught and "god" in taught and "epoch_score" in kinds[guide.stop or -1]
    assert taught.count("epoch_score") == 1


def test_playing_off_script_says_why_and_the_guide_goes_on(tmp_path: Path) -> None:
    guide = guides.guide_for("pralaya")
    engine = base.get("pralaya")
    state = engine.setup(guide.seed, guide.players, guide.options)
    suggested = guide.own_moves()[0]
    other = next(a for a in engine.legal_actions(state, guide.seat) if a != suggested)
    out = io.StringIO()
    read = Reader([other, "n", other, "y"])  # refused once (the suggestion stays open), then played
    assert learn_terminal("pralaya", save=tmp_path / "g.log", read=read, out=out, level="easy") == 0
    text = out.getvalue()
    assert (
        f"The guide suggests {suggested} rather than {other}. Played out 64 times from what you can see"
        in text
    )
    assert text.count(f"The guide suggests {suggested} rather than {other}") == 2
    assert f"Not played. Type go for {suggested}" in text
    assert "You left the script" in text
    assert text.count("Guide: ") >= 5, "the guide stops explaining once the script is left"
    assert "Game over." in text and not (tmp_path / "g.log").exists()


def test_a_guided_game_left_halfway_resumes_to_the_same_state(tmp_path: Path) -> None:
    save = tmp_path / "learn.log"
    out = io.StringIO()
    assert learn_terminal("kathai", save=save, read=Reader([], stop=8), out=out) == 0
    assert "bazaar learn kathai resumes it" in out.getvalue()
    log = saved.load(save)
    assert log is not None and log.moves
    guide = guides.guide_for("kathai")
    engine = base.get("kathai")
    assert log.moves == guide.moves()[: len(log.moves)], "the game left the script while following it"
    again = io.StringIO()
    assert learn_terminal("kathai", save=save, read=Reader(["quit"]), out=again) == 0
    assert f"Resuming after {len(log.moves)} moves." in again.getvalue()
    reloaded = saved.load(save)
    assert reloaded is not None and reloaded.moves == log.moves
    last = io.StringIO()
    assert learn_terminal("kathai", save=save, read=Reader([]), out=last) == 0
    assert "Game over." in last.getvalue() and not save.exists()
    whole = io.StringIO()  # the same game played in one go ends with the same sheet
    assert learn_terminal("kathai", autoplay=True, out=whole) == 0
    assert last.getvalue().split("Game over.")[1] == whole.getvalue().split("Game over.")[1]
    state = base.replay(engine, guide.seed, guide.players, guide.options, log.moves)
    again_state = base.replay(engine, log.seed, log.players, log.options, reloaded.moves)
    assert base.state_fingerprint(state) == base.state_fingerprint(again_state)


def test_new_starts_over_and_a_foreign_save_is_refused(tmp_path: Path) -> None:
    save = tmp_path / "learn.log"
    assert learn_terminal("pralaya", save=save, read=Reader([], stop=2), out=io.StringIO()) == 0
    err = io.StringIO()
    assert learn_terminal("ra", save=save, read=Reader([]), out=io.StringIO(), err=err) == 2
    assert "another game than Ra's guided game" in err.getvalue()
    out = io.StringIO()
    assert learn_terminal("pralaya", save=save, new=True, read=Reader(["quit"]), out=out) == 0
    assert "Resuming" not in out.getvalue()
    log = saved.load(save)
    assert log is not None and log.moves == []
    log.moves = [(0, "take a1"), (0, "take a1")]  # a save the rules no longer accept
    saved.save(save, log)
    err = io.StringIO()
    assert learn_terminal("pralaya", save=save, read=Reader([]), out=io.StringIO(), err=err) == 2
    assert "no longer replays" in err.getvalue() and "--new starts over" in err.getvalue()


@pytest.mark.parametrize("game", GAMES)
def test_the_guide_reads_only_the_learners_view(game: str) -> None:
    guide = guides.guide_for(game)
    engine = base.get(game)
    checked = 0
    own: list[str] = []
    for count, (state, played) in enumerate(
        base.replay_steps(engine, guide.seed, guide.players, guide.options, guide.moves())
    ):
        if played is not None and guide.moves()[count - 1][0] == guide.seat:
            own.append(played.action)
        awaited = engine.to_move(state)
        if guide.seat not in awaited or count % 5 or checked >= 6:
            continue
        view = engine.view(state, guide.seat)
        kept = copy.deepcopy(view)
        legal = engine.legal_actions(state, guide.seat)
        for pos in (guides.Position(count, tuple(own)), guides.Position(count, ("off",))):
            advice = guides.advise(engine, guide, view, legal, pos, "easy")
            assert view == kept, "the guide changed the view it was given"
            assert guides.advise(engine, guide, copy.deepcopy(kept), list(legal), pos, "easy") == advice
        other = next((a for a in legal if a != advice.action), None)
        if other is not None:
            why = guides.why_better(engine, guide, view, advice, other, 5)
            assert view == kept
            assert guides.why_better(engine, guide, copy.deepcopy(kept), advice, other, 5) == why
        checked += 1
    assert checked


def test_bazaar_learn_autoplay_from_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["learn", "pralaya", "--autoplay"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Pralaya, the guided first game.") and "Game over." in text
    assert main(["learn", "chess"]) == 2
    assert capsys.readouterr().err.startswith("bazaar: ")


@pytest.mark.parametrize(
    "game", [pytest.param(g, marks=pytest.mark.slow) if g == "pralaya" else g for g in GAMES]
)
def test_the_finder_makes_each_stored_script_from_its_seed(game: str) -> None:
    """The scripts are the finder's (``python -m bot.offline.guidefind``), not edited by hand;
    Pralaya's full playouts make it the slow one (about 9 s)."""
    guide = guides.guide_for(game)
    found = guidefind.play(guide, guide.seed)
    assert found.script == guide.script.strip()
    assert not found.missed and found.won


def test_a_worse_move_is_told_what_the_suggestion_gains() -> None:
    """Invoking Ra on an empty track (step 3 of Ra's script) against the suggested draw."""
    out = io.StringIO()
    assert learn_terminal("ra", read=Reader(["go", "go", "invoke", "n"], stop=4), out=out) == 0
    text = out.getvalue()
    assert "The guide suggests draw rather than invoke: Draw a tile onto the auction track" in text
    worth = re.search(r"draw is worth (\d+)% against (\d+)% for invoke", text)
    assert worth is not None and int(worth.group(1)) > int(worth.group(2))
    assert "Not played. Type go for draw" in text and "You left the script" not in text


def test_autoplay_piped_into_a_reader_that_stops_ends_quietly() -> None:
    """``bazaar learn ra --autoplay | head -3``: no traceback when the pipe closes."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ, PYTHONPATH=str(root))
    with subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "learn", "ra", "--autoplay"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=root,
        env=env,
    ) as proc:
        assert proc.stdout is not None and proc.stderr is not None
        head = proc.stdout.readline()
        proc.stdout.close()  # the reader stops
        err = proc.stderr.read().decode()
        assert proc.wait(timeout=60) == 0
    assert head.startswith(b"Ra, the guided first game.") and err == ""


def test_a_move_that_measures_better_than_the_scripts_is_called_better() -> None:
    """Ra's step 2 (bid 5, the script's cheap bid) against bid 13: the playouts favour the high
    sun, and the guide says so rather than calling the two about equal."""
    guide = guides.guide_for("ra")
    engine = base.get("ra")
    log = guide.moves()[: guide.start + 3]
    state = base.replay(engine, guide.seed, guide.players, guide.options, log)
    view = engine.view(state, guide.seat)
    pos = guides.Position.of(log, guide.seat)
    advice = guides.advise(engine, guide, view, engine.legal_actions(state, guide.seat), pos)
    assert advice.action == "bid 5" and advice.scripted
    said = guides.why_better(engine, guide, view, advice, "bid 13", guides.decision_seed(guide, pos))
    assert "`bid 13` does better here" in said and "go on with yours" in said
