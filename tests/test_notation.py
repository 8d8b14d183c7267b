"""Tests of the game notation: grammar, binder, writer (railcheck.notation)."""

from __future__ import annotations

import dataclasses
import random
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # the development tree, not installed
    sys.path.insert(0, str(ROOT))

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from railcheck import notation  # noqa: E402
from railcheck.actions import (  # noqa: E402
    Bankrupt, Bid, BuyCompany, BuyShares, BuyTrain, Checkpoint, Choose, DiscardTrain,
    Dividend, Exchange, GameRecord, LayTile, Par, Pass, PlaceToken, RoundMarker, Route,
    RunRoutes, Sale, SellShares, Stop,
)
from railcheck.findings import InputError  # noqa: E402
from railcheck.notation import Names, parse_game, parse_header, write_game  # noqa: E402

CORPORATIONS = ["PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
COMPANIES = ["SV", "CS", "DH", "MH", "CA", "BO"]
TRAINS = ["2", "3", "4", "5", "6", "D"]
NAMES = Names([], CORPORATIONS, COMPANIES, TRAINS)
HEADER = 'title: 1830\nplayers: Alice, Bob, "Player 3"\n\n'

LOCATION = ("line", "column", "text", "action_id")


def parse(body: str, names=NAMES, path="game.18xx"):
    return parse_game(HEADER + body, path, names)


def one(line: str, names=NAMES):
    """The single action of one line (no findings)."""
    record, findings = parse(line + "\n", names)
    assert findings == []
    assert len(record.actions) == 1, record.actions
    return record.actions[0]


def bare(action):
    """An action without where it came from, for comparisons."""
    return dataclasses.replace(action, **{k: None for k in ("line", "column", "action_id")},
                               text="")


def syntax_error(body: str, names=NAMES) -> InputError:
    """The fatal error of a game that cannot be read at all."""
    with pytest.raises(InputError) as info:
        parse(body, names)
    return info.value


def syntax_findings(body: str, names=NAMES):
    """The findings of ``body`` followed by a good line, which must be kept:
    a line that cannot be read is skipped, the rest of the game is read."""
    record, findings = parse(body + "Bob pass\n", names)
    assert record.actions and bare(record.actions[-1]) == bare(Pass(actor="Bob"))
    return findings


# --------------------------------------------------------------------------
# every verb form

VERBS = [
    ("Alice pass", Pass(actor="Alice")),
    ("Alice bid CA 165", Bid(actor="Alice", company="CA", price=165)),
    ("Alice buy SV", Bid(actor="Alice", company="SV", price=None)),
    ("Alice choose CS", Choose(actor="Alice", company="CS", price=None)),
    ("Alice choose CS 45", Choose(actor="Alice", company="CS", price=45)),
    ("Alice par PRR 67", Par(actor="Alice", corporation="PRR", price=67)),
    ("Alice buy PRR", BuyShares(actor="Alice", corporation="PRR", count=1)),
    ("Alice buy 2 PRR", BuyShares(actor="Alice", corporation="PRR", count=2)),
    ("Alice buy PRR ipo", BuyShares(actor="Alice", corporation="PRR", source="ipo")),
    ("Alice buy 3 B&O pool", BuyShares(actor="Alice", corporation="B&O", count=3, source="pool")),
    ("Alice buy 20% PRR", BuyShares(actor="Alice", corporation="PRR", percent=20)),
    ("Alice buy 20% PRR pool", BuyShares(actor="Alice", corporation="PRR", percent=20,
                                         source="pool")),
    ("Alice sell PRR", SellShares(actor="Alice", sales=[Sale(corporation="PRR")])),
    ("Alice sell 2 PRR, B&O, 20% C&O",
     SellShares(actor="Alice", sales=[Sale(corporation="PRR", count=2), Sale(corporation="B&O"),
                                      Sale(corporation="C&O", percent=20)])),
    ("MH exchange NYC", Exchange(actor="MH", corporation="NYC")),
    ("MH exchange NYC pool", Exchange(actor="MH", corporation="NYC", source="pool")),
    ("PRR lay 57 H10", LayTile(actor="PRR", tile="57", hex="H10")),
    ("PRR lay X9 h10 r2", LayTile(actor="PRR", tile="X9", hex="H10", rotation=2)),
    ("PRR lay 619 H10 r0", LayTile(actor="PRR", tile="619", hex="H10", rotation=0)),
    ("PRR token H12", PlaceToken(actor="PRR", hex="H12")),
    ("PRR token H12.1", PlaceToken(actor="PRR", hex="H12", city=1)),
    ("DH token F16 for PRR", PlaceToken(actor="DH", hex="F16", corporation="PRR")),
    ("PRR run none", RunRoutes(actor="PRR", routes=[], revenue=None)),
    ("PRR run none = 0", RunRoutes(actor="PRR", routes=[], revenue=0)),
    ("PRR run 2 H12-H10",
     RunRoutes(actor="PRR", routes=[Route(train="2", stops=[Stop(hex="H12"), Stop(hex="H10")])])),
    ("PRR run 2 H12-H10 (30), 3 I15~I17~I19-H18 (80) = 110",
     RunRoutes(actor="PRR", revenue=110, routes=[
         Route(train="2", stops=[Stop(hex="H12"), Stop(hex="H10")], revenue=30),
         Route(train="3", stops=[Stop(hex="I15"), Stop(hex="I19"), Stop(hex="H18")],
               path=[["I15", "I17", "I19"], ["I19", "H18"]], revenue=80)])),
    ("PRR run D E5.1-H10.0-I15 = 90",
     RunRoutes(actor="PRR", revenue=90, routes=[
         Route(train="D", stops=[Stop(hex="E5", city=1), Stop(hex="H10", city=0),
                                 Stop(hex="I15")])])),
    ("PRR payout", Dividend(actor="PRR", kind="payout")),
    ("PRR withhold", Dividend(actor="PRR", kind="withhold")),
    ("PRR half", Dividend(actor="PRR", kind="half")),
    ("PRR buy train 3", BuyTrain(actor="PRR", train="3")),
    ("PRR buy train 3 from depot", BuyTrain(actor="PRR", train="3", source="depot")),
    ("PRR buy train 3 from pool for 150", BuyTrain(actor="PRR", train="3", source="pool",
                                                   price=150)),
    ("PRR buy train 4 from B&O for 1", BuyTrain(actor="PRR", train="4", source="B&O", price=1)),
    ("PRR buy train D exchange 4", BuyTrain(actor="PRR", train="D", exchange="4")),
    ("PRR buy train D for 800 exchange 5 from depot",
     BuyTrain(actor="PRR", train="D", source="depot", price=800, exchange="5")),
    ("PRR buy private DH for 140", BuyCompany(actor="PRR", company="DH", price=140)),
    ("PRR buy private DH from Alice for 140",
     BuyCompany(actor="PRR", company="DH", price=140, seller="Alice")),
    ("PRR buy private DH for 140 from Alice",
     BuyCompany(actor="PRR", company="DH", price=140, seller="Alice")),
    ("PRR discard 2", DiscardTrain(actor="PRR", train="2")),
    ("Alice bankrupt", Bankrupt(actor="Alice")),
    ('"Player 3" pass', Pass(actor="Player 3")),
    ('"Player 3" buy 2 NYC', BuyShares(actor="Player 3", corporation="NYC", count=2)),
    ("check Alice cash 120", Checkpoint(subject="Alice", field="cash", value=120)),
    ("check PRR treasury 340", Checkpoint(subject="PRR", field="treasury", value=340)),
    ("check PRR price 67", Checkpoint(subject="PRR", field="price", value=67)),
    ("check Bob worth 1200", Checkpoint(subject="Bob", field="worth", value=1200)),
    ("check PRR trains 2,3,3", Checkpoint(subject="PRR", field="trains", value=["2", "3", "3"])),
    ("check PRR trains none", Checkpoint(subject="PRR", field="trains", value=[])),
    ('check PRR president "Player 3"',
     Checkpoint(subject="PRR", field="president", value="Player 3")),
    ("auction", RoundMarker(kind="auction", number=())),
    ("auction 1", RoundMarker(kind="auction", number=(1,))),
    ("SR 1", RoundMarker(kind="SR", number=(1,))),
    ("OR 2.3", RoundMarker(kind="OR", number=(2, 3))),
    ("MR 1.1", RoundMarker(kind="MR", number=(1, 1))),
]


@pytest.mark.parametrize("line, expected", VERBS, ids=[v[0] for v in VERBS])
def test_verb_forms(line, expected):
    action = one(line)
    assert bare(action) == bare(expected)
    assert action.text == line
    assert action.line == 4


@pytest.mark.parametrize("line, expected", VERBS, ids=[v[0] for v in VERBS])
def test_verb_forms_round_trip(line, expected):
    record, _ = parse(line + "\n")
    again, findings = parse_game(write_game(record), "again.18xx", NAMES)
    assert findings == []
    assert [bare(a) for a in again.actions] == [bare(a) for a in record.actions]


def test_keywords_and_names_are_case_insensitive():
    assert bare(one("alice PASS")) == bare(Pass(actor="Alice"))
    assert bare(one("Alice Buy 2 prr Pool")) == bare(
        BuyShares(actor="Alice", corporation="PRR", count=2, source="pool"))
    assert bare(one("prr Buy Train d From Depot")) == bare(
        BuyTrain(actor="PRR", train="D", source="depot"))
    assert bare(one("or 1.2")) == bare(RoundMarker(kind="OR", number=(1, 2)))


def test_route_path_semantics():
    routes = one("PRR run 4 A1~B2-C3~D4~E5, 2 A1~B2").routes
    assert routes[0].stops == [Stop(hex="A1"), Stop(hex="B2"), Stop(hex="E5")]
    assert routes[0].path == [["A1", "B2"], ["B2", "C3", "D4", "E5"]]
    assert routes[1].path == [["A1", "B2"]]
    assert one("PRR run 2+1 A1-B2-C3", names=None).routes[0].train == "2+1"


def test_without_names_only_players_are_checked():
    record, findings = parse("Alice buy SV\nAlice buy XYZ\nPRR buy train 9\n", names=None)
    assert findings == []
    assert [bare(a) for a in record.actions] == [
        bare(BuyShares(actor="Alice", corporation="SV")),
        bare(BuyShares(actor="Alice", corporation="XYZ")),
        bare(BuyTrain(actor="PRR", train="9")),
    ]
    _, findings = parse("check PRR president Alcie\nprr pass\n", names=None)
    assert [f.message for f in findings] == [
        "unknown player 'Alcie' (did you mean Alice?); taken as Alice"]


def test_tiles_are_checked_when_known():
    names = Names([], CORPORATIONS, COMPANIES, TRAINS, tiles=["57", "8", "9"])
    _, findings = parse("PRR lay 58 H10\nPRR lay 57 H10\n", names=names)
    assert [(f.line, f.column) for f in findings] == [(4, 9)]
    assert findings[0].message.startswith("unknown tile '58' (did you mean")


# --------------------------------------------------------------------------
# locations, ids, comments

def test_lines_columns_and_text():
    text = ("# a game\n"
            "title: 1830   # the title\n"
            "\n"
            "players: Alice, Bob\n"
            "auction\n"
            "   Alice   bid  CA 165   # bid\n"
            "\tBob pass\n")
    record, findings = parse_game(text, "g.18xx", NAMES)
    assert findings == []
    assert record.tag_locations == {"title": (2, 1), "players": (4, 1)}
    marker, bid, pas = record.actions
    assert (marker.line, marker.column, marker.text) == (5, 1, "auction")
    assert (bid.line, bid.column, bid.text) == (6, 4, "Alice   bid  CA 165")
    assert (pas.line, pas.column, pas.text) == (7, 2, "Bob pass")


def test_action_ids():
    record, _ = parse("Alice pass #@123\nBob pass  # note #@7\nAlice pass # no id\n"
                      "Bob pass #@9 the ninth\n")
    assert [a.action_id for a in record.actions] == [123, 7, None, 9]
    # a malformed id is a finding; the action is kept without an id
    record, findings = parse("Alice pass #@x\n#@12\nBob pass\n")
    assert [(f.rule, f.line, f.column, f.message) for f in findings] == [
        ("notation.syntax", 4, 14, "expected an action id (a number) after '#@'"),
        ("notation.syntax", 5, 1, "an action id '#@N' must follow an action"),
    ]
    assert [(a.actor, a.line, a.action_id) for a in record.actions] == [
        ("Alice", 4, None), ("Bob", 6, None)]


def test_hash_inside_quotes_is_not_a_comment():
    text = 'title: 1830\nplayers: "A#1", Bob\nsite: "x#y"\n"A#1" pass #@4\n'
    record, findings = parse_game(text, "g", NAMES)
    assert findings == []
    assert record.players == ["A#1", "Bob"]
    assert record.tags["site"] == "x#y"
    assert (record.actions[0].actor, record.actions[0].action_id) == ("A#1", 4)


def test_crlf_bom_and_bytes():
    text = "\ufefftitle: 1830\r\nplayers: Alice, Bob\r\nAlice pass\r\nBob pass #@3\r\n"
    record, _ = parse_game(text, "g", NAMES)
    assert [(a.actor, a.text, a.action_id) for a in record.actions] == [
        ("Alice", "Alice pass", None), ("Bob", "Bob pass", 3)]
    record2, _ = parse_game(text.encode("utf-8"), "g", NAMES)
    assert [bare(a) for a in record2.actions] == [bare(a) for a in record.actions]
    with pytest.raises(InputError, match="not UTF-8"):
        parse_game(b"title: 1830\n\xff\xfe", "g", NAMES)


# --------------------------------------------------------------------------
# header

def test_header_tags():
    text = ("title: 1830\n"
            "players: Alice, \"Player 2\", Đorđe, O'Neil\n"
            "variant: standard\n"
            "options: a, b ,c\n"
            "seed: 42\n"
            "result: Alice 5400, \"Player 2\" 4100, Đorđe 12, O'Neil 0\n"
            "end: bank\n"
            "my-note: anything goes: really\n"
            "Alice pass\n"
            "title2: not a header\n")
    record, findings = parse_game(text, "g", NAMES)
    assert [(f.rule, f.line, f.column, f.message) for f in findings] == [
        ("notation.syntax", 10, 1, "header line 'title2:' after the first round marker or "
                                   "action: move it to the top of the file")]
    assert "title2" not in record.tags and len(record.actions) == 1
    text = text.replace("title2: not a header\n", "")
    record, _ = parse_game(text, "g", NAMES)
    assert record.title == "1830"
    assert record.players == ["Alice", "Player 2", "Đorđe", "O'Neil"]
    assert record.options == ["a", "b", "c"]
    assert record.tags["my-note"] == "anything goes: really"
    assert record.tags["seed"] == "42"
    assert record.expected_result == {"Alice": 5400, "Player 2": 4100, "Đorđe": 12, "O'Neil": 0}
    assert record.expected_end_reason == "bank"
    tags, where = parse_header(text, "g")
    assert tags == record.tags
    assert where["variant"] == (3, 1)
    assert where == record.tag_locations


def test_parse_header_reads_only_the_header():
    tags, _ = parse_header("title: 1830\nplayers: A, B\nOR 1.1\nthis is not parsed ((\n", "g")
    assert tags == {"title": "1830", "players": "A, B"}


@pytest.mark.parametrize("text, message", [
    ("players: A, B\nA pass\n", "missing header line 'title:'"),
    ("title: 1830\nA pass\n", "missing header line 'players:'"),
    ("title: 1830\n", "missing header line 'players:'"),
    ("", "missing header line 'title:'"),
    ("title: 1830\ntitle: 1846\nplayers: A\n", "duplicate header 'title'"),
    ("Title: 1830\nplayers: A\n", "write 'title:'"),
    ("title:\nplayers: A\n", "expected the title"),
    ("title: 1830\nplayers: Alice Smith, Bob\n", 'quote names with spaces, "Alice Smith"'),
    ("title: 1830\nplayers: A, B,\n", "expected a name after ','"),
    ("title: 1830\nplayers: A, A\n", "listed twice"),
    ("title: 1830\nplayers: \"A\n", "unclosed quote"),
    ('title: 1830\nplayers: Al "X" Y, Bob\n',
     '2:10: bad name \'Al "X" Y\' in the players list: quote it and write each \'"\' inside '
     'twice, "Al ""X"" Y"'),
    ('title: 1830\nplayers: "Al "X" Y", Bob\n',
     '2:15: expected \',\' between names in the players list (a \'"\' inside a quoted name is '
     'written twice: "Al ""X"" Y")'),
    ("title: 1830\nplayers: Zoe\u0308, Bob\n",
     "2:10: bad name 'Zoe\u0308' in the players list: names are letters, digits and _ - . ' &; "
     "quote any other, \"Zoe\u0308\""),
    ("titel: 1830\nplayers: A\nA pass\n",
     "3:1: missing header line 'title:' before the first action (like 'title: 1830'); "
     "'titel:' on line 1 is not 'title:'"),
    ("title 1830\nplayers: A\nA pass\n",
     "3:1: missing header line 'title:' before the first action (like 'title: 1830'); "
     "line 1 could not be read: expected a verb (pass, bid"),
])
def test_header_errors(text, message):
    with pytest.raises(InputError) as info:
        parse_game(text, "h.18xx", NAMES)
    assert message in str(info.value)
    with pytest.raises(InputError):
        parse_header(text, "h.18xx")


# --------------------------------------------------------------------------
# unknown names: findings, the action dropped (or, for a plain typo of one
# name, taken with that name), the rest kept

def test_unknown_names_become_findings():
    record, findings = parse(
        "Alcie pass\n"
        "Alice buy PRX\n"
        "Alice par PRX 67\n"
        "Alice bid SW 30\n"
        "Alice buy 2 SV\n"
        "PRR buy train 7\n"
        "PRR buy train 3 from NYX\n"
        "check Bobb cash 10\n"
        "check PRR president Carol\n"
        "Bob pass #@77\n")
    messages = [(f.line, f.column, f.message) for f in findings]
    assert messages == [
        (4, 1, "unknown player, corporation or private 'Alcie' (did you mean Alice?); "
               "taken as Alice"),
        (5, 11, "unknown corporation or private 'PRX' (did you mean PRR?)"),
        (6, 11, "unknown corporation 'PRX' (did you mean PRR?)"),
        (7, 11, "unknown private 'SW' (did you mean SV?)"),
        (8, 13, "unknown corporation 'SV' ('SV' is a private: write 'buy SV' without a count "
                "or source)"),
        (9, 15, "unknown train type '7'"),
        (10, 22, "unknown corporation 'NYX' (did you mean NYC?)"),
        (11, 7, "unknown player or corporation 'Bobb' (did you mean Bob?); taken as Bob"),
        (12, 21, "unknown player 'Carol'"),
    ]
    assert all(f.rule == "notation.unknown_name" and f.severity == "error" for f in findings)
    assert findings[0].text == "Alcie pass"
    # 'Alcie' and 'Bobb' are typos of one name each (a letter swapped,
    # doubled): their lines stand; PRX (PRR or NYC?), SW and NYX do not
    assert [bare(a) for a in record.actions] == [
        bare(Pass(actor="Alice")),
        bare(Checkpoint(subject="Bob", field="cash", value=10)),
        bare(Pass(actor="Bob"))]
    assert record.actions[2].action_id == 77


# --------------------------------------------------------------------------
# syntax errors: a finding on the line and column, the line skipped

#: the start of the message of a line with no verb where one is expected
EXPECTED_VERB = ("expected a verb (pass, bid, buy, choose, par, sell, exchange, lay, token, run, "
                 "payout, withhold, half, discard, assign, propose, vote, bankrupt, convert, "
                 "privatise, ignore)")

SYNTAX_ERRORS = [
    ("PRR lay", 8, "expected a tile number (like 57) after 'lay', but the line ends"),
    ("PRR lay 57", 11, "expected a hex (like H10) after '57', but the line ends"),
    ("Alice passes", 7, f"{EXPECTED_VERB} after 'Alice', found 'passes' (did you mean pass?)"),
    ("Alice pass now", 12, "expected the end of the line after 'pass', found 'now'"),
    ("Alice buy 3", 12, "expected a corporation after '3', but the line ends "
                        "(to buy a train, write 'buy train TYPE')"),
    ("Alice bid CA", 13, "expected a price after 'CA', but the line ends"),
    ("PRR run 2 H10", 14, "expected '-' or '~' after 'H10', but the line ends"),
    ("PRR run 2 H10-", 15, "expected a hex (like H10 or H10.1) after 'H10-', but the line ends"),
    ("PRR run 2 H1-H2 (x)", 18, "expected the train's revenue after '(', found 'x'"),
    ("PRR run", 8, "expected 'none' or a train type (like 2, 3 or D) after 'run', "
                   "but the line ends"),
    ("PRR buy train 3 from", 21, "expected a corporation, 'depot' or 'pool' after 'from', "
                                 "but the line ends"),
    ("check Alice", 12, "expected a field (cash, treasury, price, worth, trains, president) "
                        "after 'Alice', but the line ends"),
    ("check Alice cash lots", 18, "expected an amount of money after 'cash', found 'lots'"),
    ("OR", 3, "expected ':' or a round number (like 1 or 2.1) after 'OR', but the line ends"),
    ('"Alice pass', 1, "unclosed quote: a quoted name needs a closing '\"'"),
    ("@@@", 1, "expected a player, corporation or private followed by a verb, a round marker "
               "(auction, SR 1, OR 1.1), a checkpoint ('check ...') or a header line "
               "'key: value', found '@'"),
    ("PRR lay 57 H10 r6", 16, "rotation 'r6' out of range: r0 to r5"),
    ("PRR run 2 H1~H2.1~H3", 14, "'H2.1' is passed through ('~' after it): write the hex "
                                 "without a city index, or '-' after it to stop there"),
    ("PRR buy private DH", 19, "expected 'for PRICE' in 'buy private' (the price paid)"),
    ("PRR buy train 3 for 1 for 2", 23, "'for' given twice"),
    ("Alice buy 0 PRR", 11, "a number of shares must be at least 1"),
    ('"Al "X" Y" pass', 6, f"{EXPECTED_VERB} after "
                           "'\"Al \"', found 'X' (a '\"' inside a quoted name is written twice, "
                           "like \"Al \"\"X\"\" Y\")"),
    ("Alice \x00 pass", 7, f"{EXPECTED_VERB} after 'Alice', found '?'"),
    # misspelt keywords: a suggestion
    ("PRR payot", 5, f"{EXPECTED_VERB} after 'PRR', found 'payot' (did you mean payout?)"),
    ("Alice pra PRR 67", 7, "found 'pra' (did you mean par?)"),
    ("PRR tokn H12", 5, "found 'tokn' (did you mean token?)"),
    ("Alice buys PRR", 7, "found 'buys' (did you mean buy?)"),
    ("PRR pays", 5, "found 'pays' (did you mean pass or payout?)"),
    ("check PRR tresury 40", 11, "expected a field (cash, treasury, price, worth, trains, "
                                 "president) after 'PRR', found 'tresury' (did you mean "
                                 "treasury?)"),
    ("Alice buy 2 PRR pol", 17, "expected 'ipo', 'pool' or the end of the line after 'PRR', "
                                "found 'pol' (did you mean pool or ipo?)"),
    # the misspelt word is read as a name: the finding points at it
    ("NYC buy trian 3", 9, "unknown word 'trian' (did you mean train?)"),
    ("chek Alice cash 5", 1, "unknown word 'chek' (did you mean check?)"),
    # a missing argument the parser only notices later: pointed at where it belongs
    ("B&O run I15-J14 = 50", 9, "missing a train type before 'I15-J14' "
                                "(like 'B&O run 2 I15-J14 = 50')"),
    ("PRR run 2 A1-B2, C3-D4", 18, "missing a train type before 'C3-D4' "
                                   "(like 'PRR run 2 A1-B2, 2 C3-D4')"),
    ("PRR lay H10", 9, "missing a tile number before 'H10' (like 'PRR lay 57 H10')"),
    ("PRR buy train from depot", 15, "missing a train type before 'from' "
                                     "(like 'PRR buy train 2 from depot')"),
]


@pytest.mark.parametrize("line, column, message", SYNTAX_ERRORS, ids=[e[0] for e in SYNTAX_ERRORS])
def test_syntax_errors_are_findings(line, column, message):
    findings = syntax_findings(line + "\n")
    assert len(findings) == 1, findings
    f = findings[0]
    assert (f.rule, f.severity, f.line, f.column) == ("notation.syntax", "error", 4, column)
    assert message in f.message, f.message
    if len(message) > 40 and message.startswith(("expected", "unknown", "missing")):
        assert f.message == message
    assert f.text == line
    for word in ("PASS", "NAME", "$END", "Token(", "UnexpectedToken"):
        assert word not in f.message


def test_every_bad_line_is_reported_and_the_rest_is_read():
    record, findings = parse("Alice pas\nBob bid CA 165\nPRR lay\nAlice pass #@9\n"
                             "PRR wat\n")
    assert [(f.line, f.column, f.action_id) for f in findings] == [(4, 7, None), (6, 8, None),
                                                                   (8, 5, None)]
    assert [(type(a).__name__, a.line, a.action_id) for a in record.actions] == [
        ("Bid", 5, None), ("Pass", 7, 9)]


def test_syntax_error_keeps_the_action_id():
    _, findings = parse("Alice pas #@31\n")
    assert [(f.line, f.action_id, f.text) for f in findings] == [(4, 31, "Alice pas")]


def test_fatal_errors_show_the_line_and_a_caret():
    with pytest.raises(InputError) as info:
        parse_game("title: 1830\nplayers: Alice, Alice\n", "h.18xx", NAMES)
    error = info.value
    assert (error.path, error.line, error.column) == ("h.18xx", 2, 17)
    message = str(error)
    assert message.splitlines() == [
        "h.18xx:2:17: player 'Alice' listed twice",
        "    2 | players: Alice, Alice",
        "      |                 ^",
    ]


def test_long_lines_are_findings():
    record, findings = parse("Alice pass " + "x" * 20_000 + "\nBob pass\n")
    assert [(f.line, f.column, f.message) for f in findings] == [
        (4, 1, "line too long (20011 characters, at most 10000)")]
    assert len(findings[0].text) <= 200
    assert [a.actor for a in record.actions] == ["Bob"]
    findings = syntax_findings("Alice pass " + "y" * 5_000 + " (\n")
    assert [(f.line, f.column) for f in findings] == [(4, 12)]
    assert findings[0].message == ("expected the end of the line after 'pass', found "
                                   "'yyyyyyyyyyyyyyyyyyyyyyyyyyy...'")


# --------------------------------------------------------------------------
# the writer

def test_writer_quotes_names_and_keeps_ids():
    record = GameRecord(path="x", title="1830", players=["Alice", "Player 3", "check", "42"],
                        tags={"site": "https://x/#1", "Odd Key": "v",
                              "note": 'a "quoted" #1', "q": '"x"'},
                        actions=[
                            Pass(actor="Player 3", action_id=5),
                            Pass(actor="check"),
                            Pass(actor="42", action_id=6),
                            BuyCompany(actor="PRR", company="DH", price=10, seller="Player 3"),
                        ])
    text = write_game(record)
    assert 'players: Alice, "Player 3", "check", "42"' in text
    assert '"Player 3" pass  #@5' in text
    assert '"check" pass\n' in text
    assert 'site: "https://x/#1"' in text
    assert "odd_key: v" in text
    again, findings = parse_game(text, "x", NAMES)
    assert findings == []
    assert [bare(a) for a in again.actions] == [bare(a) for a in record.actions]
    assert [a.action_id for a in again.actions] == [5, None, 6, None]
    assert again.tags["site"] == "https://x/#1"
    assert 'note: "a ""quoted"" #1"' in text and 'q: """x"""' in text
    assert (again.tags["note"], again.tags["q"]) == ('a "quoted" #1', '"x"')


@pytest.mark.parametrize("players, actions", [
    (["A\nB"], []),
    (["  "], []),
    ([], []),
    (["A"], [Dividend(actor="A", kind="all")]),
    (["A"], [BuyTrain(actor="A", train="2 (permanent)")]),
    (["A"], [BuyShares(actor="A", corporation="PRR", source="market")]),
    (["A"], [BuyShares(actor="A", corporation="PRR", count=0)]),
    (["A"], [RoundMarker(kind="Merger", number=(1,))]),
    (["A"], [RoundMarker(kind="OR", number=())]),
    (["A"], [SellShares(actor="A", sales=[])]),
    (["A"], [Checkpoint(subject="A", field="mood", value=1)]),
])
def test_writer_refuses_what_cannot_be_written(players, actions):
    with pytest.raises(ValueError):
        write_game(GameRecord(path="x", title="1830", players=players, actions=actions))


def sample_game(lines: int = 1500, seed: int = 1) -> str:
    """A long, varied game in the notation (not a legal one)."""
    rnd = random.Random(seed)
    players = ["Alice", "Bob", '"Player 3"', "Đorđe"]
    out = ["title: 1830", 'players: Alice, Bob, "Player 3", Đorđe', "seed: 7", ""]
    out.append("auction")
    for co in COMPANIES:
        out.append(f"{rnd.choice(players)} {rnd.choice(['bid ' + co + ' ' + str(rnd.randint(20, 300)), 'buy ' + co, 'pass'])}")  # noqa: E501
    hexes = [f"{c}{n}" for c in "ABCDEFGHIJK" for n in range(1, 24)]

    def route():
        nodes = rnd.sample(hexes, rnd.randint(2, 6))
        if rnd.random() < .2:
            nodes[-1] += ".1"
        text = nodes[0]
        for node in nodes[1:]:
            text += rnd.choice("--~") + node
        text = f"{rnd.choice(TRAINS)} {text}"
        if rnd.random() < .7:
            text += f" ({rnd.randint(1, 40) * 10})"
        return text

    sr = 0
    while len(out) < lines:
        sr += 1
        out.append(f"SR {sr}")
        for _ in range(rnd.randint(8, 25)):
            p, c = rnd.choice(players), rnd.choice(CORPORATIONS)
            out.append(rnd.choice([
                f"{p} pass", f"{p} par {c} {rnd.choice([67, 71, 76, 82, 90, 100])}",
                f"{p} buy {c}", f"{p} buy {rnd.randint(1, 3)} {c} {rnd.choice(['ipo', 'pool'])}",
                f"{p} buy 20% {c}",
                f"{p} sell {rnd.randint(1, 3)} {c}, {rnd.choice(CORPORATIONS)}",
                f"check {p} cash {rnd.randint(0, 900)}"]))
        for o in (1, 2):
            out.append(f"OR {sr}.{o}")
            for c in rnd.sample(CORPORATIONS, 5):
                out.append(f"{c} lay {rnd.choice(['57', '8', '9', '14', '619', 'X9'])} "
                           f"{rnd.choice(hexes)}" + rnd.choice(["", f" r{rnd.randint(0, 5)}"]))
                if rnd.random() < .3:
                    out.append(f"{c} token {rnd.choice(hexes)}" + rnd.choice(["", ".1"]))
                n = rnd.randint(0, 3)
                if n:
                    out.append(f"{c} run " + ", ".join(route() for _ in range(n))
                               + rnd.choice(["", f" = {rnd.randint(1, 90) * 10}"]))
                else:
                    out.append(f"{c} run none")
                out.append(f"{c} {rnd.choice(['payout', 'withhold'])}")
                if rnd.random() < .3:
                    out.append(f"{c} buy train {rnd.choice(TRAINS)}"
                               + rnd.choice(["", " from depot", f" from {rnd.choice(CORPORATIONS)}"])
                               + rnd.choice(["", f" for {rnd.randint(1, 1100)}"]))
                if rnd.random() < .05:
                    out.append(f"{c} discard {rnd.choice(TRAINS)}")
                if rnd.random() < .05:
                    out.append(f"{c} buy private {rnd.choice(COMPANIES)} from "
                               f"{rnd.choice(players)} for {rnd.randint(1, 300)}")
                if rnd.random() < .1:
                    out.append(f"check {c} trains " + (",".join(rnd.sample(TRAINS, 2))
                                                       if rnd.random() < .8 else "none"))
    body = []
    for i, line in enumerate(out[:lines]):
        if line and not line.startswith(("title", "players", "seed", "SR", "OR", "auction")) \
                and rnd.random() < .5:
            line += f"  #@{i}"
        body.append(line)
    return "\n".join(body) + "\n"


def test_round_trip_long_game():
    text = sample_game()
    record, findings = parse_game(text, "long.18xx", NAMES)
    assert findings == []
    assert len(record.actions) > 1400
    written = write_game(record)
    again, findings = parse_game(written, "again.18xx", NAMES)
    assert findings == []
    assert [bare(a) for a in again.actions] == [bare(a) for a in record.actions]
    assert [a.action_id for a in again.actions] == [a.action_id for a in record.actions]
    assert again.players == record.players and again.tags == record.tags
    assert write_game(again) == written


def test_fast_paths_agree_with_lark_on_1500_lines():
    """The speed-ups (reused line shapes, run lines by regular expression) are
    on, and give what Lark gives.  Speed itself is measured by benchmarks/."""
    notation._parser()
    assert notation._templates_enabled(), "grammar changed: update notation._UNIFORM"
    text = sample_game(seed=11)
    notation._LINE_CACHE.clear()
    fast, findings = parse_game(text, "fast.18xx", NAMES)
    assert findings == []
    assert len(fast.actions) > 1400


def test_docs_example_parses():
    docs = (ROOT / "docs" / "notation.md").read_text("utf-8")
    example = re.search(r"```\n(title: 1830.*?)```", docs, re.S).group(1)
    record, findings = parse_game(example, "docs/notation.md", NAMES)
    assert findings == []
    kinds = {type(a) for a in record.actions}
    assert {RoundMarker, Bid, Par, BuyShares, LayTile, PlaceToken, RunRoutes, Dividend,
            BuyTrain, Checkpoint} <= kinds
    again, _ = parse_game(write_game(record), "again", NAMES)
    assert [bare(a) for a in again.actions] == [bare(a) for a in record.actions]


def test_grammar_loads_from_the_tree():
    text = notation._grammar_text()
    assert "?start: line" in text
    assert (ROOT / "railcheck" / "grammar" / "__init__.py").exists()


# --------------------------------------------------------------------------
# templates (the fast path) give exactly what Lark gives

FRAGMENTS = ["Alice", "Bob", '"Player 3"', "PRR", "B&O", "pass", "buy", "sell", "bid", "par",
             "lay", "token", "run", "train", "private", "from", "for", "ipo", "pool", "depot",
             "none", "check", "cash", "trains", "OR", "SR", "auction", "r2", "r9", "R1", "57",
             "X9", "H10", "h10.1", "2+1", "4D", "20%", "3", "(", ")", ",", "=", "-", "~", ":",
             "1.1", "Đorđe", "paſs", "-x", "&", ".", "'", "\t", "x-y"]


def assert_parsed_as_lark_parses(text: str) -> None:
    """The line parser reads ``text`` as the Lark grammar does (the same
    tree, or neither reads it)."""
    from lark.exceptions import LarkError

    try:
        expected = notation._parser().parse(text)
    except LarkError:
        expected = None
    try:
        got = notation._parse_content(text, "t", 1)
    except InputError:
        got = None
    assert got == expected, text


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=9),
       st.lists(st.sampled_from([" ", "", "  "]), min_size=9, max_size=9),
       st.randoms(use_true_random=False))
