"""Replay the map actions of an 18xx.games export through :class:`Board`.

A development tool (it reads the repository's test data, not needed at run
time).  This is the board's own proof against real games, independent of the full
replay engine: it resolves undo/redo, follows train purchases for the phase
(tile colours, off-board values), private ownership for blocks and powers,
places home stations when a corporation first acts, and feeds every
``lay_tile``, ``place_token`` and ``run_routes`` to the board, comparing each
route's revenue with the recorded one.

    python tools/replay18xx.py [export.json ...]
"""

from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass, field
from typing import Optional

from railcheck.actions import Route, Stop
from railcheck.board.board import Board, load_board_yaml
from railcheck.findings import RuleViolation
from railcheck.importer import filter_actions

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.normpath(os.path.join(HERE, ".."))
BOARD_YAML = os.path.join(REPO, "railcheck", "titles", "g1830", "board.yaml")
REFERENCE = os.environ.get("RAILCHECK_REFERENCE_1830", os.path.normpath(
    os.path.join(REPO, "..", "shared", "reference", "1830.json")))
CORPUS_DIR = os.environ.get("RAILCHECK_CORPUS_1830", os.path.join(
    REPO, "tests", "data", "exports", "1830"))


def reference_constants(path: str = REFERENCE) -> dict:
    with open(path, encoding="utf-8") as fh:
        data = json.load(fh)
    return data.get("constants", data)


def constants_from_ruleset(title: str = "1830") -> dict:
    """The facts the replayer needs, from the project's own ruleset, in the
    shape of the reference constants."""
    from railcheck.ruleset import load_ruleset

    r = load_ruleset(title)
    comps = []
    for c in r.companies:
        abilities = [{"type": "blocks_hexes", "hexes": list(c.blocks)}]
        for kind in ("tile_lay", "teleport"):
            if kind in c.special:
                abilities.append({"type": kind, **c.special[kind]})
        comps.append({"sym": c.sym, "value": c.value, "revenue": c.revenue, "abilities": abilities})
    return {
        "CORPORATIONS": [{"sym": c.sym, "coordinates": c.home, "city": c.home_city,
                          "tokens": list(c.tokens)} for c in r.corporations],
        "COMPANIES": comps,
        "PHASES": [{"name": p.name, "on": p.on, "tiles": list(p.tiles),
                    "train_limit": p.train_limit} for p in r.phases],
        "TRAINS": [{"name": t.name, "distance": 999 if t.distance is None else t.distance,
                    "price": t.price, "events": [{"type": e} for e in t.events]}
                   for t in r.trains],
    }


def entities_from_reference(constants: dict) -> tuple[list, list]:
    """Corporations and privates in the shape of the economy ruleset
    (``railcheck/titles/g1830/rules.yaml``) from the reference constants."""
    corps = [{"sym": c["sym"], "home": c.get("coordinates"), "home_city": c.get("city"),
              "tokens": list(c.get("tokens") or [])} for c in constants["CORPORATIONS"]]
    comps = []
    for c in constants["COMPANIES"]:
        entry = {"sym": c["sym"], "value": c.get("value"), "revenue": c.get("revenue"), "blocks": []}
        for ab in c.get("abilities") or []:
            if ab.get("type") == "blocks_hexes":
                entry["blocks"] = list(ab.get("hexes") or [])
            elif ab.get("type") in ("tile_lay", "teleport"):
                entry["special"] = {ab["type"]: {"hexes": list(ab.get("hexes") or []),
                                                 "tiles": [str(t) for t in ab.get("tiles") or []]}}
        comps.append(entry)
    return corps, comps


@dataclass
class ReplayResult:
    name: str
    lays: int = 0
    tokens: int = 0
    runs: int = 0
    routes: int = 0
    routes_matched: int = 0
    runs_matched: int = 0
    failures: list = field(default_factory=list)   # (action id, type, message)
    mismatches: list = field(default_factory=list)  # (action id, train, recorded, computed)
    seconds: float = 0.0

    def summary(self) -> str:
        return (f"{self.name}: {self.lays} lays, {self.tokens} tokens, {self.runs} runs "
                f"({self.routes} routes): {self.routes_matched}/{self.routes} route revenues and "
                f"{self.runs_matched}/{self.runs} run totals reproduced, "
                f"{len(self.failures)} refused, {len(self.mismatches)} mismatched")


