"""Shared mechanics every title uses: capitalisation by rule, train limits by
company kind, the events of trains and phases."""

import copy

import pytest

from railcheck.findings import InputError, RuleViolation
from railcheck.game import Game
from railcheck.ruleset import Ruleset, _resolve


def rules_1830(**patch):
    data, marks = _resolve("1830")
    data = copy.deepcopy(data)
    for key, value in patch.items():
        data[key] = value(data[key]) if callable(value) else value
    return Ruleset("1830", data, marks, [])


def float_corp(g, sym, par_price, sold_percent):
    corp = g.corporations[sym]
    corp.par = g.market.par_cell(par_price)
    g.place_price(corp, corp.par)
    for cert in corp.certs:
        if sold_percent <= 0:
            break
        cert.owner = g.players[0]
        sold_percent -= cert.percent
    g.check_float(corp)
    return corp


def test_full_capitalisation_is_par_for_every_share():
    g = Game(rules_1830(), ["A", "B", "C"], check_board=False)
    bank = g.bank.cash
    corp = float_corp(g, "PRR", 100, 60)
    assert corp.floated and corp.cash == 1000 and g.bank.cash == bank - 1000


def test_a_five_share_company_gets_five_times_par():
    def five_shares(corps):
        corps = copy.deepcopy(corps)
        corps[0]["shares"] = [40, 20, 20, 20]
        return corps
    g = Game(rules_1830(corporations=five_shares), ["A", "B", "C"], check_board=False)
    corp = float_corp(g, "PRR", 100, 60)
    assert corp.share_percent == 20
    assert corp.cash == 500


def test_incremental_capitalisation_pays_nothing_on_floating():
    def incremental(stock):
        return {**stock, "capitalization": "incremental"}
    g = Game(rules_1830(stock=incremental), ["A", "B", "C"], check_board=False)
    corp = float_corp(g, "PRR", 100, 60)
    assert corp.floated and corp.cash == 0
    assert g.ipo_payee(corp) is corp


def test_train_limit_by_company_kind():
    def minors(corps):
        corps = copy.deepcopy(corps)
        corps[7]["kind"] = "minor"
        return corps

    def limits(phases):
        phases = copy.deepcopy(phases)
        phases[0]["train_limit"] = {"major": 4, "minor": 2}
        return phases
    g = Game(rules_1830(corporations=minors, phases=limits), ["A", "B", "C"], check_board=False)
    assert g.corporations["B&M"].kind == "minor" and g.corporations["PRR"].kind == "major"
    assert g.train_limit(g.corporations["B&M"]) == 2
    assert g.train_limit(g.corporations["PRR"]) == 4


def test_the_first_five_train_closes_the_privates_through_the_events_registry():
    g = Game(rules_1830(), ["A", "B", "C"], check_board=False)
    sv = g.companies["SV"]
    sv.owner = g.players[0]
    g.players[0].companies.append(sv)
    corp = float_corp(g, "PRR", 100, 60)
    five = next(t for t in g.trains if t.name == "5")
    g.give_train(five, corp)
    assert sv.closed and g.phase.name == "5"


def test_an_event_unknown_to_the_title_is_a_ruleset_error():
    def with_event(phases):
        phases = copy.deepcopy(phases)
        phases[1]["events"] = ["nationalise"]
        return phases
    with pytest.raises(InputError) as e:
        rules_1830(phases=with_event)
    assert "phases[1].events[0]: unknown event 'nationalise'; 1830 knows close_companies" \
        in str(e.value)


def test_an_event_a_title_declares_but_does_not_carry_out_is_refused_in_play():
    from railcheck.titles.g1830 import Title1830

    class Title1830x(Title1830):
        events = ("nationalise",)

    g = Game(rules_1830(), ["A", "B", "C"], check_board=False)
    g.title = Title1830x(g)
    with pytest.raises(RuleViolation) as e:
        g.run_event("nationalise")
    assert (e.value.rule, e.value.message) == ("ruleset.event", "1830 knows no event 'nationalise'")


def test_incremental_capitalisation_in_play(tmp_path):
    """The bundled game's SR 1 under a house rule where every IPO share pays
    the treasury: PRR and NYNH sold their president's certificate and four
    shares at $100, so each holds $600, not $1000; B&O's president's
    certificate came free with the BO private, so it holds $400."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    from conftest import REPO
    (tmp_path / "inc.yaml").write_text('title: "1830-incremental"\nextends: "1830"\n'
                                       'stock: {capitalization: incremental}\n')
    lines = (REPO / "examples" / "1830" / "game.18xx").read_text().split("\n")
    end = lines.index("OR 1.1")
    head = lines.index("auction")
    body = [l for l in lines[head:end] if not l.startswith("check ") or "cash" in l]
    game = tmp_path / "g.18xx"
    game.write_text("\n".join(["title: 1830", "players: Alice, Bob, Carol", "ruleset: inc.yaml",
                               ""] + body) + "\n")
    record, _ = load_game(str(game))
    r = Replay(record).run()
    assert [f for f in r.findings if f.severity == "error"] == []
    g = r.game
    for sym, cash in (("PRR", 600), ("B&O", 400), ("NYNH", 600)):
        assert g.corporations[sym].floated and g.corporations[sym].cash == cash, sym
    # the players paid the same as under full capitalisation
    assert [p.cash for p in g.players] == [60, 70, 100]
