"""1860's bankrupt corporation and its restart (docs/1860.md B0-B6), on
the corpus exports (38 bankruptcies, 18 restarts, all clean and
trace-exact) and on exports changed at one action."""

from railcheck.engine import Replay

from conftest import export_record


def record_of(name: str, last=None, ruleset=None):
    return export_record("1860_random", name, last, ruleset)


def replay(name: str, last=None, ruleset=None, change=None):
    record = record_of(name, last, ruleset)
    if change is not None:
        action_id, attr, value = change
        setattr(next(a for a in record.actions if a.action_id == action_id), attr, value)
    return Replay(record, check_purity=True).run()


def certs(corp):
    return [getattr(c.owner, "name", c.owner) for c in corp.certs]


def test_a_bankruptcy_in_a_stock_round_keeps_cash_trains_and_stations():
    """Random 18604_3, SR 9, #285: Player 2 sells 40% of IOW at 14 (paid 56)
    and the price goes 3 cells left (4 shares, one spared on an `i` cell) to
    the bankrupt cell.  Every share goes back to IOW's IPO (Player 2's last
    10%, Player 1's 30%, Player 3's 10%, nothing paid), IOW keeps its 270, its
    four 2+1s and its two stations (flipped), priority goes to Player 2 (now
    0%, the fewest) and SR 9 starts again."""
    before = replay("1860_rand_18604_3", 284).game
    iow = before.corporations["IOW"]
    assert (iow.price.price, iow.cash, iow.floated) == (14, 270, True)
    assert before.players[1].cash == 7
    assert [sum(c.percent_of(p) for c in before.corporations.values())
            for p in before.players] == [40, 50, 20, 10]
    r = replay("1860_rand_18604_3", 285)
    assert r.findings == []
    g = r.game
    iow = g.corporations["IOW"]
    assert (iow.price, iow.par, iow.floated, iow.ipoed, iow.president) == (
        None, None, False, False, None)
    assert certs(iow) == ["ipo"] * 9
    assert iow.cash == 270 and [t.name for t in iow.trains] == ["2+1"] * 4
    assert iow.tokens_placed == 2 and "IOW" in g.title.state.bankrupt
    assert [sum(c.percent_of(p) for c in g.corporations.values())
            for p in g.players] == [10, 0, 10, 10]
    assert g.priority.name == "Player 2" and g.players[1].cash == 7 + 56
    assert (g.round.kind, g.sr_number) == ("SR", 9)
    assert g.title.state.restart_sr is False and g.round.sold == {}


def test_the_restart_pars_in_the_grey_zone_and_adds_ten_times_par_on_floating():
    """IOW restarts in SR 11 at 40 (#327: a grey-zone `r` cell, below its
    section's lowest par 74): its stations stay flipped while it is parred and
    not floated (the site turns them back on floating), through OR 11; it
    floats in SR 12 (#341) with 270 kept + 10 x 40 = 670 and its four 2+1s."""
    g = replay("1860_rand_18604_3", 327).game
    iow = g.corporations["IOW"]
    assert (iow.par.price, iow.price.price, iow.floated) == (40, 40, False)
    assert iow.president.name == "Player 2" and iow.cash == 270
    assert "IOW" in g.title.state.bankrupt          # flipped until it floats
    g = replay("1860_rand_18604_3", 340).game
    assert g.round.kind == "SR" and g.sr_number == 12
    assert not g.corporations["IOW"].floated and "IOW" in g.title.state.bankrupt
    g = replay("1860_rand_18604_3", 341).game
    iow = g.corporations["IOW"]
    assert iow.floated and iow.cash == 670 and "IOW" not in g.title.state.bankrupt
    assert [t.name for t in iow.trains] == ["2+1"] * 4


def test_a_restart_below_the_grey_zone_is_flagged_with_its_range():
    """#327 changed to a par of 36 (a red `i` cell under the grey zone):
    flagged, naming the re-par range of IOW's section 1 (40 to 100), and
    taken at the nearest par of the range, £40 (the record's own), so the
    replay goes on as the unchanged one."""
    r = replay("1860_rand_18604_3", 327, change=(327, "price", 36))
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (327, "stock.par_price", "IOW went bankrupt: it starts again at a par of the grey zone "
                                 "up to its section's top, £40 to £100 (section 1), not £36; "
                                 "taken as par £40, the nearest in the range")]
    g = r.game
    iow = g.corporations["IOW"]
    assert (iow.par.price, iow.price.price, iow.floated) == (40, 40, False)
    ok = replay("1860_rand_18604_3", 327).game
    assert [p.cash for p in g.players] == [p.cash for p in ok.players]
    assert iow.president.name == "Player 2" and iow.cash == 270


