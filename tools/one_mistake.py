"""One mistake, one finding, on every title: change one action of an
18xx.games export and count what railcheck's JSON report says.

For 1830, 1860 and 18Ireland, every export of a corpus (the real games of
``tests/data/exports`` and ``/work/shared/corpus/18xx.games``, the random
games of ``/work/shared/corpus/random`` and ``tests/data/exports/*_random``:
the *shared* set; and the random games generated after this harness was
written, ``/work/gen/A/<title>`` newer than :data:`FRESH_AFTER` and
``/work/gen/mistake/<title>``: the *fresh* set) is replayed unchanged once,
then changed at one action at a time, by kinds (below), and each changed
game is replayed as ``railcheck validate --format json`` replays it (the
import's findings and the replay's, the hints on).

What is counted: the **error findings** of the report, folded or not, less
those the unchanged game has too (same action, same rule: a rule-backed
finding of the unchanged game is no consequence of the change); findings on
one line (one action) count as one.  A changed game **meets the goal** when
it has 1 or 2 such errors, the first at the changed action (for a deletion:
at a later action).  When the engine accepts the changed action itself and
refuses a later one (a par at another par value, a dividend of another kind:
legal at their line, wrong only by what follows), the first error may also
be at the action the engine refuses; never before the changed action.

The 18xx.games engine is the judge of what is a mistake (``--oracle``:
``tools/oracle_verdict.rb`` replays each changed export; verdicts are kept
in a cache keyed by the changed export's hash).  A change the engine accepts
to the end is **legal**: not a mistake, counted apart (railcheck should then
say nothing; an error there is a false accusation, counted too).  Two kinds
change what the engine does not check (a route's claimed revenue: the site
computes it; a depot train's price: the site charges what the action says),
so the published rules judge them (``RULE_KINDS``).  A deleted pass is
legal whatever the engine says: no rule makes a player or a company write
one, and the engine refuses the next line only because its interface waits
for the pass (:func:`unwritten`).  For the same reason, a deleted line the
engine refuses the next line after only because its interface waits for that
step (a second lay, a station, an issue: the entity's to take or leave) is
asked again with a pass of its entity in its place, and that verdict judges
it (:func:`passed_over`).  A change with no verdict (the cache lacks
it and ``--oracle`` was not asked) is taken as a mistake.  The engine skips
some checks of play when it *loads* an export (a lay's rotation and
connection, the track restrictions, a station's reach: ``PLAY_RULES``), so
a change breaking only those is "accepted" although the table refuses it:
the table's legal column says how many of its flagged changes are such.

Usage: python tools/one_mistake.py [--titles 1830,1860,18Ireland]
       [--set shared|fresh|all] [--per-kind N] [--kinds a,b] [--games a,b]
       [--oracle] [--jobs N] [--json FILE] [--worst N] [--causes]
       [--code DIR]    (measure another checkout's railcheck, e.g. main)
"""

from __future__ import annotations

import argparse
import calendar
import copy
import gzip
import hashlib
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from pathlib import Path

from difftest import stem as _stem  # a game's name: its file's, with no .json(.gz)

ROOT = Path(__file__).resolve().parent.parent
SHARED = Path("/work/shared/corpus")
GEN = Path("/work/gen")
ORACLE_DIR = Path(os.path.expanduser("~/.cache/t18"))
ORACLE_CACHE = GEN / "mistake" / "oracle.jsonl"
TITLES = ("1830", "1860", "18Ireland")

#: the reference engine's module of each title the harness changes games of
#: (the engine loads only the titles it is told: a title left out here
#: is refused at its first action, every change then read as a mistake)
ORACLE_GAMES = {"1830": "g_1830", "1860": "g_1860", "18Ireland": "g_18_ireland",
                "1889": "g_1889"}

#: games of /work/gen/A generated after this moment (UTC, the harness's
#: commit) are the fresh set; /work/gen/mistake/ is generated after it too
FRESH_AFTER = "2026-11-27T11:48:00"

#: kinds whose changed field the 18xx.games engine does not check: the
#: published rules say they are mistakes (a route's revenue is computed by
#: the site whatever the action claims; a depot train is charged at the
#: action's price)
RULE_KINDS = {"wrong_revenue", "wrong_train_price", "receivership_run"}


def _setup_path(code: str | None):
    where = Path(code).resolve() if code else ROOT
    sys.path.insert(0, str(where))


# ---------------------------------------------------------------------------
# the corpus

def read_export(path: Path) -> dict:
    raw = path.read_bytes()
    if path.name.endswith(".gz"):
        raw = gzip.decompress(raw)
    return json.loads(raw)


