"""The offline command line: demo, replay, terminal play, and `run` without a token."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from bot import cli
from bot.offline.demo import ai_game, replay_log, run_demo
from bot.offline.movelog import LogError, MoveLog, loads
from bot.offline.terminal import play_terminal
from engines import base

ROOT = Path(__file__).resolve().parent.parent
GAMES = [e.name for e in base.games()]
TWO = next(e.name for e in base.games() if e.min_players <= 2)  # a game two players can play


@pytest.mark.parametrize("game", GAMES)
def test_demo_writes_snapshots_sheet_and_a_replayable_log(
    game: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = base.get(game)
    n = engine.min_players + 1
    assert cli.main(["demo", game, "--players", str(n), "--seed", "3", "--out", str(tmp_path)]) == 0
    printed = capsys.readouterr().out
    folders = sorted(p for p in tmp_path.iterdir() if p.is_dir())
    assert len(folders) == len(engine.demo_options)  # one game per demo option set
    for folder in folders:
        turns = sorted(folder.glob("turn-*.png"))
        assert len(turns) >= 3
        with Image.open(turns[-1]) as img:
            assert 900 <= img.width <= 1400
        assert (folder / "final-score-sheet.png").stat().st_size > 1000
        assert len(list(folder.glob("final-hand-*.png"))) == n
        log = loads((folder / "moves.log").read_text())
        assert log.game == game and log.players == n and log.seed == 3
        assert log.result is not None and log.moves
        # the log reproduces the outcome, through the command too
        _, _, out = replay_log(log)
        assert out is not None and list(out.ranks) == log.result["ranks"]
        assert cli.main(["replay", str(folder / "moves.log")]) == 0
        assert "matches the result recorded" in capsys.readouterr().out
    assert "actions" in printed


def test_replay_detects_a_tampered_result(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    res = run_demo(TWO, 5, 2, {}, tmp_path, images=False)
    log = loads((res.folder / "moves.log").read_text())
    log.result = dict(log.result or {}, scores=[-1] * log.players)
    bad = tmp_path / "bad.log"
    bad.write_text(log.dumps())
    assert cli.main(["replay", str(bad)]) == 1
    assert "differs" in capsys.readouterr().err


def test_replay_rejects_an_illegal_move_with_its_reason(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    engine = base.get(TWO)
    _, moves = ai_game(engine, 2, 2, {})
    seat, action = moves[0]
    log = MoveLog(TWO, 2, 2, {}, [], [(seat, action), (seat, action), (seat, action)] + moves[1:])
    path = tmp_path / "x.log"
    path.write_text(log.dumps())
    # applying the first move twice in a row is never legal in these games
    assert cli.main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert "move 2" in err or "move 3" in err


def test_movelog_round_trip_and_errors() -> None:
    log = MoveLog(
        "pralaya",
        9,
        3,
        {"open_hands": True},
        ["A", "B", "C"],
        [(0, "take b4"), (0, "done")],
        {"ranks": [1, 2, 3]},
    )
    again = loads(log.dumps())
    assert again == log
    with pytest.raises(LogError, match="line 3"):
        loads("game: pralaya\nseed: 1\nnot a move\n")
    with pytest.raises(LogError, match="players"):
        loads("game: pralaya\nseed: 1\n0 done\n")


def test_replay_of_missing_or_bad_file(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["replay", str(tmp_path / "nope.log")]) == 2
    assert "cannot read" in capsys.readouterr().err
    (tmp_path / "x.log").write_text("hello\n")
    assert cli.main(["replay", str(tmp_path / "x.log")]) == 2


def test_unknown_game_and_bad_option_are_explained(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert cli.main(["demo", "chess", "--out", str(tmp_path)]) == 2
    assert "no game called `chess`" in capsys.readouterr().err
    assert cli.main(["demo", TWO, "-o", "nonsense=1", "--out", str(tmp_path)]) == 2
    assert "no option `nonsense`" in capsys.readouterr().err
    assert cli.main(["demo", TWO, "--players", "9", "--out", str(tmp_path)]) == 2
    assert "players" in capsys.readouterr().err


def _lowest(listed: re.Pattern[str], shown: str) -> str:
    """The lowest move number listed after the last "Your moves:" of ``shown``."""
    found = listed.search(shown.rsplit("Your moves:", 1)[-1])
    assert found is not None, shown[-300:]
    return found.group(1)


@pytest.mark.parametrize("game", GAMES)
def test_terminal_play_answers_bad_input_and_plays_to_the_end(game: str) -> None:
    engine = base.get(game)
    answers = iter(["what is this", "999"])
    out = io.StringIO()
    listed = re.compile(r"\[\s*(\d+)\]")  # the lowest number listed (numbers stay with their move)
    code = play_terminal(
        game,
        engine.min_players,
        0,
        seed=4,
        out=out,
        level="easy",
        read=lambda p: next(answers, "y" if "[y/N]" in p else _lowest(listed, out.getvalue())),
    )
    text = out.getvalue()
    assert code == 0
    assert "Your moves:" in text
    assert "✗" in text  # the garbage line got the engine's reason
    assert "Game over." in text
    assert "{s" not in text  # every seat token was replaced by a name


def test_terminal_play_quits_cleanly() -> None:
    out = io.StringIO()
    answers = iter(["help", "board", "log", "quit"])
    assert play_terminal(TWO, 2, 0, seed=1, read=lambda _: next(answers), out=out) == 0
    assert "Bye." in out.getvalue()


def test_run_without_a_token_exits_2_with_a_hint(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "DISCORD_TOKEN"}
    proc = subprocess.run(
        [sys.executable, "-m", "bot.cli", "run"],
        cwd=tmp_path,
        env=env | {"PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert proc.returncode == 2
    assert "DISCORD_TOKEN" in proc.stderr
    assert "discord.com/developers" in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1
    assert "Traceback" not in proc.stderr


def test_games_lists_every_engine(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["games"]) == 0
    out = capsys.readouterr().out
    for game in GAMES:
        assert game in out


def test_replay_of_a_folder_a_binary_a_non_utf8_file_or_a_changed_log(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    res = run_demo(TWO, 5, 2, {}, tmp_path, images=False)
    assert cli.main(["replay", str(res.folder)]) == 0  # a demo folder: its moves.log
    assert "matches the result recorded" in capsys.readouterr().out
    text = (res.folder / "moves.log").read_text()
    cases = {
        "empty": None,
        "binary.log": b"\x89PNG\r\n\x1a\n\x00\x00",
        "latin1.log": 'game: pralaya\nnames: ["Zo\u00eb"]\n'.encode("latin-1"),
        "names.log": text.replace(text.split("\n")[5], "names: 7").encode(),
        "result.log": (text + "# result: [1, 2]\n").encode(),
        "move.log": text.replace("\n0 ", "\n0 nonsense-", 1).encode(),
        "game.log": text.replace(f"game: {TWO}", "game: chess").encode(),
    }
    for name, content in cases.items():
        path = tmp_path / name
        if content is None:
            path.mkdir()
        else:
            path.write_bytes(content)
        code = cli.main(["replay", str(path)])
        err = capsys.readouterr().err
        assert code == 2, name
        assert err.startswith("bazaar: ") and len(err.strip().splitlines()) == 1, (name, err)
        assert "Traceback" not in err


def test_help_of_every_subcommand_lists_the_games_and_explains_every_flag(
    capsys: pytest.CaptureFixture[str],
) -> None:
    parser = cli._parser()
    sub = next(a for a in parser._actions if a.dest == "cmd")
    assert isinstance(sub.choices, dict)
    for name, p in sub.choices.items():
        with pytest.raises(SystemExit):
            cli.main([name, "--help"])
        out = " ".join(capsys.readouterr().out.split())
        for game in GAMES:
            assert game in out, (name, game)
        for action in p._actions:
            if action.dest != "help":
                assert action.help, (name, action.dest)


def test_bad_arguments_are_one_bazaar_line(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        cli.main(["play", TWO, "--players", "x"])
    assert exc.value.code == 2
    err = capsys.readouterr().err
    assert err.startswith("bazaar: argument --players") and len(err.strip().splitlines()) == 1
    assert cli.main(["play"]) == 2
    assert "Name a game to play" in capsys.readouterr().err