def test_a_restart_above_its_sections_top_is_flagged():
    """BHI&R (section 3: re-par 40 to 68) in 18603_0 restarts at 68 (#689);
    at 74 (a par of section 1) it is flagged and taken at £74, as written
    (the market has that par)."""
    r = replay("1860_rand_18603_0", 689)
    assert r.findings == [] and r.game.corporations["BHI&R"].par.price == 68
    r = replay("1860_rand_18603_0", 689, change=(689, "price", 74))
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (689, "stock.par_price", "BHI&R went bankrupt: it starts again at a par of the grey "
                                 "zone up to its section's top, £40 to £68 (section 3), not £74; "
                                 "taken as par £74, as the record says")]
    assert r.game.corporations["BHI&R"].par.price == 74


def test_a_grey_zone_par_needs_a_bankruptcy():
    """S&C's first par in 18603_3 (#263, 54) changed to 56, a grey-zone `r`
    cell inside section 4's range 54-62: flagged, only a bankrupt corporation
    starts there (its later restart at 56, #480, is legal); taken at the
    nearest par Player 3 can pay, £54 (£58 is as near: £116 over his £110)."""
    r = replay("1860_rand_18603_3", 263, change=(263, "price", 56))
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (263, "stock.par_price", "£56 is not a par value of S&C's section 4 (£54 to £62) (a par "
                                 "of the grey zone only for a corporation that went bankrupt); "
                                 "taken as par £54, the nearest in the range")]
    assert r.game.corporations["S&C"].par.price == 54
    g = replay("1860_rand_18603_3", 480).game
    assert g.corporations["S&C"].par.price == 56 and g.corporations["S&C"].cash == 80
    g = replay("1860_rand_18603_3", 578).game
    assert g.corporations["S&C"].floated and g.corporations["S&C"].cash == 80 + 560


def test_the_lowest_restart_par_is_the_rulesets(tmp_path):
    """``bankruptcy.min_repar`` bounds the re-par range from below: with 44,
    IOW's restart at 40 (#327) is refused; 44 would be the lowest."""
    path = tmp_path / "repar44.yaml"
    path.write_text('title: "1860-repar44"\nextends: "1860"\nbankruptcy: {min_repar: 44}\n',
                    encoding="utf-8")
    r = replay("1860_rand_18604_3", 327, ruleset=str(path))
    assert [(f.action_id, f.rule) for f in r.findings] == [(327, "stock.par_price")]
    assert "£44 to £100 (section 1), not £40" in r.findings[0].message


def test_no_exchange_for_a_bankrupt_corporation_before_its_restart(tmp_path):
    """W4: a private is not exchanged for a corporation that went bankrupt
    and has not been started again.  18604_3 under a variant where BHC (Player
    2's, still open) is exchanged for IOW: right after IOW's bankruptcy
    (#285) the exchange is refused and changes nothing; after IOW's new par
    (#327) it is made."""
    path = tmp_path / "bhc.yaml"
    path.write_text('title: "1860-bhc"\nextends: "1860"\n'
                    'companies: {BHC: {special: {exchange: {corporation: IOW}}}}\n',
                    encoding="utf-8")
    from railcheck.actions import Exchange

    def with_exchange(after: int):
        record = record_of("1860_rand_18604_3", after, str(path))
        record.actions.append(Exchange(actor="BHC", corporation="IOW", action_id=9999))
        return Replay(record, check_purity=True).run()

    r = with_exchange(285)
    assert [(f.action_id, f.rule, f.message) for f in r.findings] == [
        (9999, "exchange.not_parred",
         "IOW went bankrupt and has not been started again; BHC can be exchanged only once "
         "it has a new par (W4)")]
    g = r.game
    assert g.companies["BHC"].owner.name == "Player 2" and not g.companies["BHC"].closed
    assert certs(g.corporations["IOW"]) == ["ipo"] * 9
    r = with_exchange(327)
    assert r.findings == []
    g = r.game
    assert g.companies["BHC"].closed
    assert g.corporations["IOW"].percent_of(g.players[1]) == 30     # 20% + the 10% share