def test_templates_agree_with_lark(words, spaces, rnd):
    line = "".join(w + s for w, s in zip(words, spaces)).strip()
    if not line:
        return
    # another line of the same skeleton: other numbers, other names
    other = re.sub(r"[0-9]+", lambda m: str(rnd.randint(0, 10 ** rnd.randint(1, 4))), line)
    other = re.sub(r"[A-Za-z]+", lambda m: m.group(0) if m.group(0).lower() in notation.KEYWORDS
                   or m.group(0) in ("r", "R") else rnd.choice(["Q", "Zed", "abc", "H"]), other)
    for text in (line, other):
        assert_parsed_as_lark_parses(text)


ROUTE_PARTS = ["2", "D", "2+1", "none", "NONE", "H10", "h1.2", "A1", "Đ1", "-", "~", "(", ")",
               "30", "3x", ",", "=", "110", " ", "  ", "\t", "#", "x"]


@settings(max_examples=600, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(["PRR", '"Player 3"', "B&O", "check", "OR", "Alice"]),
       st.sampled_from(["run", "RUN", "Run", "runs"]),
       st.lists(st.sampled_from(ROUTE_PARTS), max_size=14))
def test_run_lines_agree_with_lark(actor, verb, parts):
    notation._LINE_CACHE.clear()
    assert_parsed_as_lark_parses(f"{actor} {verb} " + "".join(parts))