def corpus(title: str, which: str) -> list[tuple[str, Path]]:
    """(set, path) of the exports of ``title`` in the shared and/or fresh
    set, each game once (the same export in two folders: the first)."""
    out, seen = [], set()

    def add(kind, paths):
        for p in sorted(paths):
            if p.name.endswith(".trace.json.gz") or p.name.endswith(".trace.json"):
                continue
            digest = hashlib.sha1(p.read_bytes()).hexdigest()
            key = _stem(p)
            if digest in seen or key in seen:
                continue
            seen.update((digest, key))
            out.append((kind, p))

    if which in ("shared", "all"):
        for d in (ROOT / "tests/data/exports" / title, SHARED / "18xx.games" / title,
                  ROOT / "tests/data/exports" / f"{title}_random", SHARED / "random" / title):
            if d.is_dir():
                add("shared", [*d.glob("*.json"), *d.glob("*.json.gz")])
    if which in ("fresh", "all"):
        after = calendar.timegm(time.strptime(FRESH_AFTER, "%Y-%m-%dT%H:%M:%S"))
        d = GEN / "A" / title
        if d.is_dir():
            add("fresh", [p for p in d.glob("*.json") if p.stat().st_mtime > after])
        d = GEN / "mistake" / title
        if d.is_dir():
            add("fresh", list(d.glob("*.json")))
    return out


def new_set(where: Path, title: str) -> list[tuple[str, Path]]:
    """("new", path) of the exports of ``title`` in ``where/<title>`` (or
    ``where`` itself): a batch generated after the last round's work, each
    game in name order."""
    d = where / title if (where / title).is_dir() else where
    out = []
    for p in sorted(d.glob("*.json")):
        if p.name.endswith(".trace.json"):
            continue
        try:
            if read_export(p).get("title") == title:
                out.append(("new", p))
        except ValueError:
            continue
    return out


# ---------------------------------------------------------------------------
# one game, unchanged

def counted_actions(data: dict) -> list:
    """The actions of an export that count (that may be changed), in order:
    those the import keeps, each id once, no undo, redo, message or
    ``program_`` action.  Shared with tools/mutate_exports.py."""
    from railcheck.importer import filter_actions
    ids = {a.get("id") for a in filter_actions(data["actions"])}
    counted, seen = [], set()
    for a in data["actions"]:
        if a.get("id") in ids and a.get("type") not in ("undo", "redo", "message") \
                and a.get("id") not in seen and not str(a.get("type")).startswith("program_"):
            counted.append(a)
            seen.add(a.get("id"))
    return counted


def undo_targets(data: dict) -> set:
    """The ids of the actions an undo of the export names."""
    return {a.get("action_id") for a in data["actions"] if a.get("type") == "undo"}


class Game:
    def __init__(self, path: Path, kind_of_set: str):
        self.path = path
        self.set = kind_of_set
        self.name = _stem(path)
        self.data = read_export(path)
        self.title = self.data["title"]
        self.counted = counted_actions(self.data)
        self.order = {a["id"]: i for i, a in enumerate(self.counted)}
        self.players = [p["id"] for p in self.data["players"]]
        self.corporations = sorted({a["entity"] for a in self.counted
                                    if a.get("entity_type") == "corporation"})
        self.undo_targets = undo_targets(self.data)
        self.before: dict = {}
        self.baseline: set = set()
        self.end: dict = {}

    def observe(self):
        """Replay unchanged: facts before each action (for the kinds), then
        the report's errors (the baseline) as the changed games get them."""
        from railcheck.engine import Replay
        from railcheck.importer import import_export
        record, _ = import_export(json.dumps(self.data), f"{self.name}.json")
        rep = Replay(record)
        rep.before_action = lambda game, action: _note(self, game, action)
        rep.run()
        errors, res = report(self.data, self.name)
        self.baseline = {(f.action_id, f.rule) for f in errors}
        self.end = {s["player"]: s["net_worth"] for s in res.standings} if res else {}


def report(data: dict, name: str):
    """The error findings of ``railcheck validate --format json`` for an
    export (the import's and the replay's), and the replay's result."""
    from railcheck.engine import Replay
    from railcheck.findings import ERROR, InputError
    from railcheck.importer import import_export
    try:
        record, imported = import_export(json.dumps(data), f"{name}.json")
        res = Replay(record, check_board=True).run()
    except InputError as exc:
        return [_Unreadable(str(exc))], None
    findings = list(imported) + list(res.findings)
    return [f for f in findings if f.severity == ERROR], res


class _Unreadable:
    rule = "unreadable"
    action_id = None
    line = None
    consequential = False

    def __init__(self, message):
        self.message = message


def unreachable_hexes(board, corp: str) -> list:
    """The hexes with no tile yet, white and not blocked, that no track of
    ``corp`` reaches (a lay there is not connected)."""
    return sorted(coord for coord, h in board.hexes.items()
                  if not h.laid and h.color == "white" and coord not in board.blocked
                  and not board.connected_edges(corp, coord))


def other_rotations(tile, rotation: int) -> list:
    """The rotations of ``tile`` whose track is not that of ``rotation``."""
    same = set(tile.rotated(rotation))
    return [r for r in range(6) if set(tile.rotated(r)) != same]


def from_depot(game, action) -> bool:
    """The train a purchase names is the depot's."""
    return any(t.id == action.train_id and t.owner == "depot" for t in game.trains)


