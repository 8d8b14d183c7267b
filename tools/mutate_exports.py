"""One mistake, one finding: change one action of each real 1830 export and
count what railcheck reports.

For each export of ``tests/data/exports/1830`` and each mutation kind, a
seeded sample of the actions that kind applies to is changed, one at a time;
each changed game is replayed (``import_export`` + ``Replay``) and its error
findings are counted.  A changed game *meets the goal* when it reports at
least one and at most two error findings, the first at the changed action.
For a deleted action the first error must fall on a later action: the first
action that needed the deleted one is, by definition here, the first later
action railcheck cannot accept without it (there is no reference engine to
tell it independently); the distance from the deletion to that action is
reported.  A change that is no mistake (the changed game has no error and
ends with the unchanged game's net worths: a deleted pass the rules make by
themselves, a tile turned to a rotation with the same track) meets the goal
with no finding, and is counted apart (`not-needed`).  See docs/one-mistake.md.

Usage: python tools/mutate_exports.py [--per-kind N] [--seed S] [--kinds a,b]
       [--games a,b] [--causes] [--worst N] [--roots] [--json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tools"))

import one_mistake as OM  # noqa: E402
from railcheck.actions import Bid, LayTile, SellShares  # noqa: E402
from railcheck.engine import Replay  # noqa: E402
from railcheck.findings import ERROR  # noqa: E402
from railcheck.importer import import_export  # noqa: E402

EXPORTS = ROOT / "tests" / "data" / "exports" / "1830"


# ---------------------------------------------------------------------------
# the games and what the unchanged replay knew before each action

@dataclass
class Game:
    name: str
    data: dict
    counted: list                       # the export's dicts that count, in order
    players: list                       # player ids
    corporations: list                  # corporation syms acting in the game
    before: dict = field(default_factory=dict)   # action id -> facts before it
    undo_targets: set = field(default_factory=set)


#: every player's final net worth in each unchanged export
UNCHANGED_END: dict[str, dict] = {}


def _end(res) -> dict:
    return {s["player"]: s["net_worth"] for s in res.standings}


def load_game(path: Path) -> Game:
    data = json.loads(path.read_text())
    counted = OM.counted_actions(data)
    g = Game(name=path.stem, data=data, counted=counted,
             players=[p["id"] for p in data["players"]],
             corporations=sorted({a["entity"] for a in counted
                                  if a.get("entity_type") == "corporation"}))
    g.undo_targets = OM.undo_targets(data)
    record, _ = import_export(json.dumps(data), path.name)
    rep = Replay(record)
    rep.before_action = lambda game, action: _note(g, game, action)
    UNCHANGED_END[g.name] = _end(rep.run())
    return g


def _note(g: Game, game, action):
    """What a mutation needs to know about the state before ``action``."""
    facts = g.before.setdefault(action.action_id, {})
    rnd = game.round
    if isinstance(action, Bid) and rnd.kind == "auction" and hasattr(rnd, "bids"):
        company = game.companies.get(action.company)
        bids = rnd.bids.get(action.company, {})
        if company is not None and company is rnd.cheapest() and rnd.auctioning is None:
            facts["minimum"] = company.price          # a purchase at its price
        elif company is not None:
            facts["minimum"] = max(bids.values(), default=company.value) + rnd.inc
    if isinstance(action, SellShares):
        player = game.player_by_name.get(action.actor)
        if player is not None:
            facts["not_owned"] = sorted(
                (sym, [c.name for c in corp.certs if c.owner is not player and not c.president])
                for sym, corp in game.corporations.items() if corp.percent_of(player) == 0)
    if isinstance(action, LayTile) and game.board is not None and action.actor in game.corporations:
        board = game.board
        facts["unreachable"] = OM.unreachable_hexes(board, action.actor)
        tile = board.tiles.get(action.tile)
        if tile is not None and action.rotation is not None:
            facts["other_rotations"] = OM.other_rotations(tile, action.rotation)
    if action.__class__.__name__ == "BuyTrain":
        facts["from_depot"] = OM.from_depot(game, action)


# ---------------------------------------------------------------------------
# mutation kinds: (game, action dict, rng) -> (changes | None); None = skip

@dataclass
class Mutation:
    game: str
    kind: str
    action_id: int
    what: str
    data: dict
    deleted: bool = False


def _with(data: dict, action_id: int, changes: dict) -> dict:
    """A copy of the export ``data`` with ``changes`` made to its action
    ``action_id`` (the harness's :func:`one_mistake.changed_export`)."""
    return OM.changed_export(data, action_id, changes)


def _without(data: dict, action_id: int) -> dict:
    return OM.changed_export(data, action_id, "delete")


def k_wrong_buyer(g, a, rng):
    if a["type"] != "buy_shares" or a.get("entity_type") != "player":
        return None
    other = rng.choice([p for p in g.players if p != a["entity"]])
    return {"entity": other}, f"bought by player {other} instead of {a['entity']}"


def k_bid_under_minimum(g, a, rng):
    if a["type"] != "bid":
        return None
    minimum = g.before.get(a["id"], {}).get("minimum")
    if minimum is None:
        return None
    price = minimum - 5 if minimum > 5 else minimum - 1
    return {"price": price}, f"bid {price} where the minimum is {minimum} (was {a['price']})"


def k_private_over_twice(g, a, rng):
    if a["type"] != "buy_company":
        return None
    face = FACE[a["company"]]
    price = 2 * face + rng.choice([5, 10, 40])
    return {"price": price}, f"{a['company']} (face {face}) bought for {price} (was {a['price']})"


def k_sell_not_owned(g, a, rng):
    if a["type"] != "sell_shares" or a.get("entity_type") != "player":
        return None
    choices = [(sym, certs) for sym, certs in g.before.get(a["id"], {}).get("not_owned", [])
               if certs]
    if not choices:
        return None
    sym, certs = rng.choice(choices)
    cert = rng.choice(certs)
    return {"shares": [cert], "percent": 10}, f"sells {cert} (owns no {sym})"


def k_wrong_par(g, a, rng):
    if a["type"] != "par":
        return None
    old = int(str(a["share_price"]).split(",")[0])
    cells = [c for c in PAR_CELLS if c[0] != old]
    price, row, col = rng.choice(cells)
    return {"share_price": f"{price},{row},{col}"}, f"par {price} instead of {old}"


#: the kinds; those the harness (tools/one_mistake.py) makes alike are its own
KINDS: dict[str, Callable] = {
    "wrong_buyer": k_wrong_buyer,
    "bid_under_minimum": k_bid_under_minimum,
    "tile_unreachable": OM.k_wrong_hex,
    "private_over_twice": k_private_over_twice,
    "sell_not_owned": k_sell_not_owned,
    "revenue_plus_10": OM.k_wrong_revenue,
    "wrong_actor": OM.k_wrong_actor,
    "wrong_par": k_wrong_par,
    "wrong_train_price": OM.k_wrong_train_price,
    "deleted": OM.k_deleted,
    "wrong_rotation": OM.k_wrong_rotation,
}

FACE: dict[str, int] = {}
PAR_CELLS: list = []


def _rules_facts():
    from railcheck.ruleset import load_ruleset
    from railcheck.market import Market
    rules = load_ruleset("1830", [])
    FACE.update({c.sym: c.value for c in rules.companies})
    market = Market(rules.market_rows, rules.market_zones)
    PAR_CELLS.extend(sorted((c.price, c.row, c.col) for c in market.par_cells))


def mutations(game: Game, kinds, per_kind: int, seed: int) -> list[Mutation]:
    out = []
    for kind in kinds:
        rng = random.Random(f"{seed}:{game.name}:{kind}")
        fn = KINDS[kind]
        actions = list(game.counted)
        rng.shuffle(actions)
        for a in actions:
            if len([m for m in out if m.kind == kind]) >= per_kind:
                break
            got = fn(game, a, rng)
            if got is None:
                continue
            changes, what = got
            if changes == "delete":
                data, deleted = _without(game.data, a["id"]), True
            else:
                data, deleted = _with(game.data, a["id"], changes), False
            out.append(Mutation(game.name, kind, a["id"], what, data, deleted))
    return out


# ---------------------------------------------------------------------------
# outcome of one changed game

@dataclass
class Outcome:
    mutation: Mutation
    errors: list
    findings: list
    #: the changed game ends with every player's net worth as the unchanged one
    same_end: bool = False

    @property
    def count(self) -> int:
        return len(self.errors)

    @property
    def roots(self) -> int:
        """Errors not marked as following from an earlier one."""
        return sum(1 for f in self.errors if not getattr(f, "consequential", False))

    @property
    def first_at_change(self) -> bool:
        if not self.errors:
            return False
        first = self.errors[0].action_id
        if self.mutation.deleted:
            return first is not None and first > self.mutation.action_id
        return first == self.mutation.action_id

    @property
    def not_needed(self) -> bool:
        """A change that is no mistake: the changed record is legal and ends
        with the same net worths (a deleted pass the rules make by
        themselves, a tile turned to a rotation with the same track).  No
        finding is then the right answer."""
        return not self.errors and self.same_end

    @property
    def meets(self) -> bool:
        return (1 <= self.count <= 2 and self.first_at_change) or self.not_needed


def replay(m: Mutation) -> Outcome:
    record, imported = import_export(json.dumps(m.data), f"{m.game}.json")
    res = Replay(record).run()
    findings = list(imported) + list(res.findings)
    errors = [f for f in findings if f.severity == ERROR]
    same = not errors and _end(res) == UNCHANGED_END[m.game]
    return Outcome(m, errors, findings, same)


def distribution(counts: list[int]) -> str:
    if not counts:
        return "n=0"
    s = sorted(counts)
    p90 = s[min(len(s) - 1, max(0, -(-9 * len(s) // 10) - 1))]
    return (f"n={len(s):3d} median={statistics.median(s):5.1f} p90={p90:4d} max={s[-1]:4d}")


def summary(outcomes: list[Outcome], kinds, roots: bool = False) -> list[str]:
    lines = []
    by_kind = defaultdict(list)
    for o in outcomes:
        by_kind[o.mutation.kind].append(o)
    width = max(len(k) for k in kinds)
    for kind in kinds + ["ALL"]:
        os_ = outcomes if kind == "ALL" else by_kind.get(kind, [])
        if not os_:
            continue
        meet = sum(o.meets for o in os_)
        unflagged = sum(o.count == 0 and not o.not_needed for o in os_)
        not_needed = sum(o.not_needed for o in os_)
        first = sum(o.first_at_change for o in os_)
        lines.append(f"{kind:<{width}}  {distribution([o.count for o in os_])}  "
                     f"first-at-change={first:3d}  unflagged={unflagged:3d}  "
                     + (f"not-needed={not_needed:3d}  " if not_needed else "") +
                     f"goal={meet:3d}/{len(os_):3d} ({100 * meet / len(os_):5.1f}%)")
        if roots:
            lines.append(f"{'':<{width}}  not consequential: "
                         f"{distribution([o.roots for o in os_])}")
    return lines


def causes(outcomes: list[Outcome], kinds) -> list[str]:
    """Which rule ids the errors after the changed action have, per kind."""
    lines = []
    for kind in kinds:
        c = Counter()
        for o in outcomes:
            if o.mutation.kind != kind:
                continue
            for f in o.errors:
                if f.action_id != o.mutation.action_id or o.mutation.deleted:
                    c[f.rule] += 1
        if c:
            lines.append(f"{kind}: " + ", ".join(f"{r}×{n}" for r, n in c.most_common(8)))
    return lines


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--per-kind", type=int, default=9)
    ap.add_argument("--seed", type=int, default=1830)
    ap.add_argument("--kinds", default=",".join(KINDS))
    ap.add_argument("--games", default="")
    ap.add_argument("--causes", action="store_true", help="rule ids of the later errors")
    ap.add_argument("--worst", type=int, default=0, help="list the N worst changed games")
    ap.add_argument("--json", action="store_true", help="one line per changed game")
    ap.add_argument("--roots", action="store_true",
                    help="also the distribution of errors not marked consequential")
    args = ap.parse_args(argv)
    kinds = [k for k in args.kinds.split(",") if k]
    games = [p for p in sorted(EXPORTS.glob("*.json"))
             if not args.games or p.stem in args.games.split(",")]
    outcomes = run_all(games, kinds, args.per_kind, args.seed)
    if args.json:
        for o in outcomes:
            print(json.dumps({"game": o.mutation.game, "kind": o.mutation.kind,
                              "action_id": o.mutation.action_id, "what": o.mutation.what,
                              "errors": o.count, "not_consequential": o.roots,
                              "meets": o.meets,
                              "first": [o.errors[0].action_id, o.errors[0].rule]
                              if o.errors else None}))
        return 0
    print("\n".join(summary(outcomes, kinds, args.roots)))
    if args.causes:
        print("\nrules of the errors after the changed action:")
        print("\n".join(causes(outcomes, kinds)))
    if args.worst:
        print("\nworst:")
        for o in sorted(outcomes, key=lambda o: -o.count)[: args.worst]:
            first = o.errors[0] if o.errors else None
            print(f"  {o.count:4d}  {o.mutation.game} #{o.mutation.action_id} {o.mutation.kind}: "
                  f"{o.mutation.what}; first: "
                  + (f"#{first.action_id} [{first.rule}] {first.message[:90]}" if first else "-"))
    return 0


def run_all(games, kinds, per_kind: int, seed: int) -> list[Outcome]:
    if not FACE:
        _rules_facts()
    outcomes = []
    for path in games:
        game = load_game(path)
        for m in mutations(game, kinds, per_kind, seed):
            outcomes.append(replay(m))
    return outcomes


if __name__ == "__main__":
    sys.exit(main())
