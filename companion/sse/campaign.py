"""Campaign Mode (S Variants, Campaign Mode): several games in a row with fewer pieces.

Each game is an ordinary ``small-star-empires/1`` record whose ``setup.campaign`` holds the
win pile before that game (``{"wins": {player: n}, "game": k}``).  Every winner of a game
puts one City from the reserve on the win pile, so starts the next game with one City
less; the first player whose pile reaches 5 (2 players), 4 (3 players) or 3 (4 players)
wins the campaign.  Ruling: in a shared victory every tied winner adds a City.

A campaign file::

    {"format": "small-star-empires-campaign/1", "players": [...], "games": [record, ...]}
"""
from __future__ import annotations

import copy
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:        # imported where a table is made, not when the module is:
    import pandas as pd  # a page's kernel and every command start ~0.3 s sooner

from ..core.errors import CompanionError, RecordError
from .game import CAMPAIGN_PIECES, CAMPAIGN_TARGET, FORMAT, SseGame

CAMPAIGN_FORMAT = "small-star-empires-campaign/1"


class CampaignError(CompanionError):
    """A game does not continue the campaign correctly."""


class Campaign:
    def __init__(self, players: list[str], games: Sequence[dict[str, Any]] = ()):
        if len(players) not in CAMPAIGN_PIECES:
            raise CampaignError("Campaign Mode is for 2 to 4 players")
        self.players = list(players)
        self.games: list[dict[str, Any]] = []
        self._results: list[SseGame] = []
        for rec in games:
            self.add(rec)

    @property
    def target(self) -> int:
        return CAMPAIGN_TARGET[len(self.players)]

    @property
    def pieces(self) -> tuple[int, int]:
        """Cities and Trade Stations per player before any win (the book's table)."""
        return CAMPAIGN_PIECES[len(self.players)]

    def wins(self, upto: int | None = None) -> dict[str, int]:
        """The win piles after the first ``upto`` games (all by default)."""
        w = {p: 0 for p in self.players}
        for g in self._results[:upto]:
            for p in g.score().winners:
                w[p] += 1
        return w

    @property
    def winners(self) -> list[str]:
        """The campaign's winners (empty while nobody has reached the target)."""
        w = self.wins()
        return [p for p in self.players if w[p] >= self.target]

    @property
    def over(self) -> bool:
        return bool(self.winners)

    def next_setup(self, base: dict[str, Any]) -> dict[str, Any]:
        """The setup of the next game: ``base`` (players, map, pieces.ships, variants...)
        with the campaign's win piles.  Cities and Trade Stations come from the book's
        campaign table unless ``base['pieces']`` gives them."""
        if self.over:
            raise CampaignError(f"the campaign is over: {', '.join(self.winners)} won it")
        setup = copy.deepcopy(base)
        if setup.get("players") != self.players:
            raise CampaignError("a campaign is played by the same players in the same order")
        setup["campaign"] = {"wins": self.wins(), "game": len(self.games) + 1}
        return setup

    def add(self, record: dict[str, Any]) -> SseGame:
        """Add a finished game; it must start from the campaign's current win piles."""
        if self.over:
            raise CampaignError(f"the campaign is over: {', '.join(self.winners)} won it")
        game = SseGame.from_record(record)
        setup = game.setup
        if setup.players != self.players:
            raise CampaignError("a campaign is played by the same players in the same order")
        if setup.campaign is None:
            raise CampaignError("that game was not played in Campaign Mode (setup.campaign)")
        want = {"wins": self.wins(), "game": len(self.games) + 1}
        if setup.campaign != want:
            raise CampaignError(f"game {len(self.games) + 1} must start from the win piles "
                                f"{want['wins']} (it says {setup.campaign})")
        if not game.state.finished:
            raise CampaignError(f"game {len(self.games) + 1} is not finished")
        self.games.append(copy.deepcopy(record))
        self._results.append(game)
        return game

    def table(self) -> pd.DataFrame:
        import pandas as pd
        rows = []
        for i, g in enumerate(self._results, 1):
            s = g.score()
            after = self.wins(i)
            rows.append({"game": i, "winners": ", ".join(s.winners), "decided_by": s.decided_by,
                         **{f"{p} VP": s.totals()[p] for p in self.players},
                         **{f"{p} wins": after[p] for p in self.players}})
        return pd.DataFrame(rows)

    def explanation(self) -> str:
        w = self.wins()
        piles = ", ".join(f"{p} {w[p]}" for p in self.players)
        if self.over:
            return (f"{' and '.join(self.winners)} won the campaign ({self.target} wins) after "
                    f"{len(self.games)} games. Win piles: {piles}.")
        return f"After {len(self.games)} game(s), first to {self.target} wins. Win piles: {piles}."

    # -- file -------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {"format": CAMPAIGN_FORMAT, "players": list(self.players),
                "games": copy.deepcopy(self.games)}

    @classmethod
    def from_dict(cls, d: Any) -> "Campaign":
        if not isinstance(d, dict) or d.get("format") != CAMPAIGN_FORMAT:
            raise RecordError(f"a campaign file has format {CAMPAIGN_FORMAT!r}")
        if set(d) - {"format", "players", "games", "meta"}:
            raise RecordError("campaign: unknown key")
        games = d.get("games") or []
        if not isinstance(games, list) or not all(isinstance(g, dict) and g.get("format") == FORMAT
                                                  for g in games):
            raise RecordError(f"campaign.games: a list of {FORMAT} records")
        return cls(d.get("players") or [], games)