def _note(g: Game, game, action):
    """What the kinds need to know about the state before ``action``."""
    if action.action_id in g.before:
        return          # an auto action under its parent's id
    from railcheck.actions import BuyTrain, LayTile, PlaceToken, SellShares
    facts = g.before.setdefault(action.action_id, {})
    rnd = game.round
    facts["round"] = getattr(rnd, "kind", "")
    if isinstance(action, SellShares):
        player = game.player_by_name.get(action.actor)
        if player is not None:
            facts["not_owned"] = sorted(
                (sym, [c.name for c in corp.certs if c.owner is not player and not c.president
                       and c.owner is not None])
                for sym, corp in game.corporations.items()
                if corp.percent_of(player) == 0 and corp.ipoed)
    board = game.board
    if isinstance(action, LayTile) and board is not None:
        if action.actor in game.corporations:
            facts["unreachable"] = unreachable_hexes(board, action.actor)
        tile = board.tiles.get(action.tile)
        if tile is not None and action.rotation is not None:
            facts["other_rotations"] = other_rotations(tile, action.rotation)
            facts["same_color"] = sorted(
                n for n, t in board.tiles.items()
                if t.color == tile.color and n != action.tile and board.remaining.get(n) != 0)
    if isinstance(action, PlaceToken) and board is not None:
        facts["token"] = True
        facts["city_tiles"] = sorted(n for n, t in board.tiles.items() if t.cities)
    if isinstance(action, BuyTrain):
        facts["from_depot"] = from_depot(game, action)
    st = getattr(game.title, "state", None)
    if st is not None and action.actor in getattr(st, "receivership", ()):
        facts["receivership"] = True


# ---------------------------------------------------------------------------
# the kinds: (game, action dict, rng) -> (changes, what) or None
#   changes: a dict of fields, "delete", or "duplicate"

def k_wrong_actor(g, a, rng):
    et = a.get("entity_type")
    pool = {"player": [p for p in g.players if p != a["entity"]],
            "corporation": [c for c in g.corporations if c != a["entity"]]}.get(et)
    if not pool:
        return None
    other = rng.choice(pool)
    return {"entity": other}, f"{a['type']} by {other} instead of {a['entity']}"


def k_wrong_par(g, a, rng):
    if a["type"] != "par":
        return None
    old = int(str(a["share_price"]).split(",")[0])
    cells = [c for c in PAR_CELLS[g.title] if c[0] != old]
    if not cells:
        return None
    price, row, col = rng.choice(cells)
    return {"share_price": f"{price},{row},{col}"}, f"par {a['corporation']} {price} instead of {old}"


def k_wrong_train_price(g, a, rng):
    if a["type"] != "buy_train" or a.get("exchange") \
            or not g.before.get(a["id"], {}).get("from_depot"):
        return None
    price = int(a["price"]) + rng.choice([-20, -10, 10, 20])
    return {"price": price}, f"depot train {a['train']} for {price} (was {a['price']})"


def k_wrong_private_price(g, a, rng):
    if a["type"] not in ("buy_company", "sell_company"):
        return None
    face = FACE[g.title].get(a["company"])
    if face is None:
        return None
    if a.get("entity_type") == "corporation":
        price = 2 * face + rng.choice([5, 10, 40])      # over any range
    else:
        price = int(a["price"]) + rng.choice([-10, 10])  # a bank's fixed price
    return {"price": price}, f"{a['company']} (face {face}) at {price} (was {a['price']})"


def _previous_bid(g, a):
    """The price of the last bid on the same thing before ``a`` in its
    auction (the bids and passes just before it)."""
    target = a.get("company") or a.get("corporation")
    i = g.order[a["id"]]
    for b in reversed(g.counted[:i]):
        if b["type"] == "pass":
            continue
        if b["type"] != "bid":
            return None
        if (b.get("company") or b.get("corporation")) == target:
            return int(b["price"])
    return None


def k_wrong_bid(g, a, rng):
    """A bid on a private or a minor under the minimum: the last bid on it
    again, or 5 under it when it is the first."""
    if a["type"] != "bid" or not (a.get("company") or a.get("corporation")):
        return None
    prev = _previous_bid(g, a)
    price = prev if prev is not None else int(a["price"]) - 5
    if price <= 0 or price == a["price"]:
        return None
    return {"price": price}, f"bid {price} on {a.get('company') or a.get('corporation')} " \
                             f"(was {a['price']})"


def k_turn_bid(g, a, rng):
    """1860: a bid for the turn (no company) at the last bid again."""
    if a["type"] != "bid" or a.get("company") or a.get("corporation"):
        return None
    prev = _previous_bid(g, a)
    price = prev if prev is not None else int(a["price"]) - 5
    if price < 0 or price == a["price"]:
        return None
    return {"price": price}, f"bid for the turn {price} (was {a['price']})"


