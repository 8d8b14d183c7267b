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
    return result.game


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
    for t in h.trains:                  # the shared Game's depot, laid out at the start
        held = [c for c in h.corporations.values() if t in c.trains]
        if isinstance(t.owner, Corporation):
            assert held == [t.owner] and t in h.left
        elif t.owner == "depot":        # never sold
            assert held == [] and t not in h.left
        else:                           # the pool's, or out of the game
            assert held == [] and t.owner in ("pool", None) and t in h.left
    # the 2s rusted with the first 4, the 3s with the first 6 (F5): none is held any more
    assert h.sold("2") > 0 and not [t for t in h.left if t.name in ("2", "3") and t.owner]
    # the minors' trains went to KNR when they converted (K2-K5); M1-M4 own none
    assert all(not h.corporations[m].trains for m in ("M1", "M2", "M3", "M4"))
    assert h.bought("6") and [t.name for t in h.left].count("6") == h.sold("6")


def test_the_game_is_the_shared_game_built_from_1890s_rules():
    """``Holdings`` is a shared ``Game`` built by ``Game.__init__`` from 1890's rules (the
    shared specs of ``rules.py``): its bank is the result's, its certificate limit the
    components file's, and the price markers are on ``Corporation.price`` (stacked on the
    shared market's cells)."""
    from railcheck.game import Game
    r = run(REPO / "examples" / "kansai" / "game.18xx")
    h = holdings(r)
    assert isinstance(h, Game) and h.unsure.off is None
    assert h.bank.cash == r.bank == 1043
    assert h.cert_limit == 8 and len(h.market.grid) == 4
    jr, knr = h.corporations["JR"], h.corporations["KNR"]
    assert (jr.price.price, jr.price.row, jr.price.col) == (140, 1, 8)
    assert knr.price.price == 100 and knr in h.market.stack(knr.price)
    assert {row["company"]: row["price"] for row in r.companies}["JR"] == 140
    # the markers in the order of their pars (S3.2 moves them up in that order)
    assert r.game.marked == ["KNR", "OMS", "JR", "HER"]