# --------------------------------------------------------------------------
# nothing but InputError, whatever the input

def check_only_input_error(text):
    try:
        parse_game(text, "fuzz.18xx", NAMES)
    except InputError as exc:
        assert str(exc).startswith("fuzz.18xx")
    try:
        parse_header(text, "fuzz.18xx")
    except InputError:
        pass


@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.text())
def test_garbage_text(text):
    check_only_input_error(text)
    check_only_input_error(HEADER + text)


@settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.binary())
def test_garbage_bytes(data):
    check_only_input_error(data)
    check_only_input_error(HEADER.encode() + data)
    check_only_input_error(data.decode("latin-1"))


@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.lists(st.lists(st.sampled_from(FRAGMENTS + ["#", "#@", "#@1", '"', "\n", "title:",
                                                      "players:"]), max_size=8), max_size=12))
def test_garbage_lines(lines):
    text = "\n".join(" ".join(words) for words in lines)
    check_only_input_error(text)
    check_only_input_error(HEADER + text)


def test_mutated_sample_never_crashes():
    rnd = random.Random(5)
    base = sample_game(lines=120, seed=3)
    for _ in range(300):
        chars = list(base)
        for _ in range(rnd.randint(1, 5)):
            i = rnd.randrange(len(chars))
            op = rnd.random()
            if op < .4:
                del chars[i]
            elif op < .8:
                chars.insert(i, rnd.choice("~-=(),.:#@\"% \t\nxX09rR\x00é"))
            else:
                chars[i] = rnd.choice("~-=(),.:#@\"% \nxX09")
        check_only_input_error("".join(chars))


