"""A trade-in (O6b) written at another price than the list's less the traded
train's value: flagged once, at its line, by the step's apply; its check
changes nothing (no finding either: a check that is tried and refused, as
the record-following readings try them, must leave no trace)."""

import json

from railcheck.engine import Replay
from railcheck.snapshot import state_snapshot
from railcheck.steps.trains import BuyTrainStep

from conftest import DATA, error_findings, import_changed

GAME = DATA / "exports" / "18Ireland" / "18Ireland_game_end_bankrupt.json"


def changed_record(price: int):
    data = json.loads(GAME.read_text(encoding="utf-8"))
    a = next(x for x in data["actions"] if x["id"] == 929)
    assert (a["type"], a["train"], a["exchange"], a["price"]) == ("buy_train", "D-1", "8H-2", 330)
    a["price"] = price
    return import_changed(data)


def test_a_trade_in_at_another_price_is_one_finding_and_its_check_changes_nothing():
    record = changed_record(300)
    rp = Replay(record, hints=False)
    rp.begin()
    position = next(i for i, a in enumerate(record.actions) if a.action_id == 929)
    for i in range(position):
        rp.play(i)
    g = rp.game
    action = rp.rounds.place(record.actions[position])
    rnd = g.round
    step = next(s for s in rnd.steps if isinstance(s, BuyTrainStep))
    before, n_findings = state_snapshot(g), len(g.findings)
    plan = step.check(rnd.turn, action)
    assert state_snapshot(g) == before and len(g.findings) == n_findings
    assert (plan.price, plan.exchange.name) == (300, "8H")
    assert "costs £330, not £300" in plan.wrong_price
    for i in range(position, len(record.actions)):
        rp.play(i)
    errors = error_findings(rp.end())
    assert [(f.action_id, f.rule) for f in errors] == [(929, "trains.price")]
    assert "a D-train for a 8H costs £330, not £300; taken as paid" in errors[0].message