def test_the_black_zone_closes_the_corporation():
    """K10: a price marker reaching a black cell closes the company: ``Corporation.closed``
    (its shares are then worth nothing and it pays no dividend)."""
    r = run(REPO / "examples" / "kansai" / "game.18xx")
    led, h = r.game.ledger, holdings(r)
    her = h.corporations["HER"]
    before = {row["player"]: row["shares"] for row in led.standings()[0]}
    led.move("HER", "left", 7)          # 100 (row 3) .. 40o, then down to 30x
    assert (her.price.price, her.price.letters) == (30, "x")
    assert her.closed and led.closed("HER") and not led.closed("M1")
    after = {row["player"]: row["shares"] for row in led.standings()[0]}
    lost = {p: before[p] - after[p] for p in before}
    assert lost == {"Aki": 100 * h.corporations["HER"].percent_of(h.by_name["Aki"]) // 10,
                    "Ben": 100 * her.percent_of(h.by_name["Ben"]) // 10,
                    "Chie": 100 * her.percent_of(h.by_name["Chie"]) // 10}
    cash = her.cash
    led.dividend("HER", "payout", 200)  # a closed company pays nothing
    assert her.cash == cash and her.price.price == 30


def test_unknown_numbers_build_a_game_that_tracks_no_money():
    """With the starting cash, the bank or the market grid unknown, the shared Game is built
    all the same and its money is off (``Unsure.off``, the first missing key): no amount is
    sure and no over-cash check is made or counted."""
    from railcheck.game import UNLIMITED_TRAINS
    from railcheck.titles.kansai import TitleKansai
    from railcheck.titles.kansai.holdings import Holdings
    from railcheck.unsure import OVER_CASH
    rules = TitleKansai.load_rules()    # no components file: every number unknown
    g = Holdings(rules, ["Aki", "Ben", "Chie"], knr_normal=False)
    assert g.unsure.off == ("starting_cash",) and not g.unsure.tracked
    assert [p.cash for p in g.players] == [0, 0, 0] and g.bank.cash == 0
    assert g.cert_limit is None and g.market.grid == []
    assert g.cert_limit_exceeded(g.players[0], 5) is None
    assert not g.sure(g.players[0]) and not g.short_of(g.players[0], 10 ** 6)
    assert OVER_CASH not in g.unsure.skipped
    # the depot: a type whose count is unknown has as many as a game needs
    assert [t.name for t in g.trains].count("2") == UNLIMITED_TRAINS
    # KNR's reserved certificates are the bank's (K7)
    assert [c.owner for c in g.corporations["KNR"].certs][:6] == \
        ["reserved", "ipo", "ipo", "ipo", "ipo", "reserved"]
    # the rule book's Hanshin scenario gives the cash and the bank, not the market
    r = run(GAMES / "hanshin_opening.18xx")
    h = holdings(r)
    assert h.unsure.off == ("market", "rows") and h.bank.cash == 6000
    assert not r.game.ledger.on and r.standings == []


def test_a_company_closed_by_the_black_zone_has_no_train_duty():
    """K10 on ``Corporation.closed``: the operating turn reads the closure too.  The example
    game with HER's marker moved to the black cell (Y30) and its trains gone when OR 2.1
    starts (line 60): the record still has HER run and pay (lines 81-82, 104-105, 115-116);
    a closed company owes no train (O5), so its turns' ends are not ``trains.must_own`` (they
    were while the closure was the ledger's own set)."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, _ = load_game(str(REPO / "examples" / "kansai" / "game.18xx"))
    rep = Replay(record)
    moved = []

    def before(game, action):
        if action.line == 60 and not moved:
            game.ledger.move("HER", "left", 7)
            game.drop_trains("HER")
            moved.append(action.line)
    rep.before_action = before
    res = rep.run()
    assert moved == [60]
    assert [f.rule for f in res.errors if f.rule == "trains.must_own"] == []
    her = {row["company"]: row for row in res.companies}["HER"]
    assert (her["closed"], her["price"], her["treasury"]) == (True, 30, 245)


def test_the_certificate_limit_is_the_shared_one_with_1890s_hooks():
    """SB5 on the shared ``Game.num_certs`` / ``cert_limit_exceeded`` (written once, for every
    title), with what 1890 counts as the title's hooks: a minor's certificate counts 1 (N0)
    until it closes (a conversion), a company's shares not while its price is in the yellow
    zone (``no_cert_limit``, SM1), privates never (``cert_limit_includes_privates: false``);
    the limit holds only while money is tracked (``Holdings.money_tracked``).  The 60% (SB4) is
    the shared ``holding_limit_exceeded``; the orange zone lifts it (SM2)."""
    from railcheck.titles.kansai import TitleKansai
    from railcheck.titles.kansai.holdings import Holdings
    rules = TitleKansai.load_rules(components=str(REPO / "examples" / "kansai" /
                                                  "components-example.yaml"))
    g = Holdings(rules, ["Aki", "Ben", "Chie"], knr_normal=False)
    aki = g.by_name["Aki"]
    assert g.cert_limit == 8 and g.unsure.tracked
    g.buy_minor("M1", "Aki")
    g.give("HER", "Aki", [20, 10, 10, 10, 10])
    g.give("HKY", "Aki", [20])
    g.companies["ARIMA"].owner = aki
    aki.companies.append(g.companies["ARIMA"])
    assert g.num_certs(aki) == 7            # M1 1 + HER 5 + HKY 1; ARIMA not
    assert g.cert_limit_exceeded(aki, 2) is None    # not before the ledger starts
    g.money_started = True
    assert g.cert_limit_exceeded(aki, 1) is None and g.cert_limit_exceeded(aki, 2) == 7
    yellow = g.market.cell(1, 1)          # "60y": the yellow zone
    assert yellow is not None and yellow.has("no_cert_limit")
    g.place_price(g.corporations["HER"], yellow)
    assert g.num_certs(aki) == 2 and g.cert_limit_exceeded(aki, 6) is None
    g.corporations["M1"].closed = True      # converted into KNR
    assert g.num_certs(aki) == 1
    # SB4: 60% of HER held; 10% more is over it, not in the orange zone (SM2)
    her = g.corporations["HER"]
    assert g.holding_limit_exceeded(aki, her, 10) == (60, 60)
    g.place_price(her, g.market.cell(2, 0))     # "40o": the orange zone
    assert g.holding_limit_exceeded(aki, her, 10) is None


def test_the_bank_breaks_at_0_in_1890_and_below_0_elsewhere():
    """The ledger's payments are the shared ``Game.transfer`` (d3); the bank's break is the
    title's test (``Game.bank_breaks``): 1890's bank breaks when exhausted, at 0 (E1 "koniec
    banku", the rule book's "the bank is exhausted"), 1830's when a payment takes it below 0."""
    from railcheck.engine import Replay
    from railcheck.loader import load_game
    record, _ = load_game(str(REPO / "examples" / "kansai" / "game.18xx"))
    rp = Replay(record, stop_at=80)         # OR 2.1
    rp.run()
    h = rp.game
    led, bank = h.title.ledger, h.bank.cash
    jr = h.corporations["JR"].cash
    led.pay("bank", "JR", bank - 1)
    assert (h.bank.cash, h.bank_broken, h.corporations["JR"].cash) == (1, False, jr + bank - 1)
    led.pay("bank", "JR", 1)
    assert (h.bank.cash, h.bank_broken, led.bank_broken) == (0, True, True)
    record, _ = load_game(str(REPO / "examples" / "1830" / "game.18xx"))
    rp = Replay(record, stop_at=40)
    rp.run()
    g = rp.game
    g.transfer(g.bank, g.players[0], g.bank.cash)
    assert (g.bank.cash, g.bank_broken) == (0, False)
    g.transfer(g.bank, g.players[0], 1)
    assert (g.bank.cash, g.bank_broken, g.end_pending) == (-1, True, "bank")