def _copy_index(g, a, name):
    """The next copy of tile ``name`` the export has not used before ``a``."""
    i = g.order[a["id"]]
    used = {str(b["tile"]) for b in g.counted[:i] if b["type"] == "lay_tile"}
    k = 0
    while f"{name}-{k}" in used:
        k += 1
    return f"{name}-{k}"


def k_wrong_tile(g, a, rng):
    if a["type"] != "lay_tile":
        return None
    others = g.before.get(a["id"], {}).get("same_color")
    if not others:
        return None
    name = rng.choice(others)
    tile = _copy_index(g, a, name)
    return {"tile": tile}, f"tile {tile} on {a['hex']} instead of {a['tile']}"


def k_wrong_hex(g, a, rng):
    if a["type"] != "lay_tile" or a.get("entity_type") != "corporation":
        return None
    far = g.before.get(a["id"], {}).get("unreachable")
    if not far:
        return None
    hex_ = rng.choice(far)
    return {"hex": hex_}, f"tile {a['tile']} on {hex_} instead of {a['hex']}"


def k_wrong_rotation(g, a, rng):
    if a["type"] != "lay_tile":
        return None
    others = g.before.get(a["id"], {}).get("other_rotations")
    if not others:
        return None
    r = rng.choice(others)
    return {"rotation": r}, f"tile {a['tile']} on {a['hex']} rotated {r} (was {a['rotation']})"


def k_deleted(g, a, rng):
    if a.get("id") in g.undo_targets:
        return None
    return "delete", f"{a['type']} by {a.get('entity')} deleted"


def k_duplicated(g, a, rng):
    if a.get("id") in g.undo_targets or a["type"] == "pass":
        return None
    return "duplicate", f"{a['type']} by {a.get('entity')} written twice"


def k_wrong_revenue(g, a, rng):
    if a["type"] != "run_routes" or not a.get("routes"):
        return None
    if g.before.get(a["id"], {}).get("receivership"):
        return None     # (receivership_run)
    routes = copy.deepcopy(a["routes"])
    i = rng.randrange(len(routes))
    routes[i]["revenue"] = int(routes[i].get("revenue") or 0) + 10
    return {"routes": routes}, f"route {i + 1} claims {routes[i]['revenue']} (+10)"


def k_sell_not_owned(g, a, rng):
    if a["type"] != "sell_shares" or a.get("entity_type") != "player":
        return None
    choices = [(sym, certs) for sym, certs in g.before.get(a["id"], {}).get("not_owned", [])
               if certs]
    if not choices:
        return None
    sym, certs = rng.choice(choices)
    cert = rng.choice(certs)
    pct = int(a.get("percent") or 10) // max(1, len(a.get("shares") or [1]))
    return {"shares": [cert], "percent": pct}, f"sells {cert} (holds no {sym})"


def k_wrong_token_city(g, a, rng):
    """A station in another city: one a station or a lay before it names."""
    if a["type"] != "place_token" or not g.before.get(a["id"], {}).get("token"):
        return None
    i = g.order[a["id"]]
    with_city = set(g.before[a["id"]].get("city_tiles", ()))
    cities = set()
    for b in g.counted[:i]:
        if b["type"] == "place_token":
            cities.add(str(b["city"]))
        elif b["type"] == "lay_tile" and str(b["tile"]).rsplit("-", 1)[0] in with_city:
            cities.add(f"{b['tile']}-0")
    cities.discard(str(a["city"]))
    if not cities:
        return None
    city = rng.choice(sorted(cities))
    return {"city": city, "slot": 0}, f"station in {city} instead of {a['city']}"


def k_wrong_dividend(g, a, rng):
    if a["type"] != "dividend":
        return None
    kinds = sorted({b["kind"] for b in g.counted if b["type"] == "dividend"} |
                   {"payout", "withhold"})
    others = [k for k in kinds if k != a["kind"]]
    kind = rng.choice(others)
    return {"kind": kind}, f"dividend {kind} instead of {a['kind']}"


# the titles' own actions

def k_home_track(g, a, rng):
    """1860: the home track laid on floating (a lay in the stock round) in
    another rotation, else another tile."""
    if a["type"] != "lay_tile" or g.before.get(a["id"], {}).get("round") != "stock":
        return None
    others = g.before.get(a["id"], {}).get("other_rotations")
    if others:
        r = rng.choice(others)
        return {"rotation": r}, f"home track {a['tile']} on {a['hex']} rotated {r} " \
                                f"(was {a['rotation']})"
    return k_wrong_tile(g, a, rng)


def k_receivership_run(g, a, rng):
    """1860: a run of a corporation in receivership claiming 10 less (it
    must run for the most it can)."""
    if a["type"] != "run_routes" or not a.get("routes") \
            or not g.before.get(a["id"], {}).get("receivership"):
        return None
    routes = copy.deepcopy(a["routes"])
    i = rng.randrange(len(routes))
    if int(routes[i].get("revenue") or 0) < 10:
        return None
    routes[i]["revenue"] = int(routes[i]["revenue"]) - 10
    return {"routes": routes}, f"receivership run: route {i + 1} claims " \
                               f"{routes[i]['revenue']} (-10)"


