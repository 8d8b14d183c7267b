"""A league table over many games: per player, games, wins, average rank,
average share of the total net worth, and best game.

Only finished games count (a record that stops before the end has no
result); the others are listed as not counted, with the reason.  Players are
matched by name.  Columns are documented in docs/history.md ("League").
"""

from __future__ import annotations

import csv
import io
import json
from dataclasses import dataclass, field
from typing import Optional
from ..findings import plural


@dataclass
class Game:
    """One game's result, as the league needs it."""

    path: str
    title: str
    date: str
    standings: list           # [{player, net_worth, rank}], best first
    errors: int = 0
    end_reason: Optional[str] = None

    @property
    def total(self) -> int:
        return sum(r["net_worth"] for r in self.standings)

    @property
    def winners(self) -> list[str]:
        return [r["player"] for r in self.standings if r["rank"] == 1]


@dataclass
class Entry:
    player: str
    games: int = 0
    wins: int = 0
    ranks: list = field(default_factory=list)
    shares: list = field(default_factory=list)     # per mille of the game's total
    best: Optional[tuple] = None                   # (share per mille, net worth, path)
    illegal: int = 0                               # games counted that have illegal actions

    @property
    def average_rank(self) -> float:
        return round(sum(self.ranks) / len(self.ranks), 2) if self.ranks else 0.0

    @property
    def average_share(self) -> float:
        """Percent, one decimal."""
        return round(sum(self.shares) / len(self.shares) / 10, 1) if self.shares else 0.0

    def to_dict(self) -> dict:
        return {"player": self.player, "games": self.games, "wins": self.wins,
                "average_rank": self.average_rank, "average_share": self.average_share,
                "best_game": self.best[2] if self.best else None,
                "best_share": round(self.best[0] / 10, 1) if self.best else None,
                "best_net_worth": self.best[1] if self.best else None,
                "games_with_illegal_actions": self.illegal}


@dataclass
class League:
    games: list = field(default_factory=list)             # Game
    not_counted: list = field(default_factory=list)       # (path, reason)

    def table(self) -> list[Entry]:
        entries: dict[str, Entry] = {}
        for game in self.games:
            total = game.total
            for row in game.standings:
                e = entries.setdefault(row["player"], Entry(row["player"]))
                e.games += 1
                e.wins += row["rank"] == 1
                e.ranks.append(row["rank"])
                e.illegal += bool(game.errors)
                # per mille, rounded half up (integers until the output)
                share = (row["net_worth"] * 2000 + total) // (2 * total) if total > 0 else 0
                e.shares.append(share)
                if e.best is None or (share, row["net_worth"]) > e.best[:2]:
                    e.best = (share, row["net_worth"], game.path)
        return sorted(entries.values(),
                      key=lambda e: (-e.wins, e.average_rank, -e.average_share, e.player))


def game_date(path: str, text: Optional[str] = None) -> str:
    """When the game was played, if the file says: the notation's ``date:``
    tag, or an 18xx.games export's ``created_at``; else ''."""
    from ..findings import InputError
    from ..loader import is_export, read_text

    try:
        if text is None:
            text = read_text(path)
        if is_export(path, text):
            data = json.loads(text)
            return _day(data.get("created_at")) if isinstance(data, dict) else ""
        from ..notation import parse_header
        tags, _ = parse_header(text, path)
        return tags.get("date", "")
    except (InputError, ValueError):
        return ""


def _day(value) -> str:
    """An export's creation time as YYYY-MM-DD (it is a date string or a Unix time)."""
    if isinstance(value, bool) or value in (None, ""):
        return ""
    if isinstance(value, (int, float)) or (isinstance(value, str) and value.isdigit()):
        from datetime import datetime, timezone
        try:
            return datetime.fromtimestamp(int(value), timezone.utc).strftime("%Y-%m-%d")
        except (OverflowError, OSError, ValueError):
            return ""
    return str(value)[:10]


def game_of(rep) -> tuple[Optional[Game], str]:
    """A FileReport as a league game, or (None, why it does not count)."""
    if rep.error is not None:
        return None, str(rep.error.bare if hasattr(rep.error, "bare") else rep.error)
    res = rep.result
    if not res.finished:
        return None, f"the game did not finish (the record stops in {res.round})"
    if not res.standings:
        # a title whose numbers may be unknown (1890): its info findings say which
        why = next((f.message for f in res.findings if f.rule == "components.unknown"
                    and f.message.startswith("the net worths")), "")
        return None, "the net worths are not known" + (f" ({why})" if why else "")
    return Game(path=rep.path, title=res.title, date=game_date(rep.path),
                standings=[{"player": r["player"], "net_worth": r["net_worth"],
                            "rank": r["rank"]} for r in res.standings],
                errors=len({(f.line, f.column, f.action_id) for f in res.errors}),
                end_reason=res.end_reason), ""


def build(reports) -> League:
    league = League()
    for rep in reports:
        game, why = game_of(rep)
        if game is None:
            league.not_counted.append((rep.path, why))
        else:
            league.games.append(game)
    return league


COLUMNS = ["rank", "player", "games", "wins", "average_rank", "average_share",
           "best_game", "best_share", "best_net_worth", "games_with_illegal_actions"]
PLAY_COLUMNS = ["game", "title", "date", "player", "score", "rank", "won", "players",
                "illegal_actions"]


def render_csv(league: League) -> str:
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(COLUMNS)
    for i, e in enumerate(league.table(), 1):
        d = e.to_dict()
        w.writerow([i] + [d[c] if d[c] is not None else "" for c in COLUMNS[1:]])
    return out.getvalue()


def render_plays_csv(league: League) -> str:
    """One row per player per game (the shape score-keeping apps import)."""
    out = io.StringIO()
    w = csv.writer(out, lineterminator="\n")
    w.writerow(PLAY_COLUMNS)
    for g in league.games:
        for r in g.standings:
            w.writerow([g.path, g.title, g.date, r["player"], r["net_worth"], r["rank"],
                        int(r["rank"] == 1), len(g.standings), g.errors])
    return out.getvalue()


def to_json(league: League) -> dict:
    return {"table": [dict(rank=i, **e.to_dict()) for i, e in enumerate(league.table(), 1)],
            "games": [{"path": g.path, "title": g.title, "winners": g.winners,
                       "errors": g.errors, "end_reason": g.end_reason,
                       "standings": g.standings} for g in league.games],
            "not_counted": [{"path": p, "reason": why} for p, why in league.not_counted]}


def render_json(league: League) -> str:
    return json.dumps(to_json(league), indent=2) + "\n"


def render_text(league: League) -> str:
    from tabulate import tabulate

    rows = []
    for i, e in enumerate(league.table(), 1):
        d = e.to_dict()
        best = f"{d['best_game']} ({d['best_share']}%)" if d["best_game"] else ""
        rows.append([i, e.player, e.games, e.wins, f"{d['average_rank']:.2f}",
                     f"{d['average_share']:.1f}%", best])
    out = [f"League: {plural(len(league.games), 'game')} counted", "",
           tabulate(rows, headers=["#", "player", "games", "wins", "avg rank", "avg share",
                                   "best game"], disable_numparse=True)]
    for g in league.games:
        if g.errors:
            out.append(f"counted with illegal actions: {g.path}: "
                       f"{plural(g.errors, 'illegal action')} "
                       f"(its scores are those of the replay; 'railcheck validate {g.path}' "
                       f"lists them)")
    for path, why in league.not_counted:
        out.append(f"not counted: {path}: {why}")
    return "\n".join(out) + "\n"
