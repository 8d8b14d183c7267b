"""The ruleset schema: every key declared once (type, default, enum values),
errors located by file, line, column and YAML path, defaults filled in,
typed private abilities, users' own rulesets (game header and --ruleset),
and the reference in docs/rulesets.md generated from the declarations."""

import json
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from railcheck import ruleset, schema
from railcheck.cli import main
from railcheck.findings import InputError
from railcheck.ruleset import load_ruleset

from conftest import EXPORTS_1830

REPO = Path(__file__).resolve().parent.parent
RULES = REPO / "railcheck" / "titles" / "g1830"
EXAMPLES = REPO / "examples" / "rulesets"
HOUSE = EXAMPLES / "1830-no-price-drop.yaml"
HOUSE_GAME = EXAMPLES / "no-price-drop.18xx"


def load_error(tmp_path, text: str) -> InputError:
    # a new file each time: files are read once per process
    f = tmp_path / f"house{len(list(tmp_path.iterdir()))}.yaml"
    f.write_text(text)
    with pytest.raises(InputError) as e:
        load_ruleset(str(f))
    assert e.value.path == str(f)
    return e.value


def cli(*args):
    res = CliRunner().invoke(main, [str(a) for a in args])
    assert res.exception is None or isinstance(res.exception, SystemExit), res.output
    return res


# ---------------------------------------------------------------------------
# one test per kind of error

def test_unknown_key_in_a_child_ruleset_extending_1830(tmp_path):
    e = load_error(tmp_path, 'title: house\nextends: "1830"\nstock:\n  pool_limt: 40\n')
    assert e.bare == "stock.pool_limt: unknown key 'pool_limt' (did you mean pool_limit?)"
    assert (e.line, e.column) == (4, 3)        # the key itself


def test_unknown_top_level_key_names_its_section(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\n\npool_limit: 40\n')
    assert e.bare == "pool_limit: unknown key 'pool_limit': it belongs under 'stock:'"
    assert (e.line, e.column) == (3, 1)


def test_wrong_type(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\noperating:\n  tile_lays: two\n')
    assert e.bare == "operating.tile_lays: expected an integer, got 'two'"
    assert (e.line, e.column) == (3, 14)
    e = load_error(tmp_path, 'extends: "1830"\nstock: {sold_out_increase: 1}\n')
    assert e.bare == "stock.sold_out_increase: expected true or false, got 1"
    assert e.line == 2


def test_unknown_enum_value_lists_the_allowed_ones(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\noperating:\n  must_buy_train: alwys\n')
    assert e.bare == ("operating.must_buy_train: unknown value 'alwys' (did you mean always?); "
                      "allowed: route, always, never")
    assert (e.line, e.column) == (3, 19)


def test_a_value_railcheck_does_not_implement_is_refused_not_ignored(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\nstock: {president_sales_to_market: true}\n')
    assert e.bare == ("stock.president_sales_to_market: true is not implemented by railcheck "
                      "(supported: false)")


def test_bad_private_abilities(tmp_path):
    # an unknown ability kind
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  MH:\n'
                             '    special: {exchnage: {corporation: NYC}}\n')
    assert e.bare == ("companies[3].special.exchnage: unknown private ability 'exchnage' "
                      "(did you mean exchange?)")
    assert (e.line, e.column) == (4, 15)
    # a missing field (a new private: nothing to inherit)
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  XX:\n    sym: XX\n    value: 50\n'
                             '    revenue: 5\n    special:\n      exchange: {from: [ipo]}\n')
    assert e.bare == "companies[6].special.exchange.corporation: is required"
    assert e.line == 8
    # a field of the wrong type, an unknown field, an unknown corporation
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  CA:\n'
                             '    special: {free_share: {percent: ten}}\n')
    assert e.bare == "companies[4].special.free_share.percent: expected an integer, got 'ten'"
    assert e.line == 4
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  CS:\n'
                             '    special: {tile_lay: {hexs: [B20]}}\n')
    assert e.bare == ("companies[1].special.tile_lay.hexs: unknown key 'hexs' "
                      "(did you mean hexes?)")
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  BO:\n'
                             '    special: {closes_when_bought_train: BNO}\n')
    assert e.bare == ("companies[5].special.closes_when_bought_train: unknown corporation 'BNO' "
                      "(did you mean B&O?)")
    # a hex that is not on the map, a window the ability does not have
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  CS:\n'
                             '    special: {tile_lay: {hexes: [B21]}}\n')
    assert e.bare.startswith("companies[1].special.tile_lay.hexes[0]: unknown hex 'B21'")
    e = load_error(tmp_path, 'extends: "1830"\ncompanies:\n  MH:\n'
                             '    special: {exchange: {window: on_purchase}}\n')
    assert e.bare == ("companies[3].special.exchange.window: on_purchase is not implemented by "
                      "railcheck (supported: any_time, stock_round)")