def k_issue_redeem(g, a, rng):
    """18Ireland: a company's issue (sale of a treasury share) or
    redemption (purchase from the pool) written twice, or deleted."""
    if a["type"] not in ("sell_shares", "buy_shares") or a.get("entity_type") != "corporation":
        return None
    if a.get("id") in g.undo_targets:
        return None
    if rng.random() < 0.5:
        return "duplicate", f"{a['entity']}'s {a['type']} written twice"
    return "delete", f"{a['entity']}'s {a['type']} deleted"


def k_merger_proposal(g, a, rng):
    """18Ireland: a proposal naming another company."""
    if a["type"] != "merge":
        return None
    i = g.order[a["id"]]
    minors = sorted({b.get("corporation") for b in g.counted[:i]
                     if b["type"] in ("merge", "bid") and b.get("corporation")}
                    | {b["entity"] for b in g.counted[:i]
                       if b.get("entity_type") == "corporation"})
    minors = [m for m in minors if m and m != a["corporation"]]
    if not minors:
        return None
    other = rng.choice(minors)
    return {"corporation": other}, f"merger proposal with {other} instead of {a['corporation']}"


def k_merger_vote(g, a, rng):
    """18Ireland: a vote by another player (a wrong voter), or the other way."""
    if a["type"] != "choose" or a.get("choice") not in ("for", "against"):
        return None
    if rng.random() < 0.5:
        got = k_wrong_actor(g, a, rng)
        if got is not None:
            return got
    other = "against" if a["choice"] == "for" else "for"
    return {"choice": other}, f"vote {other} instead of {a['choice']}"


COMMON = ["wrong_actor", "wrong_par", "wrong_train_price", "wrong_private_price", "wrong_bid",
          "wrong_tile", "wrong_hex", "wrong_rotation", "deleted", "duplicated",
          "wrong_revenue", "sell_not_owned", "wrong_token_city", "wrong_dividend"]
KINDS = {
    "wrong_actor": k_wrong_actor, "wrong_par": k_wrong_par,
    "wrong_train_price": k_wrong_train_price, "wrong_private_price": k_wrong_private_price,
    "wrong_bid": k_wrong_bid, "wrong_tile": k_wrong_tile, "wrong_hex": k_wrong_hex,
    "wrong_rotation": k_wrong_rotation, "deleted": k_deleted, "duplicated": k_duplicated,
    "wrong_revenue": k_wrong_revenue, "sell_not_owned": k_sell_not_owned,
    "wrong_token_city": k_wrong_token_city, "wrong_dividend": k_wrong_dividend,
    "turn_bid": k_turn_bid, "home_track": k_home_track,
    "receivership_run": k_receivership_run, "issue_redeem": k_issue_redeem,
    "merger_proposal": k_merger_proposal, "merger_vote": k_merger_vote,
}
TITLE_KINDS = {
    "1830": COMMON,
    "1889": COMMON,
    "1860": COMMON + ["turn_bid", "home_track", "receivership_run"],
    "18Ireland": COMMON + ["issue_redeem", "merger_proposal", "merger_vote"],
}

FACE: dict = {}
PAR_CELLS: dict = {}


def rules_facts(title: str):
    if title in FACE:
        return
    from railcheck.market import Market
    from railcheck.ruleset import load_ruleset
    rules = load_ruleset(title, [])
    FACE[title] = {c.sym: c.value for c in rules.companies}
    market = Market(rules.market_rows, rules.market_zones)
    PAR_CELLS[title] = sorted((c.price, c.row, c.col) for c in market.par_cells)


# ---------------------------------------------------------------------------
# changed games

def changed_export(data: dict, action_id, change) -> dict:
    data = copy.deepcopy(data)
    acts = data["actions"]
    if change == "delete":
        data["actions"] = [a for a in acts if a.get("id") != action_id]
        return data
    if change == "duplicate":
        out = []
        for a in acts:
            if isinstance(a.get("id"), int) and a["id"] > action_id:
                a["id"] += 1
            if a.get("type") == "undo" and isinstance(a.get("action_id"), int) \
                    and a["action_id"] > action_id:
                a["action_id"] += 1
            out.append(a)
            if a.get("id") == action_id:
                twin = copy.deepcopy(a)
                twin["id"] = action_id + 1
                out.append(twin)
        data["actions"] = out
        return data
    for a in acts:
        if a.get("id") == action_id:
            a.update(change)
            return data
    raise KeyError(action_id)


def passed_instead(data: dict, action_id) -> dict:
    """The export with the line ``action_id`` replaced by a pass of its
    entity: a deleted lay, station, purchase or issue read as the step its
    entity passed over (see :func:`passed_over`)."""
    data = copy.deepcopy(data)
    acts = data["actions"]
    for n, a in enumerate(acts):
        if a.get("id") == action_id:
            acts[n] = {k: a[k] for k in ("type", "entity", "entity_type", "id", "created_at")
                       if k in a}
            acts[n]["type"] = "pass"
            return data
    raise KeyError(action_id)


