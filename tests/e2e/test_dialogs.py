"""A prompt's dialog drawn as a modal, through the real client and the fake Discord: Kathai's
"Make an offer…" opens at once (the modal is the first answer), names the players, refuses what
the engine refuses with its reason, refuses a dialog sent after the game moved on, and, with
confirmations on, a first offer sent from the dialog is asked about and played on Confirm."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from bot.surface import confirm
from tests.e2e.bazaar_harness import Table, make_table
from tests.fakediscord import FakeDiscord, Interaction, Message, RunBot, User


async def _kathai(fake: FakeDiscord, run_bot: RunBot, tmp_path: Path, *, confirm_on: bool = False) -> Table:
    table = make_table(fake, run_bot, tmp_path)
    table.confirm = confirm_on
    await table.boot()
    return table


def _dm(fake: FakeDiscord, user: User, custom_id: str) -> Message:
    found = [m for m in fake.dms(user) if custom_id in m.custom_ids]
    assert found, custom_id
    return found[-1]


async def _open(table: Table, gid: int) -> tuple[int, User, dict[str, Any], Interaction]:
    """The active (person's) seat, its user, the modal opened by "Make an offer…" in its DM, and
    the click's handle."""
    game = await table.bot.service.get(gid)
    a = game.state.active
    user = table.user_of(game, a)
    dm = _dm(table.fake, user, f"bzd:{gid}:{game.row.version}:offer")
    opened = await table.fake.click(user, dm, f"bzd:{gid}:{game.row.version}:offer")
    assert opened.callback_type == 9 and opened.modal is not None, opened
    latency = opened.ack_latency
    assert latency is not None and latency < 3.0
    return a, user, opened.modal, opened


async def test_an_offer_the_engine_refuses_is_answered_with_its_reason(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = await _kathai(fake, run_bot, tmp_path)
    gid, _ = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    a, _, modal, opened = await _open(table, gid)
    fields = {c["component"]["custom_id"]: c for c in modal["components"]}
    assert fields["to"]["label"] == "To whom" and fields["count"]["label"] == "How many cards you ask"
    names = {o["label"] for o in fields["to"]["component"]["options"]}
    assert names == {"Everyone"} | {game.seats[s].name for s in range(3) if s != a}  # names, not codes
    assert fields["give"]["component"]["min_values"] == 0  # a pure ask gives nothing
    legal = set(game.engine.legal_actions(game.state, a))
    hand = [o["value"] for o in fields["give"]["component"]["options"]]
    wants = [o["value"] for o in fields["want"]["component"]["options"]]
    # an offer of every card for the most cards of a goods: the rules refuse some such offer
    bad = next(
        (w, k)
        for w in wants
        for k in ("7", "6", "5")
        if f"offer all {' '.join(sorted(hand, key=lambda c: int(c[1:])))} {w} {k}" not in legal
    )
    before = await table.db_state(gid)
    sent = await fake.submit_modal(opened, {"to": ["all"], "give": hand, "want": [bad[0]], "count": [bad[1]]})
    await table.settle()
    text = f"offer all {' '.join(hand)} {bad[0]} {bad[1]}"
    reason = game.engine.is_legal(game.state, a, text)
    assert reason is not None and sent.ephemeral
    assert game.fmt(reason)[:40] in sent.messages[-1].content, (reason, sent.messages[-1].content)
    assert await table.db_state(gid) == before


async def test_a_dialog_sent_after_the_game_moved_on_is_refused(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = await _kathai(fake, run_bot, tmp_path)
    gid, place = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    a, user, modal, opened = await _open(table, gid)
    h = await fake.slash(user, place, "move", action="pass")
    await table.settle()
    assert h.content.startswith("✅ Played"), h.content
    after = await table.db_state(gid)
    hand = [o["value"] for o in modal["components"][1]["component"]["options"]]
    answers = {"to": ["all"], "give": hand[:1], "want": ["for any"], "count": ["1"]}
    sent = await fake.submit_modal(opened, answers)
    await table.settle()
    assert "out of date" in sent.messages[-1].content and await table.db_state(gid) == after


async def test_a_first_offer_from_the_dialog_is_confirmed_then_played(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = await _kathai(fake, run_bot, tmp_path, confirm_on=True)
    gid, _ = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    a, user, _, opened = await _open(table, gid)
    v = game.row.version
    offer = next(
        x
        for x in game.engine.legal_actions(game.state, a)
        if x.startswith("offer all ") and x.endswith(" for any 1") and len(x.split()) == 6
    )
    before = await table.db_state(gid)
    answers = {"to": ["all"], "give": [offer.split()[2]], "want": ["for any"], "count": ["1"]}
    sent = await fake.submit_modal(opened, answers)
    await table.settle()
    question = sent.messages[-1]
    assert "commits your turn" in question.content and f"Play `{offer}`?" in question.content
    assert await table.db_state(gid) == before
    ok = await fake.click(user, question, confirm.confirm_id(gid, v, offer))  # in the DM
    await table.settle()
    assert ok.callback_type == 6 and fake.message(question.id).content.startswith(f"✅ Played `{offer}`")
    assert (await table.db_moves(gid))[before[2]] == (a, offer, "player")


async def test_a_dialog_sent_after_a_restart_of_the_bot_is_played(
    fake_discord: FakeDiscord, run_bot: RunBot, tmp_path: Path
) -> None:
    fake = fake_discord
    table = await _kathai(fake, run_bot, tmp_path)
    gid, _ = await table.start_game("ann", ("bob", "cy"), 0, game="kathai")
    game = await table.bot.service.get(gid)
    a, _, modal, opened = await _open(table, gid)
    offer = next(
        x
        for x in game.engine.legal_actions(game.state, a)
        if x.startswith("offer all ") and x.endswith(" for any 1") and len(x.split()) == 6
    )
    n = len(await table.db_moves(gid))
    await table.running.stop()
    await table.boot()
    answers = {"to": ["all"], "give": [offer.split()[2]], "want": ["for any"], "count": ["1"]}
    sent = await fake.submit_modal(opened, answers)
    await table.settle()
    assert sent.messages[-1].content.startswith(f"✅ Played `{offer}`"), sent.messages[-1].content
    assert (await table.db_moves(gid))[n] == (a, offer, "player") and modal["title"] == "Make an offer"
