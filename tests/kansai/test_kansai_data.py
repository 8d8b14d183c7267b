"""The Kansai title's draft data (railcheck/titles/kansai/*.yaml; docs/1890.md,
docs/1890-components.md), read with PyYAML.  They hold the drafts to the issue's rule:
every number the rule summary does not give is `unknown` in the components template, and the
ruleset holds no number the summary does not print."""

import re

import pytest
import yaml

from conftest import REPO, SHARED

from railcheck.titles import TITLES, title_class

FOLDER = REPO / "railcheck" / "titles" / "kansai"
SEED = SHARED / "seeds" / "000_2e5c76f543aa15c4.txt"


@pytest.fixture(scope="module")
def rules():
    return yaml.safe_load((FOLDER / "rules.yaml").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def template():
    return yaml.safe_load((FOLDER / "components-template.yaml").read_text(encoding="utf-8"))


def leaves(value, path=""):
    """(YAML path, scalar) for every scalar of a document."""
    if isinstance(value, dict):
        for k, v in value.items():
            yield from leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from leaves(v, f"{path}[{i}]")
    else:
        yield path, value


def test_registered_by_id_and_full_name():
    cls = title_class("kansai")
    assert "1890" in TITLES and cls is TITLES["1890"] and title_class("1890") is cls
    assert title_class("Kansai (title line missing from the summary)") is cls
    assert cls.uses_components


def test_rules_parse_with_the_title_line(rules):
    assert rules["title"] == "1890"
    assert rules["full_name"] == "the railways of Kansai (Keihanshin)"
    assert (FOLDER / "components-template.yaml").exists()


def test_template_marks_every_number_unknown(template):
    values = dict(leaves(template))
    assert values.pop("components_for") == "1890"
    not_unknown = {p: v for p, v in values.items() if v != "unknown"}
    assert not_unknown == {}
    assert len(values) == 172
    # a few of the numbers the issue names, each present and unknown
    for path in ("bank", "cert_limit", "starting_cash", "market.rows", "map.hexes", "map.tiles",
                 "trains.2.price", "trains.D.count", "companies.ARIMA.value",
                 "late_companies.KRTR.value", "corporations.JR.tokens",
                 "map.places.Kobe.revenue.high"):
        assert values[path] == "unknown", path


def test_template_covers_the_ruleset(rules, template):
    """Every train, private, late private and company of the ruleset has its entry in the
    template, and nothing else is there."""
    assert list(template["trains"]) == [t["name"] for t in rules["trains"]]
    assert list(template["trains"]) == ["2", "2+2", "3", "3+3", "4", "5", "6", "D"]
    assert set(template["companies"]) - {"others"} == {c["sym"] for c in rules["companies"]}
    assert set(template["late_companies"]) == {c["sym"] for c in rules["late_companies"]["items"]}
    majors = {c["sym"] for c in rules["corporations"] if c["kind"] != "minor"}
    minors = {c["sym"] for c in rules["corporations"] if c["kind"] == "minor"}
    assert set(template["corporations"]) == majors == {"JR", "KNR", "OMS", "KHN", "NKI", "SAN",
                                                      "HER", "HKY"}
    assert set(template["minors"]) == minors == {"M1", "M2", "M3", "M4", "M5"}
    # the ruleset leaves the numbers to the template: no price, count or value of its own
    for t in rules["trains"]:
        assert "price" not in t and "count" not in t, t["name"]
    for c in rules["companies"] + rules["late_companies"]["items"]:
        assert "value" not in c, c["sym"]


def test_phases_as_the_summary_table(rules):
    got = [(p["name"], p["on"], p["tiles"][-1], p["operating_rounds"],
            (p["train_limit"]["minor"], p["train_limit"]["major"], p["train_limit"]["state"]),
            p["revenue_level"], p["jr_tile_lays"]) for p in rules["phases"]]
    assert got == [
        ("1", None, "yellow", 1, (2, 4, 6), "low", 2),
        ("1+", "2+2", "yellow", 1, (2, 4, 6), "low", 2),
        ("2", "3", "green", 2, (2, 4, 6), "low", 2),
        ("2+", "3+3", "green", 2, (2, 4, 6), "low", 2),
        ("3", "4", "green", 2, (1, 3, 4), "low", 2),
        ("4", "5", "brown", 3, (1, 2, 3), "middle", 1),
        ("5", "6", "brown", 3, (1, 2, 3), "middle", 1),
        ("6", "D", "brown", 3, (1, 2, 3), "high", 1),
    ]
    rusts = {t["name"]: t.get("rusts_on") for t in rules["trains"]}
    assert rusts == {"2": "4", "2+2": "5", "3": "6", "3+3": "6", "4": "D", "5": None,
                     "6": None, "D": None}
    assert [p["name"] for p in rules["phases"] if p.get("company_buy")] == ["2", "2+", "3"]
    assert [p["name"] for p in rules["phases"] if "close_companies" in p.get("events", [])] == ["4"]


def test_knr_conversions(rules):
    knr = rules["knr"]
    conv = {c["minor"]: c for c in knr["conversions"]}
    assert conv["M2"]["from"] == "2" and conv["M2"]["mandatory"] == "2+"
    assert conv["M4"]["from"] == "4" and conv["M4"]["mandatory"] == "5"
    # the summary's two readings of Kanan Railway's window, both kept
    assert conv["M1"]["from"] == ["2", "3"] and conv["M1"]["mandatory"] == ["3", "4"]
    # reserved (the certificates the converting minors' owners receive, K7) + for sale = the
    # ten shares of KNR
    from railcheck.titles.kansai.holdings import KNR_CERTS
    assert [c["receives"] for c in knr["conversions"]] == ["president", [10], [10], [10, 10]]
    assert sum(sum(v) for v in KNR_CERTS.values()) + 10 * knr["for_sale_shares"] == 100
    assert knr["float_cash_par_times"] == 4


def test_ruleset_has_no_invented_number(rules):
    """Every integer in rules.yaml is printed in the summary (the other numbers are the
    components file's)."""
    if not SEED.exists():
        pytest.skip("shared/seeds is not beside the checkout")
    printed = {int(n) for n in re.findall(r"\d+", SEED.read_text(encoding="utf-8"))}
    ints = {p: v for p, v in leaves(rules) if isinstance(v, int) and not isinstance(v, bool)}
    assert ints, "the ruleset has integers"
    assert {p: v for p, v in ints.items() if v not in printed} == {}
    floats = {v for p, v in leaves(rules) if isinstance(v, float)}
    assert floats == {0.5, 2.0}      # "przynajmniej połowy ... nie więcej niż za dwukrotność"


def test_the_ruleset_is_checked_by_the_schemas_1890_section():
    """rules.yaml goes through the schema's 1890 section (``schema.RULES_1890``): a key it
    does not declare, or a value of the wrong kind, is refused with its file, line and path;
    the defaults come from the schema (a conversion without ``when`` has None)."""
    from railcheck.ruleset import RulesetError, _Checker, _load_yaml
    from railcheck.schema import RULES_1890
    text = (FOLDER / "rules.yaml").read_text(encoding="utf-8")
    doc = _load_yaml(text, "rules.yaml")
    data = RULES_1890.check(doc.data, "", _Checker(doc.marks))
    assert data["knr"]["conversions"][0]["when"] is None
    assert data["corporations"][0]["bonus"] is None and data["stock"]["capital_par_times"] == 10
    bad = text.replace("  for_sale_shares: 4", "  par_set_by: M2\n  for_sale_shares: 4")
    doc = _load_yaml(bad, "rules.yaml")
    with pytest.raises(RulesetError) as err:
        RULES_1890.check(doc.data, "", _Checker(doc.marks))
    line = bad.splitlines().index("  par_set_by: M2") + 1
    assert (err.value.line, "unknown key 'par_set_by'" in str(err.value)) == (line, True)
    doc = _load_yaml(text.replace("jr_tile_lays: 1}", "jr_tile_lays: one}", 1), "rules.yaml")
    with pytest.raises(RulesetError, match=r"phases\[6\]\.jr_tile_lays: expected an integer"):
        RULES_1890.check(doc.data, "", _Checker(doc.marks))


def test_the_rules_are_a_shared_ruleset_whose_numbers_may_be_unknown():
    """KansaiRules is a shared ``Ruleset``; the shared reader of the money numbers
    (``ruleset.money_numbers``) gives nothing for a number the components file leaves unknown
    and the numbers of a scenario that gives them."""
    from railcheck.ruleset import Ruleset, load_ruleset, money_numbers
    from railcheck.schema import UNKNOWN
    assert money_numbers(UNKNOWN, UNKNOWN, UNKNOWN, UNKNOWN) == ({}, None, {}, None)
    bare = load_ruleset("1890")
    assert isinstance(bare, Ruleset)
    assert (bare.starting_cash, bare.bank, bare.cert_limit, bare.market_rows) == \
        ({}, None, {}, None)
    assert bare.stock.capital_par_times == 10 and bare.stock.pool_limit == 50
    assert bare.auction.resume_after_resolution == "last_buyer"
    cls = title_class("1890")
    full = load_ruleset("1890", components=str(cls.shipped_components("1890")))
    assert full.bank is not None and full.bank > 0 and full.starting_cash and full.cert_limit
