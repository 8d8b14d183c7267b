"""How a hand-written operating round is read: optional passes, steps in
order, a company that skips running its trains."""

from pathlib import Path

from railcheck.engine import Replay
from railcheck.loader import load_game

GAME = Path(__file__).resolve().parent.parent / "examples" / "1830" / "game.18xx"


def prefix_until(line_text: str, occurrence: int = 0) -> list[str]:
    lines = GAME.read_text().split("\n")
    start = lines.index("auction")
    at = [i for i, l in enumerate(lines) if l == line_text][occurrence]
    return ["title: 1830", "players: Alice, Bob, Carol", ""] + lines[start:at]


def replay(lines, tmp_path):
    path = tmp_path / "g.18xx"
    path.write_text("\n".join(lines) + "\n")
    record, findings = load_game(str(path))
    assert findings == []
    return Replay(record).run()


def test_company_that_does_not_run_its_trains_is_flagged(tmp_path):
    # OR 2.1: B&O owns two 2-trains and reaches I19 and J14 (it ran for $90 in
    # the real game); here it goes straight to buying a train
    lines = prefix_until("B&O run 2 I15-I19 (40), 2 I15-J14 (50) = 90") + ["B&O buy train 2"]
    r = replay(lines, tmp_path)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(len(lines), "route.missing")]
    assert errors[0].message == ("B&O owns trains (2, 2) and has a route but did not run them; "
                                 "a company must run its trains (taken as earning nothing)")
    bo = r.game.corporations["B&O"]
    # nothing earned: $0 withheld, the price one step left on the top row ($90 -> $82);
    # $760 - $80 (water on J14) - $80 (the 2-train) = $600
    assert bo.price.price == 82
    assert bo.cash == 600
    assert sorted(t.name for t in bo.trains) == ["2", "2", "2"]


def test_passes_may_be_left_out(tmp_path):
    # the same OR 2.1 with every "pass" line removed replays to the same state
    full = prefix_until("SR 3")
    start = full.index("OR 2.1")
    without = full[:start] + [l for l in full[start:] if not l.endswith(" pass")]
    a, b = replay(full, tmp_path), replay(without, tmp_path)
    assert a.findings == [] and b.findings == []
    assert a.standings == b.standings and a.companies == b.companies


def test_an_earlier_step_after_a_later_one_is_refused(tmp_path):
    lines = prefix_until("B&O pass") + ["B&O buy train 2", "B&O lay 57 J14 r0"]
    r = replay(lines, tmp_path)
    errors = [f for f in r.findings if f.severity == "error" and f.line == len(lines)]
    assert [(f.rule, f.message) for f in errors] == [
        ("or.step_order", "B&O cannot lay track after buying trains")]


def test_private_power_used_once(tmp_path):
    # rl18xx_game: NYNH owns CS and lays tile 58 on B20 with it (action 264);
    # the power may be used once
    from click.testing import CliRunner
    from railcheck.cli import main
    export = Path(__file__).resolve().parent / "data" / "exports" / "1830" / "rl18xx_game.json"
    out = tmp_path / "rl.18xx"
    assert CliRunner().invoke(main, ["import", str(export), "-o", str(out)]).exit_code == 0
    lines = out.read_text().split("\n")
    at = next(i for i, l in enumerate(lines) if l.endswith("#@264"))
    assert lines[at].startswith("CS lay 58 B20")
    lines = lines[: at + 1] + ["CS lay 58 B20 r2"]
    r = replay(lines, tmp_path)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule) for f in errors] == [(len(lines), "private.power_used")]
    assert errors[0].message == "CS's tile lay may be used 1 time and has been used"


def test_a_stuck_auction_does_not_flood_the_report(tmp_path):
    # BO is never bought (Ben "buys" it although CA is still the cheapest);
    # the record goes on with SR 1: one finding for the auction, then play goes on
    lines = ["title: 1830", "players: Ann, Ben, Cat, Dan", "", "auction",
             "Ann buy SV", "Ben buy CS", "Cat buy DH", "Dan buy MH",
             "Ann buy BO",
             "SR 1", "Cat par PRR 67"]
    r = replay(lines, tmp_path)
    assert [(f.line, f.rule) for f in r.findings] == [
        (9, "auction.buy_not_cheapest"), (10, "round.marker"), (11, "turn.order")]
    assert r.findings[1].message == "'SR 1' but the auction is not over (CA, BO unsold)"
    # Ann's turn never ended, so SR 1 starts with her: Cat's par is out of turn,
    # marked as a possible consequence, and applied
    assert r.findings[2].consequential
    assert r.game.corporations["PRR"].par.price == 67
    assert r.game.player_by_name["Cat"].cash == 600 - 70 - 134


def test_a_station_with_no_marker_left_names_the_real_reason(tmp_path):
    # NYNH placed its second and last marker on E19 (line 246); at its next
    # turn it lays 9 on D16, and the station step has nothing to do: it passes
    # by itself.  A station written now is refused for the missing marker, not
    # as coming "after" a step the company never took.
    lines = prefix_until("NYNH run 3 G19.1-F20.1-E19 (100) = 100", 1) + ["NYNH token D14"]
    r = replay(lines, tmp_path)
    errors = [f for f in r.findings if f.severity == "error"]
    assert [(f.line, f.rule, f.message) for f in errors] == [
        (len(lines), "token.none_left", "NYNH has placed all 2 of its station markers")]


def test_a_guessed_rotation_is_said_and_later_findings_point_to_it(tmp_path):
    lines = GAME.read_text().split("\n")
    at = lines.index("PRR lay 59 H18 r5")
    lines[at] = "PRR lay 59 H18"          # rotation left out: 59 fits H18 two ways
    r = replay(lines, tmp_path)
    info = [f for f in r.findings if f.rule == "tile.rotation_guessed"]
    assert [(f.line, f.severity) for f in info] == [(at + 1, "info")]
    assert info[0].message == ("the rotation of tile 59 on H18 is not written and it fits in "
                               "rotations 1, 5; rotation 1 is taken (write it, e.g. '59 H18 r1')")
    first = next(f for f in r.findings if f.severity == "error")
    assert (first.line, first.rule) == (at + 2, "token.reach")
    assert first.message.endswith("(the rotation of tile 59 on H18 was not written at line "
                                  f"{at + 1}; rotation 1 was taken)")


def test_a_guessed_rotation_leaves_the_record_as_written(tmp_path):
    """The replay guesses a rotation the line leaves out but does not write
    it into the record: a second replay of the same record (a hint's search
    replays it) guesses again and says so again."""
    from railcheck.actions import LayTile
    lines = GAME.read_text().split("\n")
    at = lines.index("PRR lay 59 H18 r5")
    lines[at] = "PRR lay 59 H18"
    path = tmp_path / "g.18xx"
    path.write_text("\n".join(lines) + "\n")
    record, _ = load_game(str(path))
    lay = next(a for a in record.actions if isinstance(a, LayTile) and a.line == at + 1)
    first = Replay(record).run()
    assert lay.rotation is None
    second = Replay(record).run()
    said = [[(f.line, f.rule) for f in r.findings if f.rule == "tile.rotation_guessed"]
            for r in (first, second)]
    assert said == [[(at + 1, "tile.rotation_guessed")]] * 2
    assert [(f.line, f.rule) for f in first.findings] == [(f.line, f.rule) for f in second.findings]
