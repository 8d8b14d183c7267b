"""18Ireland's gauge in the map's checks (railcheck/board/gauge.py): a broad
lay joins the company's broad network, a narrow lay its broad or narrow
network (narrow track is walked from every node the broad network reaches,
past other companies' stations); track meets track of its own gauge; an
upgrade gives usable track or changes a value (semi-restrictive); merging
minors are joined by broad track, other stations not blocking."""

import gzip

import pytest

from railcheck.board.gauge import broad_partners, narrow_edges
from railcheck.engine import Replay
from railcheck.importer import import_export
from railcheck.loader import load_game

from conftest import DATA

from test_examples_18ireland import EXAMPLES

REAL = DATA / "exports" / "18Ireland"
RANDOM = DATA / "exports" / "18Ireland_random"


def record_of(name):
    if name.startswith("18Ireland_rand"):
        path = RANDOM / f"{name}.json.gz"
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            text = fh.read()
    else:
        path = REAL / f"{name}.json"
        text = path.read_text(encoding="utf-8")
    return import_export(text, str(path))[0]


def replay_before(name, action_id):
    record = record_of(name)
    lay = next(a for a in record.actions if a.action_id == action_id)
    record.actions = [a for a in record.actions if a.action_id < action_id]
    record.expected_result = record.expected_end_reason = None
    return lay, Replay(record).run()


#: the lays the map could not join before it knew the gauge (one in each real
#: game, one in random 18005_4): (game, action, company, hex, the tile's
#: exits, the edges its broad network reaches, the edges its narrow one does)
NARROW_ONLY = [
    # DSER (stations I9, J4) reaches E7 from F8's narrow track, which leaves
    # Sligo F6, a city filled by GNRI and MGWR
    ("161830", 415, "DSER", "E7", [5], [], [5]),
    ("18Ireland_game_end_bankrupt", 823, "UR", "F12", [0, 3, 5], [], [3, 5]),
    ("18Ireland_game_end_stock_market", 772, "MRNCC", "D12", [0, 2, 5], [], [2, 5]),
    ("larger_bank_optional_rule", 832, "MRNCC", "F12", [0, 3], [], [3]),
    ("18Ireland_rand_18005_4", 482, "DER", "F8", [2, 3], [4], [3]),
]


@pytest.mark.parametrize("name,aid,corp,coord,exits,broad,narrow", NARROW_ONLY)
def test_a_narrow_lay_reached_by_narrow_track_only(name, aid, corp, coord, exits, broad, narrow):
    lay, result = replay_before(name, aid)
    board = result.game.board
    assert (lay.actor, lay.hex) == (corp, coord)
    assert sorted(board.tiles[lay.tile].exits(lay.rotation)) == exits
    assert sorted(board.connected_edges(corp, coord)) == broad
    assert sorted(narrow_edges(board, corp, board.hexes[coord])) == narrow
    # the lay is legal: laid as written, no finding
    plan = board.plan_lay(corp, lay.tile, coord, lay.rotation,
                          colors=result.game.phase.tiles)
    assert plan.rotation == lay.rotation


def with_lay(name, action_id, tile, hex, rotation):
    record = record_of(name)
    for a in record.actions:
        if a.action_id == action_id:
            a.tile, a.hex, a.rotation, a.tile_copy = tile, hex, rotation, None
    return record


def test_a_broad_lay_off_the_broad_network_is_flagged():
    # 161830 #415 written as a broad town (tile 3) on E7: DSER's broad track
    # does not reach E7 (only its narrow track, from F8); flagged, and taken
    # as laid, as the record says (the tile fits the map: it lies there)
    rp = Replay(with_lay("161830", 415, "3", "E7", 0), check_purity=True)
    result = rp.run()
    assert rp.impure == []
    found = [(f.rule, f.action_id, f.message) for f in result.errors if f.action_id == 415]
    assert found == [(
        "tile.connection", 415,
        "tile 3 rotation 0 on E7 adds broad gauge track, but DSER's broad network does not "
        "reach E7 (broad track must join the company's broad track; its narrow track at edge 5 "
        "reaches it); taken as laid, as the record says")]
    assert result.game.board.tile_on("E7") == ("3", 0)


