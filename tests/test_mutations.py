"""One action of a real export made illegal is flagged at that action's id,
with the numbers, and nothing is flagged before it."""

import copy
import json


from railcheck.engine import Replay
from railcheck.importer import filter_actions, import_export

from conftest import EXPORTS_1830

GAMES = {p.stem: p for p in EXPORTS_1830}


def load(name):
    return json.loads(GAMES[name].read_text())


def run(data):
    record, _ = import_export(json.dumps(data), "mutated.json")
    return Replay(record).run()


def counted(data):
    """The actions that count (after undo/redo), as dicts of the export."""
    ids = {a.get("id") for a in filter_actions(data["actions"])}
    return [a for a in data["actions"] if a.get("id") in ids and a["type"] != "undo"]


def mutate(data, action_id, **changes):
    data = copy.deepcopy(data)
    for a in data["actions"]:
        if a.get("id") == action_id:
            a.update(changes)
            return data
    raise AssertionError(f"no action {action_id}")


def first_error(result):
    errors = [f for f in result.findings if f.severity == "error"]
    assert errors, "the mutation was not flagged"
    return errors[0]


def test_share_bought_out_of_turn():
    data = load("26855")
    # action 32 is Player 3 buying NYC_1 in SR 1; let Player 4 (id 330) do it instead
    a = next(a for a in counted(data) if a["id"] == 32)
    assert a["type"] == "buy_shares" and a["entity"] == 117
    res = run(mutate(data, 32, entity=330))
    f = first_error(res)
    assert f.action_id == 32
    assert f.rule == "turn.order"
    assert "Player 4 acted out of turn: it is Player 3's turn" in f.message


def test_bid_under_the_minimum():
    data = load("26855")
    # action 3: Player 3 bids 170 on CA, where Player 1 already bid 165
    res = run(mutate(data, 3, price=167))
    f = first_error(res)
    assert (f.action_id, f.rule) == (3, "auction.min_bid")
    assert "$167 is too low" in f.message and "minimum bid is $170" in f.message


def test_first_bid_must_exceed_face_value():
    data = load("26855")
    res = run(mutate(data, 1, price=160))     # CA's face value is 160
    f = first_error(res)
    assert (f.action_id, f.rule) == (1, "auction.min_bid")
    assert "face value is $160" in f.message and "minimum bid is $165" in f.message


def test_tile_on_a_hex_it_cannot_go():
    data = load("26855")
    lay = next(a for a in counted(data) if a["type"] == "lay_tile" and a["entity_type"] == "corporation")
    # a plain yellow track tile far away from the company's network
    res = run(mutate(data, lay["id"], hex="J8"))
    f = first_error(res)
    assert f.action_id == lay["id"]
    assert f.rule.startswith("tile.")
    assert "J8" in f.message


def test_private_sold_for_more_than_twice_its_value():
    data = load("26855")
    buy = next(a for a in counted(data) if a["type"] == "buy_company")
    res = run(mutate(data, buy["id"], price=2 * 110 + 10))   # MH, face 110
    assert buy["company"] == "MH"
    f = first_error(res)
    assert (f.action_id, f.rule) == (buy["id"], "private.price")
    assert "$55 to $220, not $230" in f.message


def test_sale_of_a_share_the_seller_does_not_own():
    data = load("26855")
    sale = next(a for a in counted(data) if a["type"] == "sell_shares")
    # action 113: Player 3 sells NYC; make it a sale of B&M, which Player 3 has none of
    assert sale["id"] == 113
    res = run(mutate(data, 113, shares=["B&M_3"], percent=10))
    f = first_error(res)
    assert f.action_id == 113
    assert f.rule in ("stock.sell_not_owned", "stock.sell_not_parred")
    assert "B&M" in f.message


def test_revenue_claim_raised_by_ten():
    data = load("1830_game_end_bank")
    run_action = next(a for a in counted(data) if a["type"] == "run_routes" and a["routes"])
    routes = copy.deepcopy(run_action["routes"])
    true_revenue = routes[0]["revenue"]
    routes[0]["revenue"] += 10
    res = run(mutate(data, run_action["id"], routes=routes))
    f = first_error(res)
    assert f.action_id == run_action["id"]
    assert f.rule == "route.revenue"
    assert f"${true_revenue}" in f.message and f"${true_revenue + 10}" in f.message
