"""The stock round's turn actions as steps (``railcheck/steps/stock.py``):
each kind of action is checked by its step's pure ``check`` and carried out
by its ``apply``; a refused par, buy or sale leaves the game exactly as it
was (1830 and 1860), and a sale of several corporations is refused whole
when one of its parts is."""

from __future__ import annotations

from railcheck.actions import BuyShares, Par, Sale, SellShares
from railcheck.engine import Replay
from railcheck.findings import RuleViolation
from railcheck.loader import load_game
from railcheck.notation import parse_game
from railcheck.snapshot import state_snapshot

from conftest import REPO

GAME_1830 = REPO / "examples" / "1830" / "game.18xx"
GAME_1860 = REPO / "examples" / "1860" / "game.18xx"


def with_lines(path, before: int, lines: list[str]):
    """The example game with ``lines`` written before its line ``before``."""
    text = path.read_text(encoding="utf-8").splitlines()
    text[before - 1:before - 1] = lines
    record, read = parse_game("\n".join(text) + "\n", str(path))
    assert read == []
    return record


def standings(result):
    return [(s["player"], s["cash"], s["net_worth"]) for s in result.standings]


def refusals(rp):
    return [(a.line, rule) for a, _, rule in rp.refusals]


# ---------------------------------------------------------------------------
# refused lines in a replay: nothing changes, the game ends as without them

def test_refused_par_buy_and_sales_in_an_1830_stock_round_change_nothing():
    # SR 2, Bob's turn (line 72): Bob $70, 60% of PRR (president); PRR, B&O
    # and NYNH parred at 100, none has a share in the pool
    plain = Replay(load_game(str(GAME_1830))[0]).run()
    record = with_lines(GAME_1830, 72, [
        "Bob par NYNH 100",            # 72: NYNH has a par already
        "Bob buy B&O pool",            # 73: the pool has no B&O share
        "Bob sell 6 PRR",              # 74: 60% into the pool, over its 50%
        "Bob sell 1 PRR, 1 NYNH",      # 75: the PRR part is legal; Bob has no NYNH
    ])
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert refusals(rp) == [(72, "stock.par_twice"), (73, "stock.no_share"),
                            (74, "stock.pool_limit"), (75, "stock.sell_not_owned")]
    assert rp.impure == []
    g = rp.game
    bob = g.player_by_name["Bob"]
    # nothing of the refused lines stayed: the game ends as the example does
    assert standings(result) == standings(plain) == [
        ("Bob", 5748, 13048), ("Carol", 5609, 12109), ("Alice", 5625, 12025)]
    assert g.corporations["PRR"].percent_of("pool") == plain.game.corporations["PRR"] \
        .percent_of("pool")
    assert [f.rule for f in result.findings if f.line in (72, 73, 74, 75)] == [
        "stock.par_twice", "stock.no_share", "stock.pool_limit", "stock.sell_not_owned"]
    assert bob.cash == plain.game.player_by_name["Bob"].cash


def test_refused_par_buy_and_sales_in_an_1860_stock_round_change_nothing():
    # SR 2, Alice's turn (line 102): Alice $27, 50% of C&N (president) and
    # 20% of IOW; IOW's IPO shares cost its par, $74
    plain = Replay(load_game(str(GAME_1860))[0]).run()
    record = with_lines(GAME_1860, 102, [
        "Alice par C&N 100",           # 102: C&N has a par already
        "Alice buy IOW ipo",           # 103: $74 with $27 (1860: refused)
        "Alice sell 1 C&N, 5 IOW",     # 104: the C&N part is legal; she has 20% of IOW
        "Alice sell 1 IOW, 1 IOW",     # 105: IOW twice in a turn (sold in blocks)
    ])
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert refusals(rp) == [(102, "stock.par_twice"), (103, "stock.cash"),
                            (104, "stock.sell_not_owned"), (105, "stock.sell_blocks")]
    assert rp.impure == []
    assert standings(result) == standings(plain) == [("Bob", 7796, 16165), ("Alice", 3836, 9773)]
    g = rp.game
    assert g.corporations["C&N"].percent_of(g.player_by_name["Alice"]) == \
        plain.game.corporations["C&N"].percent_of(plain.game.player_by_name["Alice"])