def test_a_narrow_lay_pointing_away_from_the_narrow_track_is_flagged():
    # IR5 (a narrow town) on E7 turned to r0: its track leaves by edge 0,
    # DSER's narrow track reaches E7 only at edge 5; r5 fits, so the tile is
    # taken turned (the record says it was laid), the written rotation flagged
    result = Replay(with_lay("161830", 415, "IR5", "E7", 0)).run()
    found = [(f.rule, f.action_id) for f in result.errors if f.action_id == 415]
    assert found == [("tile.connection", 415)]
    msg = next(f.message for f in result.errors if f.action_id == 415)
    assert msg.startswith("tile IR5 rotation 0 on E7 is not connected to DSER's network (its "
                          "narrow track at edge 5 reaches E7)")
    assert result.game.board.tile_on("E7") == ("IR5", 5)


def test_an_upgrade_giving_no_usable_track_is_flagged():
    # 161830 #415 written as tile 19 on H8 r2 (phase 4): DSER's straight 9 on
    # H8 becomes a crossing whose new track DSER's broad network does not
    # reach, and no stop's value changes: semi-restrictive (O2a); flagged
    # after the lay, the tile stays
    result = Replay(with_lay("161830", 415, "19", "H8", 2)).run()
    found = [(f.rule, f.action_id, f.message) for f in result.errors
             if f.rule == "tile.no_new_track"]
    assert found == [(
        "tile.no_new_track", 415,
        "DSER's upgrade of H8 (tile 9 to 19) gives it no new broad gauge track it can use and "
        "changes no value of a stop on its track (values none); track is semi-restrictive: a "
        "new tile must add usable track or change a city's value")]
    assert result.game.board.tile_on("H8") == ("19", 2)


def test_a_board_of_works_lay_must_be_connected():
    # 18Ireland_game_end_stock_market #402: KJR (station G13) uses BoW to lay
    # tile 9 on E15; written on C11 instead, far from KJR's track, it is
    # refused (BoW's lay is connected like any lay), changing nothing
    record = with_lay("18Ireland_game_end_stock_market", 402, "9", "C11", 1)
    lay = next(a for a in record.actions if a.action_id == 402)
    assert lay.actor == "BoW"
    record.actions = [a for a in record.actions if a.action_id <= 402]
    record.expected_result = record.expected_end_reason = None
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert rp.impure == []
    found = [(f.rule, f.message) for f in result.errors if f.action_id == 402]
    assert found == [(
        "tile.connection",
        "tile 9 rotation 1 on C11 adds broad gauge track, but KJR's broad network does not "
        "reach C11 (broad track must join the company's broad track)")]
    assert result.game.board.tile_on("C11") == (None, 0)
    assert result.game.companies["BoW"].uses == 0


# --------------------------------------------------------------------------
# the merger's broad-gauge connection (M5)


def test_a_merger_joined_past_other_stations_is_legal():
    # 161830 #750 (MR 8.2): Dave adds CBPR to LER; CBPR's own network (blocked
    # by full cities of others) does not reach LER's station, but broad track
    # joins them when stations are ignored, as M5 says: no finding
    action, result = replay_before("161830", 750)
    assert (type(action).__name__, action.corporation) == ("Propose", "CBPR")
    assert [c.sym for c in result.game.round.proposal] == ["LER"]
    board = result.game.board
    _, reached, _ = board.network("CBPR")
    blocked_reach = {t for hi, ni in reached for t in board.hex_list[hi].nodes[ni].tokens}
    assert "LER" not in blocked_reach
    assert "LER" in broad_partners(board, "CBPR") and "CBPR" in broad_partners(board, "LER")
    full = Replay(record_of("161830")).run()
    assert full.findings == []


def test_a_merger_of_unconnected_minors_is_refused_and_changes_nothing():
    # examples/18Ireland/illegal/merger-of-unconnected-minors.18xx: in MR 5.2
    # DKR (Dublin I11) has broad track to no other minor; Bob's adding DER (I9)
    # is refused at line 311, DKR stays the only minor proposed
    record, read = load_game(str(EXAMPLES / "illegal" / "merger-of-unconnected-minors.18xx"))
    assert read == []
    rp = Replay(record, check_purity=True)
    result = rp.run()
    assert rp.impure == []
    assert [(f.line, f.rule, f.message) for f in result.errors] == [(
        311, "merger.connection",
        "DER (I9) is not joined by broad gauge track to DKR (I11); merging minors must be "
        "connected by broad track, other companies' stations not blocking (M5)")]
    board = result.game.board
    assert broad_partners(board, "DKR") == {"DKR"}
    assert "DER" in broad_partners(board, "UR")
    assert [c.sym for c in result.game.round.proposal] == ["DKR"]
