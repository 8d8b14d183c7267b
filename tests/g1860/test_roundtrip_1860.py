"""1860 exports written as notation and read back (`railcheck import`, then
`railcheck validate`): the runs keep the halts they count ("(50; 1 halt)")
and the links between two places of one hex (`F2~F2-F2`), so the notation
replays to the site's scores."""

import json

from click.testing import CliRunner

from railcheck.cli import main
from railcheck.notation import parse_game, write_game

from conftest import DATA

EXPORTS = DATA / "exports" / "1860"


def import_and_validate(tmp_path, name):
    out = tmp_path / f"{name}.18xx"
    res = CliRunner().invoke(main, ["import", str(EXPORTS / f"{name}.json"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(out)])
    f = json.loads(res.output)["files"][0]
    data = json.loads((EXPORTS / f"{name}.json").read_text(encoding="utf-8"))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    site = {names[k]: v for k, v in data["result"].items()}
    return f, site, out.read_text(encoding="utf-8")


def test_the_stock_market_game_round_trips_clean(tmp_path):
    f, site, text = import_and_validate(tmp_path, "1860_game_end_stock_market")
    assert [x for x in f["findings"] if x["severity"] == "error"] == []
    assert f["finished"] and f["end_reason"] == "stock_market"
    assert {r["player"]: r["net_worth"] for r in f["standings"]} == site
    # a run through F2's halt and town, written by its stops
    assert "C&N run 2+1 G5~F4-F2-F2-F2 (50; 1 halt) = 50  #@79" in text


def test_the_bank_game_round_trips_to_the_sites_scores(tmp_path):
    f, site, _ = import_and_validate(tmp_path, "1860_game_end_bank")
    assert f["finished"] and f["end_reason"] == "bank"
    assert {r["player"]: r["net_worth"] for r in f["standings"]} == site == \
        {"Player 3": 8462, "Player 1": 7096, "Player 2": 8132}


def test_halts_and_in_hex_links_read_and_write_back():
    text = ("title: 1860\nplayers: A, B\n\n"
            "C&N run 2+1 G5~F4-F2-F2-F2 (50; 1 halt), 3+2 J4~I5-H4 (40; 2 halts), "
            "2+1 I3.0~J4.0 (70) = 160\n")
    record, findings = parse_game(text, "g.18xx")
    assert findings == []
    routes = record.actions[0].routes
    assert [(r.revenue, r.halts) for r in routes] == [(50, 1), (40, 2), (70, None)]
    assert routes[0].path == [["G5", "F4"], ["F4", "F2"], ["F2"], ["F2"]]
    assert write_game(record).splitlines()[-1] == text.splitlines()[-1]
