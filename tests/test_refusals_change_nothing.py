"""A refused action leaves the game exactly as it was.

The replay can snapshot the whole state (players, companies, certificates,
trains, privates, the board, the round and the turn) before each action and
compare it after a refusal (``Replay(check_purity=True)``).  Real 1830 exports
with one action changed make refusals in every kind of round; none may change
anything."""

import collections
import copy
import functools
import json

import pytest

from railcheck.engine import Replay
from railcheck.importer import filter_actions, import_export
from railcheck.loader import load_game

from conftest import EXPORTS_1830, REPO


def replay_checked(data, changed=None):
    """The replay of an export, every refusal checked for purity; with
    ``changed`` (the id of the one action a test changed in a legal game),
    from that action on: the actions before it replay as the legal game did,
    which the replay shows (no error before it)."""
    record, _ = import_export(json.dumps(data), "mutated.json")
    rp = Replay(record, check_purity=True, purity_from=changed)
    res = rp.run()
    if changed is not None:
        early = [f for f in res.findings
                 if f.severity == "error" and f.action_id is not None and f.action_id < changed]
        assert early == [], f"findings before the changed action {changed}: {early[:2]}"
    return rp


CORPS = ["B&O", "PRR", "NYC", "C&O", "ERIE", "B&M", "NYNH", "CPR"]
PRIVATES = ["SV", "CS", "DH", "MH", "CA", "BO"]


def variants(data, every=9):
    """One-action changes: a price off by 7, another actor (a player's or, for
    every other action, a company's), another hex, another tile (a brown 63:
    a tile written on a wrong hex is now mostly taken where the record's
    later lines have it, so another tile keeps the refusals of a lay the
    record's map lacks), the certificates of another corporation sold, a bid
    on the next private."""
    counted = [a for a in filter_actions(data["actions"]) if a.get("type") != "pass"]
    ids = [a["id"] for a in counted][::every]
    ids += [a["id"] for a in counted if a.get("type") == "sell_shares"][1::3]
    ids += [a["id"] for a in counted if a.get("type") == "bid"][1::3]
    players = [p["id"] for p in data["players"]]
    for n, action_id in enumerate(ids):
        for change in ("price", "actor", "hex", "tile", "sold", "private"):
            out = copy.deepcopy(data)
            a = next(x for x in out["actions"] if x.get("id") == action_id)
            if change == "price" and isinstance(a.get("price"), int):
                a["price"] += 7
            elif change == "actor" and a.get("entity_type") == "player":
                a["entity"] = players[(players.index(a["entity"]) + 1) % len(players)] \
                    if a["entity"] in players else a["entity"]
            elif change == "actor" and a.get("entity_type") == "corporation" and n % 2 == 0 \
                    and a["entity"] in CORPS:
                # (a company's line under the next company's name: most are
                # taken as the turn's company's, a few refused)
                a["entity"] = CORPS[(CORPS.index(a["entity"]) + 1) % len(CORPS)]
            elif change == "sold" and a.get("type") == "sell_shares":
                # the same certificates of the next corporation (mostly not held)
                corp = a["shares"][0].rsplit("_", 1)[0]
                other = CORPS[(CORPS.index(corp) + 1) % len(CORPS)]
                a["shares"] = [other + "_" + s.rsplit("_", 1)[1] for s in a["shares"]]
            elif change == "private" and a.get("type") == "bid":
                a["company"] = PRIVATES[(PRIVATES.index(a["company"]) + 1) % len(PRIVATES)]
            elif change == "hex" and "hex" in a:
                a["hex"] = "J8" if a["hex"] != "J8" else "K3"
            elif change == "tile" and a.get("type") == "lay_tile":
                a["tile"] = "63-9" if not str(a["tile"]).startswith("63-") else "9-9"
            else:
                continue
            yield action_id, change, out


@functools.lru_cache(maxsize=None)
def mutated_refusals(game):
    """Every refusal the one-action changes of a real export make: (game,
    changed action, change, refused action id, round kind, rule, what the
    refusal changed -- empty when nothing)."""
    out = []
    path = next(p for p in EXPORTS_1830 if p.name == game)
    data = json.loads(path.read_text())
    for action_id, change, mutated in variants(data):
        rp = replay_checked(mutated, changed=action_id)
        impure = {id(a): what for a, _, _, what in rp.impure}
        out += [(path.name, action_id, change, a.action_id, kind, rule, impure.get(id(a), []))
                for a, kind, rule in rp.refusals]
    return out


#: the refusals each export's changes make at least, by kind of round: over
#: the four, at least 20 in the auction, 150 in stock rounds, 500 in
#: operating rounds (one test per export, so that they run in parallel)
AT_LEAST = {      # (made when the minima were split: 3/4/223, 21/53/32, 4/96/56, 2/11/217)
    "1830_game_end_bank.json": {"auction": 2, "SR": 3, "OR": 210},
    "26855.json": {"auction": 14, "SR": 48, "OR": 30},
    "29133.json": {"auction": 2, "SR": 88, "OR": 50},
    "rl18xx_game.json": {"auction": 2, "SR": 11, "OR": 210},
}


@pytest.mark.parametrize("game", [p.name for p in EXPORTS_1830])
def test_refusals_change_nothing(game):
    refusals = mutated_refusals(game)
    for kind, at_least in AT_LEAST[game].items():
        made = [r for r in refusals if r[4] == kind]
        assert len(made) >= at_least, f"only {len(made)} refusals in {kind}"
    assert [r for r in refusals if r[6]] == []


def test_the_minimum_refusals_add_up_to_the_sweeps_minimum():
    total = collections.Counter()
    for kinds in AT_LEAST.values():
        total.update(kinds)
    assert set(AT_LEAST) == {p.name for p in EXPORTS_1830}
    assert total["auction"] >= 20 and total["SR"] >= 150 and total["OR"] >= 500


def test_refusals_in_the_illegal_examples_change_nothing():
    kinds = collections.Counter()
    for path in sorted((REPO / "examples").glob("*/illegal/*.18xx")):
        record, _ = load_game(str(path))
        rp = Replay(record, check_purity=True)
        rp.run()
        assert rp.impure == [], path.name
        kinds.update(kind for _, kind, _ in rp.refusals)
    assert kinds["SR"] >= 4 and kinds["OR"] >= 3 and kinds["auction"] >= 1, kinds
