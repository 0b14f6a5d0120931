"""The GameSession both game screens share (issue 13): the store, the game replayed from
it, push/undo/reload/sync, and a page that had not seen another page's change — for both
games, through real records and real rules, without a browser.

Two sessions on one saved-games file are two pages at the table.
"""
from __future__ import annotations

import pytest

from companion.ats.game import Game
from companion.core.errors import CompanionError, IllegalAction
from companion.table.store import StoreBusy
from companion.sse import SseGame
from companion.ui.session import GameSession, PageBehind

PLAYERS = ["Ana", "Ben", "Cleo"]


def words(a: dict) -> str:
    return f"{a.get('player')} {a['do']} {a.get('card', '')}".strip()


@pytest.fixture
def ats_pages(store):
    gid = store.create(Game({"players": PLAYERS}).to_record(), title="AtS")
    one, two = GameSession(store, words=words), GameSession(store, words=words)
    one.open(gid)
    two.open(gid)
    return gid, one, two


def discard(player: str, card: str = "Garden") -> dict:
    return {"do": "discard", "player": player, "card": card}


def stored_actions(store, gid) -> list:
    return store.load(gid)["actions"]


def test_a_push_is_stored_and_the_other_page_sees_it_on_sync(store, ats_pages):
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    assert [a["player"] for a in stored_actions(store, gid)] == ["Ana"]
    assert two.behind() and not one.behind()
    change = two.sync()
    assert [a["player"] for a in change.added] == ["Ana"] and not change.undone
    assert two.game.state.players["Ana"].credits == one.game.state.players["Ana"].credits
    assert not two.behind() and not two.sync()           # nothing new: an empty change


def test_a_page_behind_records_nothing_and_says_what_the_other_page_did(store, ats_pages):
    # the same player's action entered on another page meanwhile (two devices): refused
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    with pytest.raises(PageBehind) as e:
        two.push(discard("Ana", "U-Cannon"))
    assert "Not recorded: this game was changed on another page or tab" in str(e.value)
    assert "added: Ana discard Garden" in str(e.value)
    # nothing was recorded twice, and the page now shows the stored game
    assert [a["card"] for a in stored_actions(store, gid)] == ["Garden"]
    assert [a["player"] for a in two.game.actions] == ["Ana"]
    two.push(discard("Ben"))                               # the next entry: accepted
    assert [a["player"] for a in stored_actions(store, gid)] == ["Ana", "Ben"]


def test_another_players_action_on_a_page_behind_is_recorded_after_the_replay(store, ats_pages):
    """Issue 39 (two seats a second apart, found by the 4-seat laying browser test): the
    book's turn is simultaneous ("each player ... selects one card"), so Ben's action
    entered on a page that had not seen Ana's is recorded once the store is replayed, if it
    is still legal; the page then shows both."""
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    norm = two.push(discard("Ben"))
    assert norm["player"] == "Ben"
    assert [a["player"] for a in stored_actions(store, gid)] == ["Ana", "Ben"]
    assert [a["player"] for a in two.game.actions] == ["Ana", "Ben"] and not two.behind()
    assert two.rev == store.revision(gid)


def test_a_page_behind_an_undo_records_nothing(store, ats_pages):
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    two.sync()
    one.undo()                                             # undone on the other page
    with pytest.raises(PageBehind, match="undone: Ana discard Garden"):
        two.push(discard("Ben"))
    assert stored_actions(store, gid) == []


def test_an_undo_on_one_page_is_an_undone_change_on_the_other(store, ats_pages):
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    two.sync()
    assert one.undo()["player"] == "Ana"
    assert stored_actions(store, gid) == []
    change = two.sync()
    assert [a["player"] for a in change.undone] == ["Ana"] and not change.added
    assert two.game.actions == []


def test_an_undo_on_a_page_behind_undoes_nothing(store, ats_pages):
    gid, one, two = ats_pages
    one.push(discard("Ana"))
    two.sync()
    one.undo()
    one.push(discard("Ana", "U-Cannon"))          # same length, a different entry
    with pytest.raises(PageBehind) as e:
        two.undo()
    assert "undone: Ana discard Garden" in str(e.value)
    assert "added: Ana discard U-Cannon" in str(e.value)
    assert [a["card"] for a in stored_actions(store, gid)] == ["U-Cannon"]


def test_an_illegal_action_changes_neither_the_game_nor_the_store(store, ats_pages):
    gid, one, _ = ats_pages
    rev = one.rev
    with pytest.raises(IllegalAction) as e:
        one.push({"do": "build", "player": "Ana", "card": "Garden", "at": [5, 5]})
    assert e.value.rule                                   # it names the rule
    assert one.game.actions == [] and stored_actions(store, gid) == [] and one.rev == rev


def test_a_busy_file_keeps_the_game_as_it_was(store, ats_pages, monkeypatch):
    gid, one, _ = ats_pages

    def busy(*a, **k):
        raise StoreBusy("the saved-games file is busy")
    monkeypatch.setattr(store, "append", busy)
    with pytest.raises(CompanionError, match="your entry is kept, press again"):
        one.push(discard("Ana"))
    assert one.game.actions == []
    monkeypatch.undo()
    one.push(discard("Ana"))
    assert len(stored_actions(store, gid)) == 1


def test_nothing_to_undo_is_a_message(ats_pages):
    _, one, _ = ats_pages
    with pytest.raises(CompanionError, match="nothing to undo"):
        one.undo()


def test_typed_card_values_and_play_details_are_a_change_too(store, ats_pages):
    gid, one, two = ats_pages
    store.set_manual(gid, [{"source": "Garden", "player": "Ana", "vp": 1}])
    change = two.sync()
    assert change and change.other and not change.added


def test_a_deleted_game_is_said_not_hidden(store, ats_pages):
    gid, one, _ = ats_pages
    store.delete(gid)
    with pytest.raises(CompanionError):
        one.push(discard("Ana"))
    assert store.games() == []


def test_small_star_empires_pages_share_the_same_session(store):
    rec = SseGame({"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2}}).to_record()
    gid = store.create(rec, title="SSE")
    one, two = GameSession(store), GameSession(store)
    g1, g2 = one.open(gid), two.open(gid)
    assert isinstance(g1, SseGame) and isinstance(g2, SseGame)
    player = g1.current
    # a known system next to the homeworld: colonised with a City, no tile to draw
    move = next(m for m in g1.legal_moves(player, 0)
                if "city" in m.pieces and not g1.state.unexplored(m.to))
    action = {"player": player, "ship": 0, "to": list(move.to), "piece": "city"}
    one.push(action)
    with pytest.raises(PageBehind) as e:
        two.push(action)
    assert f"added: {player} moved ship 0" in str(e.value)
    assert len(store.load(gid)["actions"]) == 1 and len(two.game.actions) == 1
    one.undo()
    assert two.sync().undone and two.game.actions == []
