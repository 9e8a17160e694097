"""``bazaar play``: plain text in the second person, one numbered list of moves, answers to bad
input, the game's own help and rules, confirmation of irreversible moves, saving after every
move and ``--resume``, scoring by category with the reason for a zero."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import render
from bot.offline import saved
from bot.offline.movelog import MoveLog, loads
from bot.offline.terminal import play_terminal, resume_terminal
from bot.offline.wording import description, plain, second_person
from engines import base

ROOT = Path(__file__).resolve().parent.parent
GAMES = [e.name for e in base.games()]


def lowest_listed(out: io.StringIO) -> str:
    """The lowest number of the last list of moves printed on ``out`` (numbers stay with their
    move through a turn, so it need not be 1)."""
    found = re.search(r"\[\s*(\d+)\]", out.getvalue().rsplit("Your moves:", 1)[-1])
    return found.group(1) if found else "1"


def _ctrl_d(prompt: str) -> str:
    """A ``read`` whose input ends at once (Ctrl-D)."""
    raise EOFError


class Answers:
    """A ``read`` that gives ``first`` in turn, then ``then`` (with ``out``: the lowest listed
    number) for every move and "y" to every confirmation (so a whole game is played); it keeps
    the ``prompts`` it was asked."""

    def __init__(self, first: list[str], then: str = "1", out: io.StringIO | None = None) -> None:
        self.it = iter(first)
        self.then, self.out = then, out
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        for line in self.it:
            return line
        if "[y/N]" in prompt:
            return "y"
        return lowest_listed(self.out) if self.out is not None else self.then


# --------------------------------------------------------------------------- wording


def test_plain_removes_markdown_but_keeps_stand_in_stars() -> None:
    assert plain("**Pralaya** · `take b4` · t23 *new* · ~~old~~") == "Pralaya · take b4 · t23 new · old"
    assert (
        plain("Veda 3 left, price 4* · Dhoni X  (*stand-in price)")
        == "Veda 3 left, price 4* · Dhoni X  (*stand-in price)"
    )


@pytest.mark.parametrize(
    "text, want",
    [
        ("Round 1 · You's turn · 1 Vitality", "Round 1 · Your turn · 1 Vitality"),
        ("You takes a2 (Great Statue)", "You take a2 (Great Statue)"),
        ("You wins.", "You win."),
        ("You passes", "You pass"),
        ("You is first; You has 3 suns", "You are first; You have 3 suns"),
        ("You buy Dhoni X with no coins and escapes", "You buy Dhoni X with no coins and escape"),
        ("It is not your turn: waiting for You.", "It is not your turn: waiting for you."),
        ("AI Bilal takes a2", "AI Bilal takes a2"),
        (
            "AI Chen and You trade: AI Chen gives t13, You gives t17.",
            "AI Chen and you trade: AI Chen gives t13, you give t17.",
        ),
    ],
)
def test_second_person(text: str, want: str) -> None:
    assert second_person(text) == want


def test_description_drops_what_repeats_the_action() -> None:
    assert description("take a1", "Take a1 · Great Statue (1 V)") == "Great Statue (1 V)"
    assert description("bribe gold silk t23", "bribe gold silk t23 (3 silk)") == "3 silk"
    assert description("pass", "pass") == ""
    assert description("draw", "Draw a tile") == "Draw a tile"


# --------------------------------------------------------------------------- a whole game per game


@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_reads_right(game: str, tmp_path: Path) -> None:
    engine = base.get(game)
    n = engine.min_players
    out = io.StringIO()
    read = Answers(["rules", "help", "999", "0", "what is this"], out=out)
    save = tmp_path / "play.log"
    assert play_terminal(game, n, 0, seed=4, read=read, out=out, save=save, level="easy") == 0
    text = out.getvalue()
    assert "**" not in text and "`" not in text  # no markdown
    assert "{s" not in text and "You's" not in text and "You takes" not in text
    assert engine.summary.split("\n")[0].replace("`", "") in text  # `rules`
    # the help's examples are moves of this game, legal at the start
    start = engine.setup(4, n, None)
    help_line = next(line for line in text.splitlines() if line.startswith("Type the number"))
    assert engine.title in help_line
    if 0 in engine.to_move(start):
        menu = engine.menu(start, 0)
        first = menu.moves[0][0] if menu is not None else engine.legal_actions(start, 0)[0]
        assert first in help_line
    assert "✗ There is no move 999: pick 1" in text
    assert "✗ There is no move 0: pick 1" in text
    assert "Your moves:" in text and "  [1] " in text
    assert not [x for x in text.splitlines() if x.startswith(("Moves: ", "Actions: "))]  # one list
    assert "Game over." in text and "Final scoring" in text
    assert "You win." in text or "wins." in text or "share the win." in text
    assert not save.exists()  # a finished game is no longer saved


def test_the_winner_line_in_the_second_person(tmp_path: Path) -> None:
    """Over a few seeds of a two-player game, whoever wins is announced, "You win." when it is
    the person."""
    seen = set()
    for seed in range(1, 6):
        out = io.StringIO()
        assert play_terminal("ra", 2, 0, seed=seed, read=Answers([], out=out), out=out) == 0
        last = out.getvalue().split("Game over. ", 1)[1].splitlines()[0]
        assert last in ("You win.", "AI Bilal wins.", "You and AI Bilal share the win.")
        seen.add(last)
    assert seen  # at least one seed played to its end


# --------------------------------------------------------------------------- irreversible moves


def _first_irreversible(game: str) -> tuple[base.Engine, Any, int, str, str]:
    """The first state of an AI game (seeds 1…) where the awaited seat has a move the engine
    marks irreversible: (engine, state, seat, that move, an ordinary move)."""
    engine = base.get(game)
    for seed in range(1, 30):
        state = engine.setup(seed, engine.min_players + 1, None)
        while engine.outcome(state) is None:
            seat = base.first_awaited(engine, state)
            legal = engine.legal_actions(state, seat)
            marked = [a for a in legal[:300] if engine.irreversible(state, seat, a)]
            plain_moves = [a for a in legal[:300] if not engine.irreversible(state, seat, a)]
            if marked and plain_moves:
                return engine, state, seat, marked[0], plain_moves[0]
            state = base.play(engine, state, seat, engine.choose(engine.view(state, seat), legal)).state
    raise AssertionError(f"{game}: no irreversible move met")


@pytest.mark.parametrize("game", GAMES)
def test_every_game_marks_some_moves_irreversible(game: str) -> None:
    engine, state, seat, marked, ordinary = _first_irreversible(game)
    warning = engine.irreversible(state, seat, marked)
    assert warning and warning.endswith(".") and len(warning) < 200
    assert engine.irreversible(state, seat, ordinary) is None


def test_escaping_is_confirmed_first() -> None:
    """Pralaya: the buy step lists the Dhoni; "n" leaves the move unplayed, "y" plays it."""
    out = io.StringIO()
    read = Answers(["1", "1", "n", "board", "1", "y", "quit"])
    assert play_terminal("pralaya", 3, 0, seed=1, read=read, out=out, level="easy") == 0
    text = out.getvalue()
    asks = [p for p in read.prompts if "[y/N]" in p]
    assert len(asks) == 2 and "escape" in asks[0]
    assert "Not played. Choose again." in text
    before, after = text.split("Not played. Choose again.")
    assert "You buy Dhoni" not in before and "You buy Dhoni" in after
    assert "and escape" in after and "escapes" not in after


# --------------------------------------------------------------------------- saving and resuming


def test_saved_after_every_move_and_resumed(tmp_path: Path) -> None:
    save = tmp_path / "state" / "play.log"
    # Ctrl-D after two of the person's moves (seed 1: the person starts; take, then pass)
    lines = iter(["1", "2"])

    def read(prompt: str) -> str:
        for line in lines:
            return line
        raise EOFError

    out = io.StringIO()
    assert play_terminal("pralaya", 3, 0, seed=1, read=read, out=out, save=save, level="easy") == 0
    assert "bazaar play --resume continues it" in out.getvalue().splitlines()[-1]
    log = loads(save.read_text())
    assert log.seat == 0 and log.names[0] == "You"
    assert sum(1 for seat, _ in log.moves if seat == 0) == 2  # both of the person's moves, and the AI's
    mine = len(log.moves)
    # resumed: the game goes on from there and is played to its end
    out = io.StringIO()
    assert resume_terminal(save, read=Answers([], out=out), out=out) == 0
    text = out.getvalue()
    assert text.startswith(f"Pralaya: resuming after {mine} moves (seed 1, AI level easy).")
    assert "Game over." in text and not save.exists()


def test_ctrl_c_keeps_the_game_and_resume_refuses_what_is_not_a_save(tmp_path: Path) -> None:
    save = tmp_path / "play.log"

    def interrupt(prompt: str) -> str:
        raise KeyboardInterrupt

    out = io.StringIO()
    assert play_terminal("ra", 3, 0, seed=1, read=interrupt, out=out, save=save, level="easy") == 130
    assert "saved" in out.getvalue() and loads(save.read_text()).seat == 0
    err = io.StringIO()
    assert resume_terminal(save, "pralaya", out=io.StringIO(), err=err) == 2
    assert err.getvalue().startswith("bazaar: the saved game is Ra, not Pralaya")
    for content, why in (
        (b"\xff\xfe\x00junk", "not UTF-8"),
        (b"hello\n", "not a saved game"),
        (b"game: ra\nseed: 1\nplayers: 3\n", "has no `seat:`"),
    ):
        save.write_bytes(content)
        err = io.StringIO()
        assert resume_terminal(save, out=io.StringIO(), err=err) == 2
        assert why in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1
    save.unlink()
    err = io.StringIO()
    assert resume_terminal(save, out=io.StringIO(), err=err) == 2
    assert "no saved game" in err.getvalue()


def test_a_changed_save_is_refused_in_one_line(tmp_path: Path) -> None:
    save = tmp_path / "play.log"
    out = io.StringIO()
    play_terminal("pralaya", 3, 0, seed=1, read=Answers(["1", "quit"]), out=out, save=save, level="easy")
    save.write_text(save.read_text() + "1 take z9\n")
    err = io.StringIO()
    assert resume_terminal(save, out=io.StringIO(), err=err) == 2
    assert "cannot be resumed" in err.getvalue() and len(err.getvalue().strip().splitlines()) == 1


def _cli(*args: str, env: dict[str, str], stdin: str = "") -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
        cwd=ROOT,
    )


def test_bazaar_play_through_stdin_then_resume(tmp_path: Path) -> None:
    """The command itself: stdin closes after two moves (Ctrl-D), `--resume` goes on."""
    env = dict(os.environ, BAZAAR_PLAY_SAVE=str(tmp_path / "play.log"), PYTHONPATH=str(ROOT))
    first = _cli("play", "pralaya", "--seed", "3", env=env, stdin="1\n1\n")
    assert first.returncode == 0 and first.stderr == ""
    assert "You take" in first.stdout and "bazaar play --resume" in first.stdout
    moves = loads((tmp_path / "play.log").read_text()).moves
    again = _cli("play", "--resume", env=env, stdin="log\n")
    assert again.returncode == 0 and f"resuming after {len(moves)} moves" in again.stdout
    wrong = _cli("play", "pralaya", "--seat", "9", env=env)
    assert wrong.returncode == 2 and wrong.stderr.startswith("bazaar: --seat")


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_ctrl_c_in_the_terminal_prints_no_traceback(tmp_path: Path) -> None:
    env = dict(
        os.environ, BAZAAR_PLAY_SAVE=str(tmp_path / "play.log"), PYTHONPATH=str(ROOT), PYTHONUNBUFFERED="1"
    )
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "kathai", "--seed", "1"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env=env,
    )
    assert proc.stdout is not None
    for line in proc.stdout:  # wait until it asks for a move
        if line.startswith("Your moves:"):
            break
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert "Traceback" not in err and "saved" in out
    assert loads((tmp_path / "play.log").read_text()).seat == 0


# --------------------------------------------------------------------------- scoring text


def test_pralaya_says_why_fossils_scored_nothing() -> None:
    players = [
        {"seat": 0, "hand": {"fos": 2, "urn": 1}, "veda": False, "escaped": True},
        {"seat": 1, "hand": {"fos": 2, "man": 2}, "veda": False, "escaped": True},
        {"seat": 2, "hand": {"fos": 3}, "veda": False, "escaped": False},
    ]
    cats = ["Coins", "Manuscripts", "Urns", "Fossils"]
    options = {"fossil_all_players": False}
    view = {
        "game": "pralaya",
        "n_players": 3,
        "over": True,
        "options": options,
        "players": players,
        "outcome": {
            "scores": [0, 5, None],
            "ranks": [2, 1, 3],
            "categories": cats,
            "winners": [1],
            "breakdown": [
                {c: 0 for c in cats},
                {"Coins": 0, "Manuscripts": 5, "Urns": 0, "Fossils": 0},
                None,
            ],
        },
    }
    text = render.get("pralaya").score_text(view, ["You", "AI Bilal", "AI Chen"])
    assert "Fossils: tied with AI Bilal (2 each), a tie scores nothing" in text
    assert "Fossils: tied with You (2 each)" in text
    assert "Urns: 1 Urn; they score in sets of 3" in text
    assert "3rd AI Chen: no score (did not escape" in text
    # with fossil_all_players the non-escaped seat's 3 Fossils count
    options["fossil_all_players"] = True
    text = render.get("pralaya").score_text(view, ["You", "AI Bilal", "AI Chen"])
    assert "Fossils: AI Chen has more (3 to 2) (did not escape, but counts)" in text


def test_ra_epoch_text_gives_reasons_for_zeros() -> None:
    cats = ["Gods", "Pharaohs", "Nile & floods", "Civilizations"]

    def row(seat: int, pts: list[int], counts: dict[str, Any]) -> dict[str, Any]:
        return {
            "seat": seat,
            "points": dict(zip(cats, pts, strict=False)),
            "floor": 0,
            "epoch_total": sum(pts),
            "running_total": 10 + sum(pts),
            "counts": counts,
        }

    ev = base.Event(
        "epoch_score",
        "Epoch 1 scores",
        {
            "epoch": 1,
            "rows": [
                row(0, [2, 0, 0, 0], {"pharaohs": 1, "niles": 2, "floods": 0, "civ_kinds": 2, "suns": 20}),
                row(1, [0, 0, 3, -5], {"pharaohs": 1, "niles": 2, "floods": 1, "civ_kinds": 0, "suns": 20}),
            ],
        },
    )
    text = render.get("ra").epoch_text([ev], ["You", "AI Bilal"])
    assert text.startswith("Epoch 1 scoring\nYou: +2 → 12 pts\n   Gods +2")
    assert "Pharaohs: everyone has 1 Pharaoh, so nobody scores" in text
    assert "Nile & floods: 2 Niles but no flood; Niles score only with a flood" in text
    assert "Civilizations: 2 kinds; 3 or more kinds score" in text
    assert text.count("Nile & floods:") == 1  # AI Bilal had a flood
    assert render.get("ra").epoch_text([base.Event("turn", "x")], None) is None


@pytest.mark.parametrize("game", GAMES)
def test_score_text_of_every_game_lists_each_seat_by_category(game: str) -> None:
    from bot.offline.demo import ai_game

    engine = base.get(game)
    n = engine.min_players + 1
    state, _ = ai_game(engine, 2, n)
    out = engine.outcome(state)
    assert out is not None
    names = [f"P{s}" for s in range(n)]
    text = render.get(game).score_text(engine.view(state, 0), names)
    assert text.startswith("Final scoring")
    for s in range(n):
        head = next(line for line in text.splitlines() if line.split(" ", 1)[1].startswith(f"P{s}:"))
        if out.scores[s] is not None:
            assert f"{out.scores[s]} pt" in head.replace("−", "-")
    assert render.get(game).score_text(engine.view(engine.setup(2, n, None), 0), names) == ""


# --------------------------------------------------------------------------- issue 22: the terminal


@pytest.mark.parametrize("where", ["proc", "folder", "under a file"])
def test_a_save_that_cannot_be_written_is_one_line_and_leaves_nothing(tmp_path: Path, where: str) -> None:
    folder = tmp_path / "dir"
    folder.mkdir()
    (tmp_path / "file").write_text("x")
    save = {"proc": Path("/proc/x"), "folder": folder, "under a file": tmp_path / "file" / "play.log"}[where]
    before = sorted(tmp_path.rglob("*"))
    out, err = io.StringIO(), io.StringIO()
    assert play_terminal("pralaya", 3, 0, seed=1, read=Answers([]), out=out, err=err, save=save) == 2
    assert err.getvalue().startswith("bazaar: cannot save the game to ")
    assert len(err.getvalue().strip().splitlines()) == 1 and out.getvalue() == ""
    assert sorted(tmp_path.rglob("*")) == before  # no .tmp left, nothing changed
    assert not Path("/proc/x.tmp").exists()


def test_the_command_line_says_one_line_for_an_unwritable_save() -> None:
    proc = _cli("play", "ra", "--save", "/proc/x", env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert proc.returncode == 2 and "Traceback" not in proc.stderr
    said = proc.stderr.strip().splitlines()
    assert said == [
        "bazaar: cannot save the game to /proc/x: no file can be made in /proc (no such file or directory)"
    ]


def test_a_save_failing_mid_game_is_said_and_the_game_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "play.log"
    calls: list[int] = []

    def flaky(path: Path, log: MoveLog) -> None:
        calls.append(len(log.moves))
        if len(calls) > 1:
            raise saved.SaveError(f"cannot save the game to {path}: no space left on device")
        path.write_text(log.dumps())

    monkeypatch.setattr(saved, "save", flaky)
    out = io.StringIO()
    assert (
        play_terminal("pralaya", 3, 0, seed=1, read=Answers(["1", "quit"]), out=out, save=save, level="easy")
        == 0
    )
    text = out.getvalue()
    assert text.count("no space left on device; the game goes on without saving") == 1
    assert len(calls) == 2  # tried once, then no more


def test_the_ai_level_is_saved_and_restored(tmp_path: Path) -> None:
    save = tmp_path / "play.log"
    play_terminal("ra", 3, 0, seed=1, read=Answers(["quit"]), out=io.StringIO(), save=save, level="hard")
    assert loads(save.read_text()).level == "hard"
    out = io.StringIO()
    assert resume_terminal(save, read=Answers(["quit"]), out=out) == 0
    assert "AI level hard" in out.getvalue().splitlines()[0]
    out = io.StringIO()  # a level given with --resume wins, and is saved with the next move
    assert resume_terminal(save, read=Answers(["quit"]), out=out, level="easy") == 0
    assert "AI level easy" in out.getvalue().splitlines()[0]
    save.write_text(save.read_text().replace("level: hard", "level: silly"))
    err = io.StringIO()
    assert resume_terminal(save, read=Answers([]), out=io.StringIO(), err=err) == 2
    assert "AI level `silly`" in err.getvalue()


def test_the_command_line_resumes_at_the_saved_level(tmp_path: Path) -> None:
    env = dict(os.environ, BAZAAR_PLAY_SAVE=str(tmp_path / "play.log"), PYTHONPATH=str(ROOT))
    first = _cli("play", "ra", "--seed", "2", "--ai-level", "easy", env=env, stdin="quit\n")
    assert first.returncode == 0 and loads((tmp_path / "play.log").read_text()).level == "easy"
    again = _cli("play", "--resume", env=env, stdin="quit\n")
    assert again.returncode == 0 and "AI level easy" in again.stdout


def test_a_new_game_over_an_unfinished_one_asks_first(tmp_path: Path) -> None:
    save = tmp_path / "play.log"
    play_terminal("ra", 3, 0, seed=1, read=Answers(["quit"]), out=io.StringIO(), save=save, level="easy")
    kept = save.read_text()
    # "n" (or Ctrl-D) keeps the saved game and starts nothing
    for reply in (["n"], []):
        read: Callable[[str], str] = Answers(reply) if reply else _ctrl_d

        out = io.StringIO()
        assert play_terminal("pralaya", 3, 0, seed=2, read=read, out=out, save=save) == 0
        assert "Kept the saved Ra game" in out.getvalue() and "Pralaya:" not in out.getvalue()
        assert save.read_text() == kept
    read = Answers(["y", "quit"])
    out = io.StringIO()
    assert play_terminal("pralaya", 3, 0, seed=2, read=read, out=out, save=save, level="easy") == 0
    assert "unfinished Ra game" in read.prompts[0] and "[y/N]" in read.prompts[0]
    assert "it replaces the unfinished game" in out.getvalue() and loads(save.read_text()).game == "pralaya"
    # a file that is not a saved game is never replaced
    save.write_text("my notes\n")
    err = io.StringIO()
    assert play_terminal("ra", 3, 0, seed=1, read=Answers([]), out=io.StringIO(), err=err, save=save) == 2
    assert "not a saved game" in err.getvalue() and save.read_text() == "my notes\n"


def test_hand_moves_and_score_do_what_they_say() -> None:
    out = io.StringIO()
    read = Answers(["hand", "moves", "score", "quit"])
    assert play_terminal("pralaya", 3, 0, seed=1, read=read, out=out, level="easy") == 0
    text = out.getvalue()
    after = text.split("Your moves:", 1)[1]
    hand, rest = after.split("\n", 1)[1].split("Your moves:", 1)
    assert "Your hand" in hand.split("\n", 1)[1] and "Island" not in hand.split("If escaped", 1)[0][-300:]
    assert "is not a Pralaya action" not in text
    assert "escaped now" in rest.split("Bye", 1)[0]  # `score` gives the preview
    out = io.StringIO()
    read = Answers(["score", "hand", "quit"])
    assert play_terminal("ra", 3, 0, seed=1, read=read, out=out, level="easy") == 0
    text = out.getvalue().split("Your moves:", 1)[1]
    assert "AI Bilal — 10 pts" in text  # `score`: every seat's points
    assert text.count("If epoch 1 ended now") >= 2 and "is not a Ra action" not in text


def test_numbers_stay_with_their_move_while_the_turn_goes_on() -> None:
    """Pralaya, seed 5: the person has 2 Vitality; after `take` of [1] the other moves keep
    their numbers (and [1] is gone), so typing a number still names the same move."""
    out = io.StringIO()
    read = Answers(["1", "1", "quit"])
    assert play_terminal("pralaya", 3, 0, seed=5, read=read, out=out, level="easy") == 0
    lists = [block.split("\n>")[0] for block in out.getvalue().split("Your moves:")[1:]]
    first = dict(re.findall(r"\[\s*(\d+)\] (\S+ \S+)", lists[0]))
    second = dict(re.findall(r"\[\s*(\d+)\] (\S+ \S+)", lists[1]))
    assert "1" not in second and second and all(first.get(k, v) == v for k, v in second.items())
    assert "✗ There is no move 1: pick a number from the list, or type a move." in out.getvalue()


def test_a_long_stretch_of_others_play_ends_in_a_summary() -> None:
    """Ra, seed 3: the person spends every sun at once; the AI seats then play on for dozens of
    moves, which end in one summary (the wins listed, draws and bids counted) and the epoch's
    scoring."""
    out = io.StringIO()
    read = Answers(["2", "1", "2", "1", "2", "1", "2", "1", "y", "quit"])
    assert play_terminal("ra", 3, 0, seed=3, read=read, out=out, level="easy") == 0
    text = out.getvalue()
    stretch = text.split("You bid 12", 1)[1].split("Your moves:", 1)[0]
    assert "a summary follows" in stretch and "While you waited the other players made" in stretch
    assert "tiles drawn" in stretch and "bids" in stretch and "Epoch 1 scoring" in stretch
    summary = stretch.split("While you waited", 1)[1].split("Epoch 1 scoring", 1)[0]
    assert " wins " in summary and " draws a " not in summary and " bids " not in summary
    assert len(stretch.splitlines()) < 60


def test_own_part_of_every_games_board_holds_the_persons_seat_line() -> None:
    from bot.offline.sections import own_part

    for game in GAMES:
        engine = base.get(game)
        state = engine.setup(1, 3, None)
        board = render.get(game).text(engine.view(state, 0), ["You", "AI Bilal", "AI Chen"], moves=False)
        part = own_part(board, "You")
        assert part and "AI Bilal" not in part.splitlines()[0], game
        assert any(line.lstrip("▶• ").startswith("**You") for line in part.splitlines()), game