def digest(data: dict) -> str:
    return hashlib.sha1(json.dumps(data, sort_keys=True).encode()).hexdigest()


def sample(g: Game, kinds, per_kind: int, seed: int) -> list[dict]:
    out = []
    for kind in kinds:
        rng = random.Random(f"{seed}:{g.name}:{kind}")
        acts = list(g.counted)
        rng.shuffle(acts)
        n = 0
        for a in acts:
            if n >= per_kind:
                break
            got = KINDS[kind](g, a, rng)
            if got is None:
                continue
            change, what = got
            data = changed_export(g.data, a["id"], change)
            out.append({"title": g.title, "set": g.set, "game": g.name, "kind": kind,
                        "action_id": a["id"], "type": a.get("type"), "what": what,
                        "entity_type": a.get("entity_type"),
                        "change": change if isinstance(change, str) else "edit",
                        "data": data, "digest": digest(data)})
            n += 1
    return out


def outcome(g: Game, m: dict, verdict) -> dict:
    t0 = time.process_time()
    errors, res = report(m["data"], m["game"])
    seconds = time.process_time() - t0

    def unchanged_id(f):
        """The id the finding's action has in the unchanged game (a
        duplicate shifts the later ids by one; the copy has none)."""
        aid = f.action_id
        if m["change"] == "duplicate" and isinstance(aid, int) and aid > m["action_id"]:
            return aid - 1 if aid > m["action_id"] + 1 else "copy"
        return aid
    new = [f for f in errors if (unchanged_id(f), f.rule) not in g.baseline]
    order = g.order
    changed = order.get(m["action_id"], -1)
    if m["change"] == "duplicate":
        changed = order.get(m["action_id"], -1) + 0.5

    def place(f):
        if f.action_id is None:
            return None
        aid = f.action_id
        if m["change"] == "duplicate":
            if aid == m["action_id"] + 1:
                return changed
            if aid > m["action_id"]:
                aid -= 1
        return order.get(aid)

    # one per action (findings on one line count as one)
    seen, groups = set(), []
    for f in new:
        key = place(f)
        key = key if key is not None else ("?", f.rule, f.message[:40])
        if key in seen:
            continue
        seen.add(key)
        groups.append((key, f))
    refused = verdict.get("refused") if verdict else None
    accepted = verdict is not None and refused is None
    passed = m.get("passed")
    if passed is not None and passed.get("refused") != -1 \
            and passed.get("refused") != m["action_id"]:
        # (the deletion read as the entity's pass, when the engine takes the
        # pass — a step it may pass over: its verdict on that, where the
        # later lines first need what was deleted)
        refused = passed.get("refused")
        accepted = refused is None
    late = None
    if refused not in (None, -1):
        rid = refused
        if m["change"] == "duplicate" and rid > m["action_id"]:
            rid -= 1
        late = order.get(rid)
    firsts = [k for k, _ in groups if not isinstance(k, tuple)]
    first = min(firsts) if firsts else None
    lo = changed + 1 if m["change"] == "delete" else changed
    hi = max(changed, late) if late is not None else changed
    if m["change"] == "delete" and late is None:
        hi = float("inf")
    if m["change"] == "duplicate":
        lo = changed
    legal = (accepted and m["kind"] not in RULE_KINDS) or unwritten(m)
    return {
        "title": m["title"], "set": m["set"], "game": m["game"], "kind": m["kind"],
        "action_id": m["action_id"], "what": m["what"], "digest": m["digest"],
        "errors": len(groups), "raw_errors": len(new),
        "roots": sum(1 for _, f in groups if not getattr(f, "consequential", False)),
        "first": [groups[0][1].action_id, groups[0][1].rule, groups[0][1].message[:160]]
        if groups else None,
        "early": first is not None and first < lo,
        "at_change": first is not None and lo <= first <= (changed if m["change"] != "delete"
                                                            else hi),
        "in_window": first is not None and lo <= first <= hi,
        "oracle": None if verdict is None else
        ("accepted" if accepted else ("crash" if refused == -1 else
                                      ("at_change" if late is not None and late <= changed
                                       else "later"))),
        "legal": legal,
        "same_end": bool(res) and {s["player"]: s["net_worth"] for s in res.standings} == g.end,
        "seconds": round(seconds, 3),
    }


#: the engine's words when its interface waits for a step's own action (a
#: pass) and is given the next line instead
WAITING = "Blocking step"


def passed_over(m: dict, verdict) -> bool:
    """A deleted line (not a pass) the engine refuses the next line after
    only because its interface waits for that step's action (``Blocking step
    ... cannot process``) and a company's (a player's pass in a stock round
    ends his turn; a company's passes one step): the step was its to take or leave (a
    second lay, a station, a private's purchase, an issue), so the deletion
    is asked again as a pass of the entity in its place (:func:`unwritten`:
    no rule makes anyone write the pass), and that verdict judges it."""
    return (m.get("change") == "delete" and not unwritten(m) and verdict is not None
            and m.get("entity_type") == "corporation"
            and str(verdict.get("error") or "").startswith(WAITING))


