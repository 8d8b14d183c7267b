"""Rulesets: loading, extends/overrides, options, and malformed YAML reported
by file, line and YAML path."""

import shutil
from pathlib import Path

import pytest

from railcheck import ruleset
from railcheck.findings import InputError
from railcheck.ruleset import load_ruleset

RULES = Path(__file__).resolve().parent.parent / "railcheck" / "titles" / "g1830"


@pytest.fixture
def rules_dir(tmp_path, monkeypatch):
    """A copy of 1830's title folder the test may break (the registry's 1830
    points at it), where users' own ruleset files are written too."""
    from railcheck.titles.g1830 import Title1830
    d = tmp_path / "rules"
    shutil.copytree(RULES, d, ignore=shutil.ignore_patterns("__pycache__", "*.py"))
    monkeypatch.setattr(Title1830, "folder", d)
    ruleset._read_doc.cache_clear()
    ruleset._load_cached.cache_clear()
    yield d
    ruleset._read_doc.cache_clear()
    ruleset._load_cached.cache_clear()


def add_title(d: Path, name: str, text: str) -> str:
    """A user's ruleset file; returns the path to load it by."""
    (d / f"{name}.yaml").write_text(text)
    return str(d / f"{name}.yaml")


def test_1830_numbers():
    r = load_ruleset("1830")
    assert (r.bank, r.starting_cash[4], r.cert_limit[4]) == (12000, 600, 16)
    assert [t.price for t in r.trains] == [80, 180, 300, 450, 630, 1100]
    assert [t.count for t in r.trains] == [6, 5, 4, 3, 2, None]
    assert [p.on for p in r.phases] == [None, "3", "4", "5", "6", "D"]   # "on" is not a boolean
    assert [c.sym for c in r.corporations] == ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE",
                                               "NYNH", "B&M"]
    assert len(r.board["hexes"]) == 93


def test_option_overrides_a_train_count():
    assert load_ruleset("1830", ["optional_6_train"]).train_by_name["6"].count == 3


def test_unknown_option_and_title():
    with pytest.raises(InputError) as e:
        load_ruleset("1830", ["optional_7_train"])
    assert "unknown option 'optional_7_train' for 1830 (did you mean optional_6_train?)" in str(e.value)
    with pytest.raises(InputError) as e:
        load_ruleset("1831")
    assert "unknown title '1831' (did you mean 1830?)" in str(e.value)


def test_extends_overrides_only_what_differs(rules_dir):
    add_title(rules_dir, "1830x", 'title: "1830x"\nextends: "1830"\nbank: 15000\n'
                                  'trains: {"2": {count: 7}}\n')
    r = load_ruleset(str(rules_dir / "1830x.yaml"))
    assert r.bank == 15000 and r.extends == "1830"
    assert r.train_by_name["2"].count == 7
    assert r.train_by_name["3"].count == 5          # inherited
    assert r.starting_cash == load_ruleset("1830").starting_cash


def test_broken_yaml_is_located(rules_dir):
    add_title(rules_dir, "bad", 'title: "bad"\nextends: "1830"\nbank: [1, 2\n')
    with pytest.raises(InputError) as e:
        load_ruleset(str(rules_dir / "bad.yaml"))
    assert str(e.value).startswith(f"{rules_dir / 'bad.yaml'}:")
    assert e.value.line is not None and "malformed YAML" in str(e.value)


def test_wrong_type_is_reported_by_yaml_path_and_line(rules_dir):
    add_title(rules_dir, "bad2", 'title: "bad2"\nextends: "1830"\n'
                                 'trains: {"4": {price: lots}}\n')
    with pytest.raises(InputError) as e:
        load_ruleset(str(rules_dir / "bad2.yaml"))
    assert "trains[2].price: expected an integer, got 'lots'" in str(e.value)
    assert e.value.path.endswith("bad2.yaml") and e.value.line == 3


def test_unknown_train_in_a_phase_gets_did_you_mean(rules_dir):
    text = (RULES / "rules.yaml").read_text().replace('{name: "4", on: "4"', '{name: "4", on: "44"')
    (rules_dir / "rules.yaml").write_text(text)
    with pytest.raises(InputError) as e:
        load_ruleset("1830")
    assert "phases[2].on: unknown train '44' (did you mean 4?)" in str(e.value)
    assert e.value.path.endswith("rules.yaml") and e.value.line is not None


def test_certificates_must_add_up(rules_dir):
    add_title(rules_dir, "bad3", 'title: "bad3"\nextends: "1830"\n'
                                 'corporation_defaults: {shares: [20, 10, 10]}\n')
    with pytest.raises(InputError) as e:
        load_ruleset(str(rules_dir / "bad3.yaml"))
    assert "corporations[0].shares: certificates add up to 40%, not 100%" in str(e.value)


def test_extends_cycle(rules_dir):
    add_title(rules_dir, "loopa", 'title: "loopa"\nextends: "loopb.yaml"\n')
    add_title(rules_dir, "loopb", 'title: "loopb"\nextends: "loopa.yaml"\n')
    with pytest.raises(InputError) as e:
        load_ruleset(str(rules_dir / "loopa.yaml"))
    assert "extends itself (cycle: loopa.yaml -> loopb.yaml -> loopa.yaml)" in str(e.value)
