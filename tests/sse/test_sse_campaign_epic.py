"""Campaign Mode (several games, win piles, campaign winner at 5/4/3 wins) and Epic mode
(the nebula table is not in our copy of the book: configurable, asked for when missing)."""
from __future__ import annotations

import pytest

from companion.core.errors import MissingEntry, RecordError
from companion.sse import SseGame
from companion.sse.campaign import Campaign, CampaignError

from ssekit import colonise, grid, move


def tiny(left: str, right: str) -> dict:
    """H1 <left> . <right> H2: each player has one system to take, then nobody can move."""
    return grid(f"H1 {left} . {right} H2").to_dict()


def play_tiny(setup: dict) -> dict:
    g = SseGame(setup)
    move(g, "Ann", (1, 0))
    move(g, "Bob", (3, 0))
    assert g.state.finished
    return g.to_record()


def test_campaign_pieces_follow_the_book_per_player_count():
    for players, (cities, ts) in {2: (14, 4), 3: (12, 3), 4: (10, 2)}.items():
        names = ["Ann", "Bob", "Cy", "Di"][:players]
        g = SseGame({"players": names, "map": f"basic-{players}p", "pieces": {"ships": 2},
                     "campaign": {"wins": {}, "game": 1}})
        assert all((ps.cities, ps.trade_stations) == (cities, ts) for ps in g.state.players.values())
        assert Campaign(names).target == {2: 5, 3: 4, 4: 3}[players]


def test_a_campaign_of_several_games():
    c = Campaign(["Ann", "Bob"])
    # one ship on a tiny map: a custom setup (the book's ships are 2-4)
    base = {"players": ["Ann", "Bob"], "pieces": {"ships": 1}, "options": {"pieces": "custom"}}
    # Ann wins games 1, 2, 4, 5, 6; Bob wins game 3
    plan = ["Ann", "Ann", "Bob", "Ann", "Ann", "Ann"]
    for k, winner in enumerate(plan, 1):
        left, right = ("P3", "P1") if winner == "Ann" else ("P1", "P3")
        setup = c.next_setup({**base, "map": tiny(left, right)})
        assert setup["campaign"]["game"] == k
        g = SseGame(setup)
        wins = c.wins()
        # every win put a City on the pile: the next game starts with one City less
        assert g.state.players["Ann"].cities == 14 - wins["Ann"]
        assert g.state.players["Bob"].cities == 14 - wins["Bob"]
        game = c.add(play_tiny(setup))
        assert game.score().winners == [winner]
    assert c.wins() == {"Ann": 5, "Bob": 1}
    assert c.over and c.winners == ["Ann"]
    assert "Ann won the campaign (5 wins) after 6 games" in c.explanation()
    t = c.table()
    assert list(t["Ann wins"]) == [1, 2, 2, 3, 4, 5] and list(t.winners) == plan
    with pytest.raises(CampaignError, match="over"):
        c.next_setup({**base, "map": tiny("P1", "P1")})
    # the campaign file round-trips
    again = Campaign.from_dict(c.to_dict())
    assert again.wins() == c.wins() and again.winners == ["Ann"]


def test_a_shared_victory_puts_a_city_on_each_pile():
    c = Campaign(["Ann", "Bob"])
    setup = c.next_setup({"players": ["Ann", "Bob"], "pieces": {"ships": 1},
                          "options": {"pieces": "custom"}, "map": tiny("P2", "P2")})
    c.add(play_tiny(setup))
    assert c.wins() == {"Ann": 1, "Bob": 1}


def test_campaign_refuses_games_that_do_not_continue_it():
    c = Campaign(["Ann", "Bob"])
    base = {"players": ["Ann", "Bob"], "pieces": {"ships": 1}, "options": {"pieces": "custom"},
            "map": tiny("P3", "P1")}
    c.add(play_tiny(c.next_setup(base)))
    wrong = dict(base, campaign={"wins": {"Ann": 0, "Bob": 0}, "game": 2})
    with pytest.raises(CampaignError, match="win piles"):
        c.add(play_tiny(wrong))
    with pytest.raises(CampaignError, match="Campaign Mode"):
        c.add(play_tiny(base))
    unfinished = SseGame(c.next_setup(base)).to_record()
    with pytest.raises(CampaignError, match="not finished"):
        c.add(unfinished)
    with pytest.raises(CampaignError, match="same players"):
        c.next_setup({**base, "players": ["Bob", "Ann"]})
    with pytest.raises(RecordError, match="already won"):
        SseGame({**base, "campaign": {"wins": {"Ann": 5}, "game": 9}})


# ---------------------------------------------------------------------------- epic
EPIC_MAP = """
H1 Nr Nr Nr Nr Nr
E  E  E  E  E  E
E  E  E  E  E  H2
"""


def epic(**kw):
    return SseGame({"players": ["Ann", "Bob"], "map": grid(EPIC_MAP).to_dict(), "mode": "epic",
                    "pieces": {"ships": 1, "cities": 32, "trade_stations": 8}, **kw})


def test_epic_needs_its_pieces_and_its_table_is_typed_not_invented():
    with pytest.raises(RecordError, match="epic mode"):
        SseGame({"players": ["Ann", "Bob"], "map": grid(EPIC_MAP).to_dict(), "mode": "epic",
                 "pieces": {"ships": 1}})
    with pytest.raises(RecordError, match="6 whole numbers"):
        epic(nebula_table=[1, 2, 3])
    g = epic()
    assert g.to_record()["setup"]["nebula_table"] is None
    move(g, "Ann", (1, 0))
    # projected scores count the nebulae 0 and say why; the final scoring asks
    s = g.score(project=True)
    assert "not typed yet" in " ".join(s.lines.rule)
    while not g.state.finished:
        p = g.current
        m = g.legal_moves(p, 0)[0]
        move(g, p, m.to, piece=m.pieces[0])
    with pytest.raises(MissingEntry, match="epic nebula table"):
        g.score()
    # the players type it (stored in the record's manual list) and the game scores
    g.manual = [{"source": "nebula_table", "values": [1, 3, 6, 10, 15, 21]}]
    assert g.score().final
    again = SseGame.from_record(g.to_record())
    assert again.score().to_json() == g.score().to_json()


def test_epic_table_scores_up_to_six_and_caps_a_chromatic_set_at_six():
    table = [1, 3, 6, 10, 15, 21]        # test values typed by the players, not the book's
    g = epic(nebula_table=table)
    for q in range(1, 6):
        colonise(g, (q, 0), "Ann")
    assert g.score(project=True).table.set_index("player").loc["Ann"].nebulae == 15
    from companion.sse.game import Colony
    g.state.colonies[(0, 1)] = Colony("Ann", "city", -1, 0, "chromatic", "chromatic_nebula")
    assert g.score(project=True).table.set_index("player").loc["Ann"].nebulae == 21
    g.state.colonies[(1, 1)] = Colony("Ann", "city", -1, 0, "chromatic", "chromatic_nebula")
    # red is full at 6: the second wild nebula starts another colour
    assert g.score(project=True).table.set_index("player").loc["Ann"].nebulae == 21 + 1


def test_base_game_table_is_fixed():
    with pytest.raises(RecordError, match="only for epic"):
        SseGame({"players": ["Ann", "Bob"], "map": "basic-2p", "pieces": {"ships": 2},
                 "nebula_table": [1, 1, 1, 1, 1, 1]})
