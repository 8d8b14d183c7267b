"""The rule catalogue (railcheck/rule_catalogue.py) against the code and
docs/rules.md: every rule id a finding can carry is explained, and every
explained id is used.

The ids are found by scanning railcheck's source for string literals shaped
like a rule id (``"area.name"``: RuleViolation("…", flag("…", rule="…",
("…", f"message") tuples, default ``rule=`` arguments).  A literal of that
shape that is not a rule id goes into NOT_RULES below."""

import re
from pathlib import Path

from click.testing import CliRunner

from railcheck.cli import main
from railcheck.rule_catalogue import CATALOGUE, RULES, markdown
from railcheck.schema import all_key_paths

REPO = Path(__file__).resolve().parent.parent
SOURCE = REPO / "railcheck"

#: literals of the shape area.name in the source that are not rule ids
NOT_RULES = {"notation.lark", "rules.yaml", "board.yaml", "railcheck.findings",
             "railcheck.grammar"} \
    | (set(all_key_paths()) - set(CATALOGUE))      # YAML paths (Title.implements)
FILE_SUFFIXES = (".yaml", ".yml", ".json", ".lark", ".py", ".md", ".txt", ".svg", ".18xx",
                 ".html")

_LITERAL = re.compile(r"""(?<![\w.])["']([a-z][a-z0-9]*\.[a-z][a-z0-9_]*)["']""")


def emitted_ids() -> dict[str, str]:
    """rule id -> the first file:line that names it."""
    found = {}
    for path in sorted(SOURCE.rglob("*.py")):
        if path.name == "rule_catalogue.py":
            continue
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in _LITERAL.finditer(line):
                lit = m.group(1)
                if lit in NOT_RULES or lit.endswith(FILE_SUFFIXES) or \
                        lit.startswith("railcheck."):
                    continue
                found.setdefault(lit, f"{path.relative_to(REPO)}:{n}")
    return found


def test_scanner_finds_the_usual_forms():
    ids = emitted_ids()
    # RuleViolation("…"), flag("…"), rule="…", ("…", f"…"), rule: str = "…"
    for rule in ("stock.cert_limit", "turn.order", "import.malformed", "tile.edge",
                 "board.hex", "route.token", "notation.unknown_name"):
        assert rule in ids, rule


def test_every_emitted_rule_id_is_in_the_catalogue():
    missing = {r: where for r, where in emitted_ids().items() if r not in CATALOGUE}
    assert not missing, (
        "rule ids used in the code but not explained in railcheck/rule_catalogue.py "
        "(add an entry for each, then regenerate docs/rules.md with "
        "'python -m railcheck.rule_catalogue > docs/rules.md'; a literal that is not a "
        "rule id goes into NOT_RULES in this test):\n"
        + "\n".join(f"  {r}  (first at {where})" for r, where in sorted(missing.items())))


def test_every_catalogue_id_is_used_in_the_code():
    unused = sorted(set(CATALOGUE) - set(emitted_ids()))
    assert not unused, ("rule ids in railcheck/rule_catalogue.py that no code emits "
                        "(remove them, or the code lost a check):\n  " + "\n  ".join(unused))


def test_catalogue_entries_are_complete():
    assert len({r.id for r in RULES}) == len(RULES), "an id is in the catalogue twice"
    for r in RULES:
        assert r.summary and r.meaning and r.source and r.example, r.id
        assert r.severity in ("error", "warning", "info"), r.id


def test_docs_rules_md_is_generated_from_the_catalogue():
    doc = (REPO / "docs" / "rules.md").read_text(encoding="utf-8")
    assert doc == markdown(), ("docs/rules.md is out of date: run "
                               "'python -m railcheck.rule_catalogue > docs/rules.md'")


def test_rules_explain():
    res = CliRunner().invoke(main, ["rules", "explain", "trains.limit"])
    assert res.exit_code == 0
    assert res.output.startswith("trains.limit: a purchase over the train limit\n")
    assert "source:   1830 rules (Avalon Hill, 1986): Operating Round, train limit" in res.output
    assert "B&O owns 4 trains; one more makes 5, over the limit of 4 in phase 2" in res.output


def test_rules_explain_unknown_id():
    res = CliRunner().invoke(main, ["rules", "explain", "trains.limt"])
    assert res.exit_code == 2
    assert res.output == ("error: no rule 'trains.limt' (did you mean trains.limit?); "
                          "'railcheck rules list --ids' lists them\n")


def test_rules_list_ids():
    res = CliRunner().invoke(main, ["rules", "list", "--ids"])
    assert res.exit_code == 0
    ids = [line.split()[0] for line in res.output.splitlines()]
    assert ids == sorted(CATALOGUE)
    assert "stock.cert_limit" in ids and "score.site_differs" in ids
