"""1889's own rules, each where railcheck keeps it: the ruleset's numbers and
switches (rules.yaml extends 1830's), the privates the number of players
leaves in, the Uno-Takamatsu Ferry (open with a player at the first 5-train,
¥50 from then on), SMR's mountains, the order of sales and purchases in a
turn, home stations at the start of the operating round, the D-train's
off-board values, and the names a user types."""

from pathlib import Path

from railcheck.board.tiles import revenue_for_phase
from railcheck.game import Game
from railcheck.ruleset import load_ruleset
from railcheck.titles import title_class

from conftest import replay_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1889"
GAME = EXAMPLES / "game.18xx"


def cut(path: Path, upto: str, *extra: str) -> str:
    """The notation of ``path`` up to (not including) the line ``upto``
    (its ``#@id`` comment aside), then ``extra``; the header's result and
    end dropped (the game stops early)."""
    out = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.split("  #@")[0] == upto:
            break
        if line.startswith(("result:", "end:")):
            continue
        out.append(line)
    return "\n".join(out + list(extra)) + "\n"


def test_the_numbers_of_1889():
    r = load_ruleset("1889")
    assert (r.extends, r.bank, r.currency) == ("1830", 7000, "¥")
    assert r.starting_cash == {2: 420, 3: 420, 4: 420, 5: 390, 6: 390}
    assert r.cert_limit == {2: 25, 3: 19, 4: 14, 5: 12, 6: 11}
    assert r.stock["float_percent"] == 50
    assert (r.stock["sell_buy_order"], r.stock["must_sell_in_blocks"],
            r.stock["home_station"]) == ("sell_buy_or_buy_sell", True, "operating_round")
    assert (r.operating["track_restriction"], r.operating["emergency_from_others"],
            r.operating["emergency_keeps_presidencies"]) == ("semi_restrictive", "none", True)
    assert [c.sym for c in r.corporations] == ["AR", "IR", "SR", "KO", "TR", "KU", "UR"]
    assert {c.sym: c.tokens for c in r.corporations}["KU"] == [0]
    assert [(c.sym, c.value, c.revenue, c.min_players) for c in r.companies] == [
        ("TR", 20, 5, None), ("MF", 30, 5, None), ("ER", 40, 10, None), ("SMR", 50, 15, None),
        ("DR", 60, 15, None), ("SIR", 80, 20, 3), ("UTF", 150, 30, 4)]
    assert not any(p.extra.get("private_trades") for p in r.phases)
    # 1830's trains and phases otherwise
    assert [(t.name, t.price) for t in r.trains] == [
        ("2", 80), ("3", 180), ("4", 300), ("5", 450), ("6", 630), ("D", 1100)]
    assert sorted(r.raw["options"]) == ["beginner_game", "site_home_stations"]
    assert not [t for t in r.board["tiles"] if t.startswith("Beg")]   # the beginner game's
    beginner = load_ruleset("1889", ["beginner_game"])
    assert [(c.sym, c.value, c.revenue, c.min_players) for c in beginner.companies] == [
        ("TR", 20, 5, 5), ("MF", 40, 15, 6), ("ER", 40, 15, 3), ("SMR", 60, 20, 4),
        ("DR", 60, 20, None), ("SIR", 90, 25, None)]
    assert all(c.special == {"no_sale_to_corporation": True} and c.blocks == []
               for c in beginner.companies)
    assert beginner.setup["deal_companies"] and "Beg23" in beginner.board["tiles"]


def test_the_names_a_user_types():
    for name in ("1889", "Shikoku 1889", "shikoku", "SHIKOKU", "History of Shikoku Railways"):
        assert title_class(name).id == "1889"


def test_privates_by_number_of_players():
    rules = load_ruleset("1889")
    got = {n: sorted(Game(rules, [f"P{i}" for i in range(n)]).companies) for n in (2, 3, 4)}
    assert got[2] == ["DR", "ER", "MF", "SMR", "TR"]
    assert got[3] == ["DR", "ER", "MF", "SIR", "SMR", "TR"]
    assert got[4] == ["DR", "ER", "MF", "SIR", "SMR", "TR", "UTF"]


