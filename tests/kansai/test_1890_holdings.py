"""1890's certificates on the shared state (``railcheck/titles/kansai/holdings.py``): the
minors as shared Corporations of kind ``minor`` with one 100% certificate, KNR's reserved
certificates held by the bank until the minors convert, the president's certificate with the
player the shared ``Game.update_president`` names, and an IPO that runs out."""

from pathlib import Path

from conftest import replay_file as run
from railcheck.state import Corporation, Player
from railcheck.titles.kansai.holdings import RESERVED

REPO = Path(__file__).resolve().parents[2]
GAMES = Path(__file__).resolve().parent / "games"


def holdings(result):
    return result.game.r.holdings


def test_the_example_game_ends_with_every_certificate_accounted_for():
    r = run(REPO / "examples" / "kansai" / "game.18xx")
    h = holdings(r)
    for corp in h.corporations.values():
        assert sum(c.percent for c in corp.certs) == 100, corp.sym
        pres = [c for c in corp.certs if c.president]
        assert len(pres) == 1
        if corp.kind == "minor":
            assert [c.percent for c in corp.certs] == [100]
            continue
        if corp.president is not None:      # the president holds the president's certificate
            assert pres[0].owner is corp.president
            assert all(corp.percent_of(p) <= corp.percent_of(corp.president)
                       for p in h.players)
    knr = h.corporations["KNR"]
    # M1-M4 converted (K2-K5): every reserved certificate went to their owners
    assert [c for c in knr.certs if c.owner == RESERVED] == []
    assert all(h.corporations[m].closed for m in ("M1", "M2", "M3", "M4"))
    # the minors' owners stay their certificates' holders
    assert h.minor_owner("M2") == "Chie" and isinstance(h.corporations["M2"].certs[0].owner,
                                                         Player)


def test_knr_reserved_certificates_are_the_banks_until_the_conversions():
    path = GAMES / "one_certificate.18xx"
    r = run(path, text=path.read_text(encoding="utf-8").split("Ben buy M4\n")[0])
    knr = holdings(r).corporations["KNR"]
    owners = [(c.percent, c.owner) for c in knr.certs]
    # the president's certificate and four shares reserved (K7), four shares for sale
    assert owners == [(20, RESERVED)] + [(10, "ipo")] * 4 + [(10, RESERVED)] * 4


def test_a_share_the_ipo_no_longer_holds_is_not_bought():
    # HER: the president's certificate and 8 shares, one of them Hanshin Tramway's free share
    # (Ben's, C1): after Aki's par, seven shares are left; the eighth purchase finds none
    path = GAMES / "one_certificate.18xx"
    text = path.read_text(encoding="utf-8")
    head = text.split("Aki buy HER\n")[0]
    buys = ["Ben buy M4", "Chie buy JR"] + [f"{p} buy HER" for p in
                                           ("Aki", "Ben", "Chie") * 3][:8]
    text = head + "\n".join(buys) + "\n"
    r = run(path, text=text)
    last = len(text.splitlines())
    flagged = [(f.rule, f.line, f.message) for f in r.errors]
    assert ("stock.no_share", last, "the IPO holds 0% of HER: no 10% to buy") in flagged
    h = holdings(r)
    her = h.corporations["HER"]
    assert her.percent_of("ipo") == 0 and h.sold_percent("HER") == 100


def test_privates_and_cash_are_on_the_shared_objects():
    r = run(REPO / "examples" / "kansai" / "game.18xx")
    h = holdings(r)
    holders = h.players + list(h.corporations.values())
    for company in h.companies.values():
        lists = [x for x in holders if company in x.companies]
        assert lists == ([company.owner] if company.owner is not None else []), company.sym
    # the privates the companies bought in phases 2-3 (O6) are theirs, then closed in phase 4
    bought = [c for c in h.companies.values() if c.owner in h.corporations.values()]
    assert bought and all(c.closed for c in bought if c.sym not in ("HKT", "OMER"))
    # the standings are the players' own cash (the ledger moves it on the shared Player)
    cash = {row["player"]: row["cash"] for row in r.standings}
    assert cash == {p.name: p.cash for p in h.players} == {"Aki": 936, "Chie": 580, "Ben": 490}


def test_trains_are_shared_trains_held_by_their_corporation():
    r = run(REPO / "examples" / "kansai" / "game.18xx")
    h = holdings(r)
    for t in h.trains:
        held = [c for c in h.corporations.values() if t in c.trains]
        if isinstance(t.owner, Corporation):
            assert held == [t.owner]
        else:                           # the pool's, or out of the game
            assert held == [] and t.owner in ("pool", None)
    # the 2s rusted with the first 4, the 3s with the first 6 (F5): none is held any more
    assert h.sold("2") > 0 and not [t for t in h.trains if t.name in ("2", "3") and t.owner]
    # the minors' trains went to KNR when they converted (K2-K5); M1-M4 own none
    assert all(not h.corporations[m].trains for m in ("M1", "M2", "M3", "M4"))
    assert h.bought("6") and [t.name for t in h.trains].count("6") == h.sold("6")