class ExportReplayer:
    """Feeds one 18xx.games 1830 export to a fresh Board."""

    def __init__(self, board_data: Optional[dict] = None, constants: Optional[dict] = None):
        self.constants = constants or constants_from_ruleset()
        self.board_data = board_data or load_board_yaml(BOARD_YAML)
        self.corps, self.comps = entities_from_reference(self.constants)
        self.phases = self.constants["PHASES"]
        self.trains = {t["name"]: t for t in self.constants["TRAINS"]}

    def distances(self) -> dict:
        return {name: (None if t["distance"] >= 99 else t["distance"]) for name, t in self.trains.items()}

    def run(self, export: dict, name: str = "game", *, stop_on_failure: bool = False) -> ReplayResult:
        import time

        t0 = time.perf_counter()
        board = Board(self.board_data, self.corps, self.comps)
        res = ReplayResult(name)
        self.board = board
        phase = self.phases[0]
        owners: dict[str, str] = {}
        operated: set = set()
        bought_any: set = set()
        corp_syms = {c["sym"] for c in self.corps}
        distances = self.distances()

        for a in filter_actions(export["actions"]):
            kind = a["type"]
            entity = a.get("entity")
            if a.get("entity_type") == "corporation" and entity in corp_syms and entity not in operated:
                operated.add(entity)
                board.place_home_token(entity)
            try:
                if kind == "buy_company" and a.get("entity_type") == "corporation":
                    owners[a["company"]] = entity
                    board.unblock(a["company"])
                elif kind == "buy_shares" and a.get("entity_type") == "company":
                    board.unblock(entity)        # MH exchanged for a NYC share: it closes
                elif kind == "buy_train":
                    ttype = a.get("variant") or a["train"].rsplit("-", 1)[0]
                    for p in self.phases:
                        if p.get("on") == ttype and self.phases.index(p) > self.phases.index(phase):
                            phase = p
                    for ev in self.trains.get(ttype, {}).get("events") or []:
                        if ev.get("type") == "close_companies":
                            for c in self.comps:
                                board.unblock(c["sym"])
                    if entity == "B&O" and entity not in bought_any:
                        board.unblock("BO")      # the BO private closes on B&O's first train
                    bought_any.add(entity)
                elif kind == "lay_tile":
                    res.lays += 1
                    tile_id = a["tile"]
                    tile = tile_id.rsplit("-", 1)[0]
                    if a.get("entity_type") == "company":
                        corp, special = owners.get(entity, entity), entity
                    else:
                        corp, special = entity, None
                    board.lay_tile(corp, tile, a["hex"], a.get("rotation"), colors=phase["tiles"],
                                   special=special, tile_copy=tile_id)
                elif kind == "place_token":
                    res.tokens += 1
                    hx, city = board.resolve_node_id(a["city"])
                    if a.get("entity_type") == "company":
                        corp = a.get("tokener") or owners.get(entity, entity)
                        board.place_token(corp, hx, city, check_reach=False)
                    else:
                        board.place_token(entity, hx, city)
                elif kind == "run_routes":
                    res.runs += 1
                    routes = [self.route_of(r) for r in a["routes"]]
                    res.routes += len(routes)
                    color = phase["tiles"][-1]
                    total, each = board.revenue_of_routes(entity, routes, color, distances)
                    recorded = [r.get("revenue") for r in a["routes"]]
                    for r, got, want in zip(a["routes"], each, recorded):
                        if got == want:
                            res.routes_matched += 1
                        else:
                            res.mismatches.append((a.get("id"), r["train"], want, got))
                    if total == sum(x or 0 for x in recorded):
                        res.runs_matched += 1
            except RuleViolation as exc:
                res.failures.append((a.get("id"), kind, f"{exc.rule}: {exc.message}"))
                if stop_on_failure:
                    raise
        res.seconds = time.perf_counter() - t0
        return res

    @staticmethod
    def route_of(r: dict) -> Route:
        train_id = r["train"]
        ttype = train_id.rsplit("-", 1)[0]
        # `hexes` is in running order; `nodes` (newer exports) names the city
        # of each stop but not always in running order: use it where the hex
        # occurs once, and let the track decide for a hex visited twice (OO)
        index: dict = {}
        for node in r.get("nodes") or []:
            hx, _, idx = node.rpartition("-")
            index.setdefault(hx, []).append(int(idx))
        stops = [Stop(hex=hx, city=(index[hx][0] if len(index.get(hx, ())) == 1 else None))
                 for hx in r["hexes"]]
        path = [list(c) for c in r["connections"]] if r.get("connections") else None
        return Route(train=ttype, train_id=train_id, stops=stops, path=path, revenue=r.get("revenue"))


def corpus_files(directory: str = CORPUS_DIR) -> list[str]:
    if not os.path.isdir(directory):
        return []
    return sorted(os.path.join(directory, f) for f in os.listdir(directory) if f.endswith(".json"))


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    files = argv or corpus_files()
    replayer = ExportReplayer()
    bad = 0
    for path in files:
        with open(path, encoding="utf-8") as fh:
            export = json.load(fh)
        res = replayer.run(export, os.path.basename(path))
        print(res.summary() + f" [{res.seconds * 1000:.1f} ms]")
        for f in res.failures:
            print("  refused", *f)
        for m in res.mismatches:
            print("  mismatch action %s train %s recorded %s computed %s" % m)
        bad += len(res.failures) + len(res.mismatches)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