def test_weird_inputs():
    for text in [None, 42, ["title: 1830"], "\x00" * 100, "\n" * 10_000, "title: 1830\n" * 3]:
        with pytest.raises(InputError):
            parse_game(text, "w.18xx", NAMES)
    record, findings = parse_game("title: 1830\nplayers: A\n" + "A pass\n" * 5 + "\udc80 pass\n",
                                  "w.18xx", NAMES)
    assert len(record.actions) == 5
    assert [(f.rule, f.line, f.column) for f in findings] == [("notation.syntax", 8, 1)]


# --------------------------------------------------------------------------
# the verb table

from railcheck import verbs  # noqa: E402


#: what the writer writes differently from a table example (a sale's count)
WRITTEN_OTHERWISE = {"sell PRR": "sell 1 PRR", "sell 2 PRR, B&O": "sell 2 PRR, 1 B&O"}


@pytest.mark.parametrize("verb", verbs.VERBS, ids=[v.key for v in verbs.VERBS])
def test_every_table_example_binds_and_writes_back(verb):
    for example in verb.examples:
        line = f"PRR {example}"
        action = one(line)
        assert isinstance(action, verb.makes), (line, action)
        written = notation._write_action(action)
        assert written == "PRR " + WRITTEN_OTHERWISE.get(example, example)
        assert bare(one(written)) == bare(action)