def test_error_in_the_parent_is_located_in_the_parent_file(tmp_path, monkeypatch):
    from railcheck.titles.g1830 import Title1830
    d = tmp_path / "g1830"
    shutil.copytree(RULES, d, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    text = (d / "rules.yaml").read_text().replace("  pool_limit: 50", "  pool_limit: lots")
    (d / "rules.yaml").write_text(text)
    monkeypatch.setattr(Title1830, "folder", d)
    for cache in (ruleset._read_doc, ruleset._load_cached):
        cache.cache_clear()
    try:
        child = tmp_path / "child.yaml"
        child.write_text('extends: "1830"\nbank: 15000\n')
        with pytest.raises(InputError) as e:
            load_ruleset(str(child))
        line = next(i for i, l in enumerate(text.splitlines(), 1)
                    if l.startswith("  pool_limit: lots"))
        assert e.value.bare == "stock.pool_limit: expected an integer, got 'lots'"
        assert (e.value.path, e.value.line) == (str(d / "rules.yaml"), line)
    finally:
        for cache in (ruleset._read_doc, ruleset._load_cached):
            cache.cache_clear()


def test_a_replaced_section_is_checked_too(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\nauction!: {min_incremnt: 10}\n')
    assert e.bare == ("auction.min_incremnt: unknown key 'min_incremnt' "
                      "(did you mean min_increment?)")
    assert e.line == 2


def test_an_options_change_is_checked_where_it_is_written(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\noptions:\n  optional_6_train:\n'
                             '    set: {trains: {"6": {count: many}}}\n')
    assert e.bare == ("trains[4].count: expected an integer or unlimited, got 'many' "
                      "(in option optional_6_train)")
    assert (e.line, e.column) == (4, 33)


def test_differences_name_top_level_keys(tmp_path):
    e = load_error(tmp_path, 'extends: "1830"\ndifferences: {stokc: "x"}\n')
    assert e.bare.startswith("differences.stokc: unknown value 'stokc' (did you mean stock?)")
    assert (e.line, e.column) == (2, 15)


# ---------------------------------------------------------------------------
# defaults and typed abilities

def test_defaults_are_filled_in(tmp_path):
    f = tmp_path / "bare.yaml"
    f.write_text('extends: "1830"\nstock!: {pool_limit: 40}\noperating!: {}\nend!: {}\n')
    r = load_ruleset(str(f))
    assert r.stock == {"sell_after": "first", "sell_buy_order": "sell_buy_sell",
                       "holding_limit": 60, "pool_limit": 40, "sell_movement": "down_share",
                       "sold_out_increase": True, "sold_out_top_row": "none",
                       "pool_share_dividends": "corporation", "ipo_share_dividends": "none",
                       "next_sr_order": "after_last_to_act", "president_sales_to_market": False,
                       "capitalization": "full", "float_percent": 60,
                       "private_trades_after": "first", "private_trade_is_buy": True,
                       "over_cert_limit": "sell_down",
                       "float_counts_market": True, "must_sell_in_blocks": False,
                       "no_buy_after_sale": True, "trainless_share_value": "full",
                       "no_sale_drop": {"not_operated": False, "after_event": None},
                       "ignore_one_sale_zone": None, "ignore_one_sale_per": "sale",
                       "home_track_on_float": False, "buy_one_certificate": False,
                       "minor_pool_limit": None,
                       "always_market_price": False, "home_station": "first_operation",
                       "minor_auction": None, "no_minor_started_closes_top": False,
                       "majors_par_from_phase": None, "major_home": None}
    assert r.operating["tokens_per_turn"] == 1 and r.operating["must_buy_train"] == "route"
    assert r.operating["dividend_kinds"] == ["payout", "withhold"]
    assert r.end == {"bank": None, "bankrupt": None, "stock_market": None,
                     "nationalization": None}      # no end condition unless written
    # the keys the schema does not write into the data (fill: false) have their
    # defaults too when read
    assert r.setup == {"home_stations_at_start": False, "start_station": "home",
                       "deal_companies": False,
                       "protected_companies": [], "keep_companies": None,
                       "protected_minor": None, "remove_minors": 0, "rand": None}
    assert "protected_companies" not in r.raw["setup"]
    base = load_ruleset("1830")
    assert base.auction["price_drop_on_all_pass"] == 5 and base.auction["opening_bid"] == "face"
    assert base.end == {"bank": "full_or", "bankrupt": "immediate", "stock_market": None,
                        "nationalization": None}
    assert base.company_sales == {"min_factor": 0.5, "max_factor": 2.0}


def test_1830_private_abilities_typed():
    r = load_ruleset("1830")
    ab = {c.sym: c.abilities for c in r.companies}
    assert ab["SV"] == {}
    cs = ab["CS"]["tile_lay"]
    assert (cs.window, cs.count, cs.params["hexes"], cs.params["extra"]) == \
        ("owning_company_turn", 1, ["B20"], True)
    dh = ab["DH"]["teleport"]
    assert (dh.window, dh.count, dh.params["tiles"], dh.params["extra"]) == \
        ("owning_company_turn", 1, ["57"], False)
    mh = ab["MH"]["exchange"]
    assert (mh.window, mh.count, mh.params) == \
        ("any_time", 1, {"corporation": "NYC", "from": ["ipo", "pool"]})
    ca = ab["CA"]["free_share"]
    assert (ca.window, ca.params) == ("on_purchase", {"corporation": "PRR", "percent": 10,
                                                      "president": False})
    assert ab["BO"]["free_share"].params["president"] is True
    assert ab["BO"]["closes_when_bought_train"].params == {"value": "B&O"}
    assert ab["BO"]["no_sale_to_corporation"].window == "always"
    # the dict shape the rounds read stays
    assert r.company_by_sym["MH"].special["exchange"]["corporation"] == "NYC"
    assert r.company_by_sym["BO"].special["closes_when_bought_train"] == "B&O"


# ---------------------------------------------------------------------------
# users' rulesets: header, --ruleset, the report, rules show

def test_a_ruleset_named_by_the_game_header():
    res = cli("validate", HOUSE_GAME)
    assert res.exit_code == 0, res.output
    assert res.output.splitlines()[0].startswith(
        f"{HOUSE_GAME}: 1830-no-price-drop (ruleset {HOUSE}, extends 1830), 3 players, 8 actions")
    doc = json.loads(cli("validate", "--format", "json", HOUSE_GAME).output)
    assert doc["files"][0]["ruleset"] == {"name": "1830-no-price-drop", "path": str(HOUSE),
                                          "extends": "1830"}


def test_the_same_game_under_the_published_rule(tmp_path):
    plain = tmp_path / "plain.18xx"
    plain.write_text("".join(l for l in HOUSE_GAME.read_text().splitlines(keepends=True)
                             if not l.startswith("ruleset:")))
    res = cli("validate", "-q", plain)
    assert res.exit_code == 1
    assert (f"{plain}:14:1: error [auction.buy_price] SV is the cheapest private and is bought "
            f"at its price $15, not $20") in res.output
    # --ruleset plays it with the house rule
    res = cli("validate", "-q", "--ruleset", HOUSE, plain)
    assert res.exit_code == 0, res.output
    assert "1830-no-price-drop (ruleset" in res.output
    res = cli("score", "--ruleset", HOUSE, plain)
    assert res.exit_code == 0
    assert res.output.startswith(f"{plain}: 1830-no-price-drop (ruleset {HOUSE}, extends 1830)")
    assert "$780" in res.output          # Alice paid $20 for SV
    res = cli("show", "--ruleset", HOUSE, plain)
    assert res.exit_code == 0 and "Alice" in res.output


def test_ruleset_option_on_an_export(tmp_path):
    f = tmp_path / "same.yaml"
    f.write_text('extends: "1830"\nfull_name: "1830 as published, by another name"\n')
    res = cli("validate", "-q", "--ruleset", f, EXPORTS_1830[0])
    assert res.exit_code == 0, res.output
    assert f"(ruleset {f}, extends 1830)" in res.output


def test_header_ruleset_errors_are_located(tmp_path):
    game = tmp_path / "g.18xx"

    def validated_under(ruleset: str) -> str:
        """The output of validating a short game whose header names ``ruleset``,
        refused (exit code 2)."""
        game.write_text(f"title: 1830\nplayers: A, B, C\nruleset: {ruleset}\n\nauction\nA pass\n")
        res = cli("validate", game)
        assert res.exit_code == 2
        return res.output
    assert (f"{game}:3:1: ruleset file 'nowhere.yaml' not found (looked for "
            f"{tmp_path / 'nowhere.yaml'})") in validated_under("nowhere.yaml")
    (tmp_path / "v57.yaml").write_text('extends: "1857"\n')
    assert (f"{game}:3:1: the ruleset {tmp_path / 'v57.yaml'} is a variant of 1857, but the "
            f"game's title is 1830") in validated_under("v57.yaml")
    (tmp_path / "bad.yaml").write_text('extends: "1830"\nstock: {pool_limt: 40}\n')
    assert f"{tmp_path / 'bad.yaml'}:2:9: stock.pool_limt: unknown key" in \
        validated_under("bad.yaml")


def test_rules_show_a_file():
    res = cli("rules", "show", HOUSE)
    assert res.exit_code == 0, res.output
    lines = res.output.splitlines()
    assert lines[:3] == ["1830-no-price-drop: 1830, house rule: the Schuylkill Valley keeps its "
                         "price when everybody passes", f"ruleset file {HOUSE}", "extends 1830"]
    # the ruleset's note, then the values it changes, old -> new
    assert lines[-1] == ("  - auction: everybody passed while SV is unsold: its price stays $20 "
                         "(1830: it drops by $5) (auction.price_drop_on_all_pass: 5 -> 0)")


# ---------------------------------------------------------------------------
# the reference in the docs is the schema's

def test_docs_hold_the_generated_reference():
    doc = (REPO / "docs" / "rulesets.md").read_text()
    assert schema.schema_reference() in doc
    paths = schema.all_key_paths()
    assert "stock.pool_limit" in paths and "special.exchange.window" in paths
    for path in paths:
        assert f"`{path}`" in doc, path
    for kind in schema.ABILITIES:
        assert f"#### `{kind}`" in doc


def test_every_key_the_builtin_titles_use_is_declared():
    """1830 and 1857 load; every key they write is in the schema (or the
    loader would have refused it), and the reference lists it."""
    paths = set(schema.all_key_paths())
    for title in ("1830", "1857"):
        data, _ = ruleset._resolve(title)
        for key in data:
            assert key in paths, key
        for section in ("stock", "operating", "auction", "end", "company_sales"):
            for key in data.get(section) or {}:
                assert f"{section}.{key}" in paths, (section, key)
