"""18Ireland's 24 games of random legal moves (played through the 18xx.games
engine; tests/data/exports/18Ireland_random) against the site's results and
the site engine's per-action traces.

CLEAN: games that replay with no error, end as the site says and score
exactly the site's result (a warning may remain: a rejected merger proposed
again, which the site clears).  FIRST_DIVERGENCE: the first action after
which railcheck's state differs from the trace, for every game (None: none
does).  Both tables say where 18Ireland stands today (docs/18Ireland.md,
"Status"); a change that moves a game forward updates them."""

import gzip
import json

import pytest

from railcheck.conformance import walk_trace
from railcheck.importer import import_export

from conftest import DATA, load_trace

GAMES = {p.name[:-len(".json.gz")]: p
         for p in sorted((DATA / "exports" / "18Ireland_random").glob("*.json.gz"))}


def export_text(name: str) -> str:
    with gzip.open(GAMES[name], "rt", encoding="utf-8") as fh:
        return fh.read()


#: games with no error, the site's end and scores: the site's end reason
CLEAN = {"18Ireland_rand_18003_0": "bank",
         "18Ireland_rand_18003_2": "bank",
         "18Ireland_rand_18003_4": "bank",
         "18Ireland_rand_18003_5": "bank",
         "18Ireland_rand_18004_1": "bank",
         "18Ireland_rand_18004_2": "bank",
         "18Ireland_rand_18004_3": "bank",
         "18Ireland_rand_18004_4": "bank",
         "18Ireland_rand_18004_5": "bank",
         "18Ireland_rand_18005_1": "bank",
         "18Ireland_rand_18005_2": "bank",
         "18Ireland_rand_18005_3": "bank",
         "18Ireland_rand_18005_4": "bank",
         "18Ireland_rand_18006_4": "bank"}

#: (action id, what differs, ours, the site's); None: the whole trace matches
FIRST_DIVERGENCE = {
    # trace-exact since a repeated proposal cleared with no vote keeps the
    # passes made before it (the merger round ends at #224 as on the site)
    "18Ireland_rand_18003_0": None,
    "18Ireland_rand_18003_1": (125, "Player 1's cash", 0, 25),
    "18Ireland_rand_18003_2": None,
    "18Ireland_rand_18003_3": (889, "GSWR's cash", 188, 78),
    "18Ireland_rand_18003_4": None,
    "18Ireland_rand_18003_5": (243, "MRNCC's cash", 274, 262),
    "18Ireland_rand_18004_0": (474, "DSER's cash", 713, 689),
    "18Ireland_rand_18004_1": None,
    "18Ireland_rand_18004_2": None,
    "18Ireland_rand_18004_3": None,
    "18Ireland_rand_18004_4": None,
    "18Ireland_rand_18004_5": None,
    "18Ireland_rand_18005_0": None,
    # trace-exact since stations and the site's skipped runs follow broad track
    # only (#459: MGWR's price moves left when its turn ends with no run)
    "18Ireland_rand_18005_1": None,
    "18Ireland_rand_18005_2": None,
    "18Ireland_rand_18005_3": (731, "CBSCR's cash", 150, 174),
    "18Ireland_rand_18005_4": (1014, "GNRI's cash", 349, 369),
    # trace-exact since companies operate in the record's order (#445: UR before
    # DKR is still flagged, turn.order: the site's order differs from ours there)
    "18Ireland_rand_18005_5": None,
    "18Ireland_rand_18006_0": (525, "CBPR's price", 55, 50),
    "18Ireland_rand_18006_1": (245, "Player 4's cash", 0, 20),
    "18Ireland_rand_18006_2": (1278, "DSER's cash", 445, 335),
    "18Ireland_rand_18006_3": (1280, "SLNCR's price", 20, 24),
    "18Ireland_rand_18006_4": (992, "GNRI's cash", 237, 217),
    "18Ireland_rand_18006_5": (32, "Player 4's cash", 0, 12),
}


def first_divergence(name):
    record, _ = import_export(export_text(name), name)
    divergence, result, _ = walk_trace(record, load_trace("18Ireland", name))
    return result, (divergence.as_tuple() if divergence else None)


def test_all_games_are_present():
    assert len(GAMES) == 24
    assert sorted(FIRST_DIVERGENCE) == sorted(GAMES)
    assert len(CLEAN) == 14


@pytest.mark.parametrize("name", sorted(GAMES))
def test_where_the_replay_parts_from_the_site_engine(name):
    result, divergence = first_divergence(name)
    assert divergence == FIRST_DIVERGENCE[name]
    if name in CLEAN:
        assert [f.message for f in result.findings if f.severity == "error"] == []
        assert {f.rule for f in result.findings if f.severity == "warning"} <= {"merger.repeated"}
        assert result.finished and result.end_reason == CLEAN[name]
        data = json.loads(export_text(name))
        names = {str(p["id"]): p["name"] for p in data["players"]}
        assert {r["player"]: r["net_worth"] for r in result.standings} == \
            {names[k]: v for k, v in data["result"].items()}


def test_a_bankrupt_presidents_private_sold_later_is_one_finding_each():
    # 18003_3: Player 1 goes bankrupt at action 164 holding TIM and DAR; by
    # the summary's B5 they leave the game with him, the site keeps them, and
    # DKR buys them from him at 166 and 169: each purchase is flagged and
    # taken as written (no later use of them is refused), and Player 1, out
    # of the game, takes no turn in the stock rounds after
    result, _ = first_divergence("18Ireland_rand_18003_3")
    closed = [(f.action_id, f.message) for f in result.errors if f.rule == "private.closed"]
    assert closed == [
        (166, "TIM left the game with its owner Player 1 when he went bankrupt (his privates "
              "leave the game with him: 18Ireland B5); taken as bought from him, as the record "
              "says"),
        (169, "DAR left the game with its owner Player 1 when he went bankrupt (his privates "
              "leave the game with him: 18Ireland B5); taken as bought from him, as the record "
              "says")]
    assert not any("Player 1's turn" in f.message for f in result.errors)
    data = json.loads(export_text("18Ireland_rand_18003_3"))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    assert {r["player"]: r["net_worth"] for r in result.standings} == \
        {names[k]: v for k, v in data["result"].items()}


def test_an_emergency_buy_from_another_company_at_most_at_face_value():
    # 18006_0, action 38: GNWR (£55, no train) buys DDR's 2H for £69, its
    # president paying £14 (B3: the president may buy from another company;
    # the 2H's face value is £80): no finding, and the site's scores
    result, _ = first_divergence("18Ireland_rand_18006_0")
    assert not [f for f in result.errors if f.rule.startswith("emergency.")]
    data = json.loads(export_text("18Ireland_rand_18006_0"))
    names = {str(p["id"]): p["name"] for p in data["players"]}
    assert {r["player"]: r["net_worth"] for r in result.standings} == \
        {names[k]: v for k, v in data["result"].items()}