# ---------------------------------------------------------------------------
# the steps' checks themselves: pure, refused or not

def probe(path, line: int, probes):
    """Replay ``path`` and, just before its line ``line``, run each probe
    ``(player, action)`` through the check of the step the round gives it:
    [(rule refused or the plan, the state unchanged, no finding added)]."""
    record, _ = load_game(str(path))
    rp = Replay(record)
    out = []

    def hook(g, action):
        if action.line != line:
            return
        for name, act in probes:
            before, findings = state_snapshot(g), len(g.findings)
            step = g.round.turn_step_for(act)
            try:
                got = step.check(g.player_by_name[name], act)
            except RuleViolation as v:
                got = v.rule
            out.append((type(step).__name__, got, state_snapshot(g) == before,
                        len(g.findings) == findings))

    rp.before_action = hook
    rp.run()
    return out


def test_the_1830_stock_steps_checks_change_nothing():
    out = probe(GAME_1830, 72, [
        ("Bob", Par(actor="Bob", corporation="NYNH", price=100)),
        ("Bob", BuyShares(actor="Bob", corporation="B&O", source="pool")),
        ("Bob", SellShares(actor="Bob", sales=(Sale(corporation="PRR", count=6),))),
        # a legal sale and a purchase over Bob's $70, taken as written: plans
        ("Bob", SellShares(actor="Bob", sales=(Sale(corporation="PRR", count=2),))),
        ("Bob", BuyShares(actor="Bob", corporation="NYNH", source="ipo")),
    ])
    names = [o[0] for o in out]
    assert names == ["ParStep", "BuySharesStep", "SellSharesStep", "SellSharesStep",
                     "BuySharesStep"]
    assert [o[1] for o in out[:3]] == ["stock.par_twice", "stock.no_share", "stock.pool_limit"]
    sale, buy = out[3][1], out[4][1]
    assert [(c.sym, pct) for c, pct, _ in sale.sales] == [("PRR", 20)] and sale.notes == []
    assert buy.cost == 100 and buy.source == "ipo" and [c.name for c in buy.certs] == ["NYNH_5"]
    # the purchase over cash is said when it is applied, not by the check
    assert buy.notes == [("stock.cash", "Bob has $70; a NYNH share from the IPO costs $100; "
                                        "taken as bought, as the record says")]
    assert all(o[2] and o[3] for o in out)


def test_the_1860_stock_steps_checks_change_nothing():
    out = probe(GAME_1860, 102, [
        ("Alice", Par(actor="Alice", corporation="C&N", price=100)),
        ("Alice", BuyShares(actor="Alice", corporation="IOW", source="ipo")),
        ("Alice", SellShares(actor="Alice", sales=(Sale(corporation="C&N", count=1),
                                                    Sale(corporation="IOW", count=5)))),
        ("Alice", SellShares(actor="Alice", sales=(Sale(corporation="IOW", count=2),))),
    ])
    assert [o[0] for o in out] == ["ParStep1860", "BuySharesStep1860", "SellSharesStep1860",
                                   "SellSharesStep1860"]
    assert [o[1] for o in out[:3]] == ["stock.par_twice", "stock.cash", "stock.sell_not_owned"]
    sale = out[3][1]
    assert [(c.sym, pct) for c, pct, _ in sale.sales] == [("IOW", 20)] and sale.notes == []
    assert all(o[2] and o[3] for o in out)


def test_a_sale_no_certificates_make_is_refused_before_anything_moves():
    """An export's sale of 15% of a corporation of 10% shares (a damaged
    'percent'): refused (stock.sell_split) by the pure check, before the
    seller is paid or a certificate moves; the replay's purity check finds
    no change."""
    from conftest import export_record
    record = export_record("1830", "26855")
    sale = next(a for a in record.actions if isinstance(a, SellShares))
    sale.sales[0].percent = 15
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert (sale.action_id, "stock.sell_split") in [(a.action_id, rule)
                                                    for a, _, rule in rp.refusals]
    assert rp.impure == []
    first = next(f for f in result.findings if f.severity == "error")
    assert (first.action_id, first.rule) == (sale.action_id, "stock.sell_split")
    assert "15% of" in first.message and "(10% each)" in first.message