def unwritten(m: dict) -> bool:
    """A pass left out is no mistake: no published rule makes a player or a
    company write "pass".  Passing is a choice of the turn (the rules
    summaries' stock round, RUNDA GIEŁDOWA 2.2 "pass"; an operating round's
    lay, station and purchase of a private are things a company *may* do), a
    turn in which nothing more is done is passed, and the stock round ends
    when every player has passed in succession, which the record's next
    round shows.  18xx.games refuses the line after a deleted pass only
    because its interface waits for the pass action, so such a deletion is
    counted as legal (apart from the mistakes; a finding railcheck gives it
    counts as "flagged")."""
    return (m.get("change") == "delete" or m.get("kind") == "deleted") and (
        m.get("type") == "pass" or str(m.get("what", "")).startswith("pass by "))


def meets(o: dict) -> bool:
    return 1 <= o["errors"] <= 2 and o["in_window"] and not o["early"]


# ---------------------------------------------------------------------------
# the oracle

def load_cache(path: Path) -> dict:
    out = {}
    if path.exists():
        for line in path.read_text().splitlines():
            try:
                d = json.loads(line)
            except ValueError:
                continue
            out[d["digest"]] = d
    return out


def ask_oracle(muts: list[dict], cache: dict, cache_path: Path) -> None:
    """The engine's verdict on each changed export the cache lacks."""
    todo = [m for m in muts if m["digest"] not in cache]
    if not todo:
        return
    cache_path.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="one_mistake_") as tmp:
        paths = {}
        for m in todo:
            p = Path(tmp) / f"{m['digest']}.json"
            p.write_text(json.dumps(m["data"]))
            paths[str(p)] = m["digest"]
        env = dict(os.environ, T18_GAMES=",".join(ORACLE_GAMES.values()), ENGINE_LOG_LEVEL="4")
        proc = subprocess.Popen(
            ["nice", "-n", "10", "ruby", "-Ishim", "-Ilib", str(ROOT / "tools/oracle_verdict.rb")],
            cwd=ORACLE_DIR, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        proc.stdin.write("\n".join(paths) + "\n")
        proc.stdin.close()
        with cache_path.open("a") as out:
            for n, line in enumerate(proc.stdout, 1):
                try:
                    d = json.loads(line)
                except ValueError:
                    continue
                d["digest"] = paths.get(d.pop("path"))
                cache[d["digest"]] = d
                out.write(json.dumps(d) + "\n")
                out.flush()
                if n % 50 == 0:
                    print(f"  oracle: {n}/{len(todo)}", file=sys.stderr)
        proc.wait()


# ---------------------------------------------------------------------------
# running

def run_game(args) -> list[dict]:
    kind_of_set, path, kinds, per_kind, seed, cache, want_oracle = args
    g = Game(Path(path), kind_of_set)
    rules_facts(g.title)
    g.observe()
    muts = sample(g, [k for k in kinds if k in TITLE_KINDS[g.title]], per_kind, seed)
    return g, muts


def table(outcomes: list[dict], by: str = "kind") -> list[str]:
    lines = []
    groups = defaultdict(list)
    for o in outcomes:
        groups[o[by]].append(o)
    keys = sorted(groups) + ["ALL"]
    width = max([len(str(k)) for k in keys] + [4])
    for key in keys:
        os_ = outcomes if key == "ALL" else groups[key]
        lines.append(f"{key:<{width}}  " + line(os_))
    return lines


def line(os_: list[dict]) -> str:
    mis = [o for o in os_ if not o["legal"]]
    legal = [o for o in os_ if o["legal"]]
    if not mis:
        return f"n=  0  legal={len(legal)}"
    counts = sorted(o["errors"] for o in mis)
    p90 = counts[min(len(counts) - 1, max(0, -(-9 * len(counts) // 10) - 1))]
    ok = sum(meets(o) for o in mis)
    at = sum(1 <= o["errors"] <= 2 and o["at_change"] for o in mis)
    early = sum(o["early"] for o in os_)
    silent = sum(o["errors"] == 0 for o in mis)
    false = sum(o["errors"] > 0 for o in legal)
    play = sum(o["errors"] > 0 and play_only(o) for o in legal)
    return (f"n={len(mis):4d}  median={statistics.median(counts):5.1f} p90={p90:4d} "
            f"max={counts[-1]:4d}  goal={ok:4d} ({100 * ok / len(mis):5.1f}%)  "
            f"at-change={at:4d}  unflagged={silent:3d}  early={early:3d}  "
            f"legal={len(legal):3d} (flagged {false}, {play} by checks of play)")


#: the rules of play 18xx.games checks only at the table: loading an export
#: (``@game.loading``) skips a lay's blocking private, its rotation and
#: connection (``legal_tile_rotation?``), the track restrictions and a
#: station's reach (lib/engine/step/tracker.rb, tokener.rb), so a change
#: breaking only these reads as "accepted" although the table refuses it
PLAY_RULES = {"tile.blocked", "tile.rotation", "tile.connection", "tile.edge",
              "tile.no_new_track", "token.reach", "track.blocked_connection",
              "track.no_new_track", "track.upgrade_reach", "track.upgrade_no_train"}


def play_only(o: dict) -> bool:
    """A legal change flagged by a check of play the engine skips when loading
    (the first finding's rule, at the change)."""
    return bool(o["first"]) and o["first"][1] in PLAY_RULES and o["first"][0] == o["action_id"]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--titles", default=",".join(TITLES))
    ap.add_argument("--set", default="shared", choices=("shared", "fresh", "all"))
    ap.add_argument("--per-kind", type=int, default=0,
                    help="changes per kind and game (default: 4 for a real game, 1 for a "
                         "random one)")
    ap.add_argument("--seed", type=int, default=27)
    ap.add_argument("--kinds", default="")
    ap.add_argument("--games", default="")
    ap.add_argument("--max-games", type=int, default=0)
    ap.add_argument("--oracle", action="store_true", help="ask the engine for missing verdicts")
    ap.add_argument("--oracle-cache", default=str(ORACLE_CACHE))
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--json", default="", help="write one line per changed game to FILE")
    ap.add_argument("--worst", type=int, default=0)
    ap.add_argument("--causes", action="store_true")
    ap.add_argument("--code", default="", help="import railcheck from this checkout")
    ap.add_argument("--dir", default="",
                    help="the games of DIR/<title> (or DIR) instead of the sets, as the set "
                         "'new' (a batch generated after the last round: /work/gen/m4)")
    args = ap.parse_args(argv)
    _setup_path(args.code or None)
    titles = [t for t in args.titles.split(",") if t]
    kinds = [k for k in args.kinds.split(",") if k] or list(KINDS)
    cache_path = Path(args.oracle_cache)
    cache = load_cache(cache_path)
    jobs = []
    for title in titles:
        games = corpus(title, args.set) if not args.dir else new_set(Path(args.dir), title)
        if args.games:
            games = [(s, p) for s, p in games if _stem(p) in args.games.split(",")]
        if args.max_games:      # the first N of each set
            games = [g for s in ("shared", "fresh", "new")
                     for g in [x for x in games if x[0] == s][: args.max_games]]
        for s, p in games:
            real = "rand" not in p.name
            per = args.per_kind or (4 if real else 1)
            jobs.append((s, str(p), kinds, per, args.seed, None, args.oracle))
    outcomes = []
    t0 = time.time()
    for n, job in enumerate(jobs, 1):
        g, muts = run_game(job)
        if args.oracle:
            ask_oracle(muts, cache, cache_path)
        again = [m for m in muts if passed_over(m, cache.get(m["digest"]))]
        for m in again:
            data = passed_instead(g.data, m["action_id"])
            m["pass_digest"] = digest(data)
            m["pass_data"] = data
        if args.oracle and again:
            ask_oracle([{"digest": m["pass_digest"], "data": m["pass_data"]} for m in again],
                       cache, cache_path)
        for m in again:
            m["passed"] = cache.get(m["pass_digest"])
            m["pass_data"] = None
        for m in muts:
            outcomes.append(outcome(g, m, cache.get(m["digest"])))
            m["data"] = None
        print(f"  [{n}/{len(jobs)}] {g.name}: {len(muts)} changes, "
              f"{time.time() - t0:.0f} s", file=sys.stderr)
    if args.json:
        with open(args.json, "w") as f:
            for o in outcomes:
                f.write(json.dumps(o) + "\n")
    print_tables(outcomes, titles, args.worst, args.causes)
    return 0


def print_tables(outcomes, titles, worst=0, causes=False):
    for title in titles:
        os_ = [o for o in outcomes if o["title"] == title]
        if not os_:
            continue
        print(f"\n== {title}")
        for s in ("shared", "fresh", "new"):
            part = [o for o in os_ if o["set"] == s]
            if part:
                print(f"  {s:<7} " + line(part))
        print("\n".join("    " + x for x in table(os_)))
        if causes:
            c = Counter(o["first"][1] for o in os_ if o["first"] and not meets(o)
                        and not o["legal"])
            print("    first rules of those not meeting the goal: "
                  + ", ".join(f"{r}×{n}" for r, n in c.most_common(12)))
    if worst:
        print("\nworst:")
        bad = sorted((o for o in outcomes if not o["legal"] and not meets(o)),
                     key=lambda o: -o["errors"])
        for o in bad[:worst]:
            print(f"  {o['errors']:4d}  {o['title']} {o['game']} #{o['action_id']} {o['kind']}: "
                  f"{o['what']}; oracle {o['oracle']}; first: {o['first']}")


if __name__ == "__main__":
    sys.exit(main())
