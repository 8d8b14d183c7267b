"""1860 exports written as notation and read back (`railcheck import`, then
`railcheck validate`): the runs keep the halts they count ("(50; 1 halt)")
and the links between two places of one hex (`F2~F2-F2`), so the notation
replays to the site's scores."""

import json

import pytest
from click.testing import CliRunner

from railcheck.cli import main
from railcheck.notation import parse_game, write_game

from conftest import DATA, site_scores

EXPORTS = DATA / "exports" / "1860"


def import_and_validate(tmp_path, name):
    out = tmp_path / f"{name}.18xx"
    res = CliRunner().invoke(main, ["import", str(EXPORTS / f"{name}.json"), "-o", str(out)])
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(main, ["validate", "--format", "json", str(out)])
    f = json.loads(res.output)["files"][0]
    site = site_scores(json.loads((EXPORTS / f"{name}.json").read_text(encoding="utf-8")))
    return f, site, out.read_text(encoding="utf-8")


@pytest.mark.parametrize("name,end", [("1860_game_end_stock_market", "stock_market"),
                                      ("1860_game_end_bank", "bank"),
                                      ("19354", "nationalization")])
def test_each_real_game_round_trips_clean_to_the_sites_scores(tmp_path, name, end):
    f, site, _ = import_and_validate(tmp_path, name)
    assert [x for x in f["findings"] if x["severity"] == "error"] == []
    assert f["finished"] and f["end_reason"] == end
    assert {r["player"]: r["net_worth"] for r in f["standings"]} == site


def test_a_run_through_a_hex_with_a_halt_is_written_by_its_stops(tmp_path):
    _, _, text = import_and_validate(tmp_path, "1860_game_end_stock_market")
    # F2 holds a city, a town and a halt: the stops go without place numbers
    assert "C&N run 2+1 G5~F4-F2-F2-F2 (50; 1 halt) = 50  #@79" in text
    _, site, _ = import_and_validate(tmp_path, "1860_game_end_bank")
    assert site == {"Player 3": 8462, "Player 1": 7096, "Player 2": 8132}


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


def test_every_clean_random_game_round_trips_clean(tmp_path):
    """The 24 random-play games that replay clean (CLEAN of
    test_corpus_1860): imported (privates sold to the bank as 'sell private
    X for N', halts, links inside a hex) and read back, each replays with no
    error to the site's scores."""
    from test_corpus_1860 import CLEAN, RANDOM, RECEIVERSHIP_SHORT, export_text
    games = sorted(name for name in CLEAN if name in RANDOM)
    assert len(games) == 24
    for name in games:
        text = export_text(name)
        src = tmp_path / f"{name}.json"
        src.write_text(text, encoding="utf-8")
        out = tmp_path / f"{name}.18xx"
        # the one rule of exit codes: 1 for a game with an illegal action
        assert CliRunner().invoke(main, ["import", str(src), "-o", str(out)]).exit_code == \
            (1 if RECEIVERSHIP_SHORT.get(name) else 0), name
        res = CliRunner().invoke(main, ["validate", "--format", "json", str(out)])
        f = json.loads(res.output)["files"][0]
        assert [x["rule"] for x in f["findings"] if x["severity"] == "error"] == \
            ["route.receivership_max"] * len(RECEIVERSHIP_SHORT.get(name, [])), name
        assert {r["player"]: r["net_worth"] for r in f["standings"]} == \
            site_scores(json.loads(text)), name