def test_the_ferry_stays_open_with_a_player_and_pays_50_from_phase_5():
    g = Game(load_ruleset("1889"), ["Alice", "Bob", "Carol", "Dave"])
    utf, sir = g.companies["UTF"], g.companies["SIR"]
    for company, owner in ((utf, g.players[0]), (sir, g.players[1])):
        company.owner = owner
        owner.companies.append(company)
    assert g.private_income(utf) == 30
    g.run_event("close_companies")      # the first 5-train's event
    g.change_phase([p.name for p in g.rules.phases].index("5"))
    assert (utf.closed, sir.closed) == (False, True)
    assert g.private_income(utf) == 50
    before = g.players[0].cash
    g.pay_private_income()
    assert g.players[0].cash == before + 50


def test_the_ferry_owned_by_a_company_closes_with_the_first_5_train():
    g = Game(load_ruleset("1889"), ["Alice", "Bob", "Carol", "Dave"])
    utf, ko = g.companies["UTF"], g.corporations["KO"]
    utf.owner = ko
    ko.companies.append(utf)
    g.run_event("close_companies")      # the first 5-train's event
    assert utf.closed and ko.companies == []


def test_smr_makes_a_mountain_free():
    """The SMR example's game: IR (owning SMR) lays F7, a mountain, and pays
    nothing (line 278); H5 (a mountain with a river) costs it ¥80."""
    path = EXAMPLES / "illegal" / "smr-on-a-mountain-with-a-river.18xx"
    lines = path.read_text(encoding="utf-8").splitlines()
    at = lines.index("IR lay 9 F7 r0")
    before = replay_file(path, "\n".join(lines[:at]) + "\n").game.corporations["IR"].cash
    after = replay_file(path, "\n".join(lines[:at + 1]) + "\n")
    assert after.findings == []
    assert after.game.corporations["IR"].cash == before


def test_buy_then_sell_is_allowed_and_one_sale_per_company():
    """SR 3 of the example game, Carol's turn written another way: she starts
    AR (a purchase), then sells TR and IR (buy then sell: allowed); a second
    sale of TR in the turn (she still holds IR to sell) is refused."""
    text = cut(GAME, 'Carol sell 1 TR', "Carol par AR 75", "Carol sell 1 TR", "Carol sell 1 IR")
    assert replay_file(GAME, text).findings == []
    text = cut(GAME, 'Carol sell 1 TR', "Carol par AR 75", "Carol sell 1 TR", "Carol sell 1 TR")
    r = replay_file(GAME, text)
    assert [(f.rule, f.message) for f in r.findings] == [
        ("stock.sell_blocks", "Carol already sold TR this turn")]


def test_sell_then_buy_ends_the_turn():
    """Carol sells TR, then starts AR: she may sell no more (sell then buy),
    and buy no more, so her turn ends by itself: Dave's turn."""
    text = cut(GAME, 'Carol sell 1 IR', "Carol par AR 75")
    r = replay_file(GAME, text)
    assert r.findings == []
    rnd = r.game.round
    assert rnd.current.name == "Dave"


def test_home_stations_go_down_at_the_start_of_the_operating_round():
    """In the example game SR floats in SR 3 (Alice); at the start of OR 3.1,
    before any company acts, its station is on Marugame (I2)."""
    text = cut(GAME, "OR 3.1") + "OR 3.1\n"
    g = replay_file(GAME, text).game
    assert g.round.label == "OR 3.1"
    assert g.board.tokens_on("I2") == [["SR"]]
    assert g.corporations["SR"].operated is False


def test_a_d_train_earns_the_diesel_value_of_an_off_board():
    imabari = load_ruleset("1889").board["hexes"]["F1"]["offboard"]["revenue"]
    assert imabari == {"yellow": 30, "brown": 60, "diesel": 100}
    assert revenue_for_phase(imabari, "yellow") == 30
    assert revenue_for_phase(imabari, "brown") == 60
    assert revenue_for_phase(imabari, "brown", diesel=True) == 100
    assert revenue_for_phase({"yellow": 20, "brown": 30}, "brown", diesel=True) == 30


def test_the_ferry_sold_to_a_company_lays_no_more():
    """MF's lay is its owning player's: once TR bought it, an MF lay is
    refused (the port's count aside)."""
    text = cut(GAME, "ER lay 14 C4 r1", "MF lay 437 I12 r0")
    r = replay_file(GAME, text)
    assert [(f.rule, f.message) for f in r.findings] == [
        ("private.power", "MF's tile lay is its owning player's; it is owned by TR")]