def test_table_words_are_the_grammars_keywords():
    words = {w.lower() for v in verbs.VERBS for s in v.syntax + (v.rules,)
             for w in re.findall(r"\b[A-Z][A-Z_]*\b", s)}
    assert {"pass", "bid", "buy", "train", "private", "from", "for", "depot", "payout",
            "withhold", "half", "bankrupt"} <= notation.KEYWORDS
    assert words - {"train_type", "tile", "hex", "node", "rotation", "int", "none", "ipo",
                    "pool"} <= notation.KEYWORDS
    grammar = notation._grammar_text()
    assert "| BUY TRAIN TRAIN_TYPE option* -> buy_train" in grammar
    assert "PAYOUT.3: /(?i:payout)(?![\\w.'&+\\-])/" in grammar


@dataclasses.dataclass(kw_only=True)
class TakeLoan(Pass.__mro__[1]):   # an Action of a later title
    count: int = 1
    verb = "take loan"


@pytest.fixture
def loan_verb(monkeypatch):
    """The table with one more verb, `take loan [N]`, as a title would add."""
    entry = verbs.Verb(
        "take_loan", ("TAKE LOAN INT?",), (TakeLoan,),
        bind=lambda b, kw, args: TakeLoan(count=b.int_(args[-1]) if args[-1][2] == "INT" else 1),
        write=lambda w, a: "take loan" + ("" if a.count == 1 else f" {w.number(a.count)}"),
        examples=("take loan", "take loan 2"))
    monkeypatch.setattr(verbs, "VERBS", verbs.VERBS + (entry,))
    monkeypatch.setattr(verbs, "BY_KEY", {**verbs.BY_KEY, "take_loan": entry})
    notation.reset_parser()
    yield entry
    monkeypatch.undo()
    notation.reset_parser()


def test_a_new_verb_is_one_table_entry(loan_verb):
    record, findings = parse("PRR take loan 2\nNYC take LOAN\nPRR payout\nNYC take lon\n")
    assert [(type(a).__name__, a.actor, getattr(a, "count", None)) for a in record.actions] == [
        ("TakeLoan", "PRR", 2), ("TakeLoan", "NYC", 1), ("Dividend", "PRR", None),
        ("TakeLoan", "NYC", 1)]   # 'lon' is a plain typo of the one keyword that fits
    assert [(f.line, f.column, f.message) for f in findings] == [
        (7, 10, "expected 'loan' after 'take', found 'lon' (did you mean loan?); "
                "taken as loan")]
    assert "take" in notation.KEYWORDS and "loan" in notation.KEYWORDS
    text = write_game(record)
    assert "PRR take loan 2\nNYC take loan\nPRR payout\n" in text
    assert '"take" pass' in write_game(GameRecord(path="x", title="1830", players=["take"],
                                                  actions=[Pass(actor="take")]))
    again, _ = parse_game(text, "again", NAMES)
    assert [bare(a) for a in again.actions] == [bare(a) for a in record.actions]
    _, findings = parse("PRR tkae loan\n")
    assert findings[0].message.endswith(
        "discard, assign, propose, vote, bankrupt, convert, privatise, ignore, take) after 'PRR', found 'tkae' (did you mean take?)")  # noqa: E501


def test_the_table_is_restored_after_the_new_verb():
    _, findings = parse("PRR take loan 2\n")
    assert findings[0].message.startswith("expected a verb (pass, bid, buy")
    assert "take" not in notation.KEYWORDS


def test_a_bid_for_the_turn_is_read_and_written():
    # 1860's auction: a bid with no private named is a bid for the right to buy
    from railcheck.actions import BidForTurn
    from railcheck.notation import _write_action
    rec, found = parse_game('title: 1860\nplayers: Alice, Bob\n\nauction\nAlice bid 100\n'
                            'Bob bid C&N 80\n', "x.18xx")
    assert found == []
    bid = rec.actions[1]
    assert isinstance(bid, BidForTurn) and (bid.actor, bid.price, bid.line) == ("Alice", 100, 5)
    assert _write_action(bid) == "Alice bid 100"
    assert type(rec.actions[2]).__name__ == "Bid" and rec.actions[2].company == "C&N"
