"""The bundled 1889 examples: a complete legal game (the real game 962 in
notation, with rounds) whose standings are the site's, and one game per rule
that 1889 adds to 1830's or changes, each flagged at its last line, and only
there."""

from pathlib import Path

import pytest

from conftest import assert_flagged_only_at, illegal_examples, replay_file

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1889"


def test_complete_game_is_legal_and_scores_the_sites_result():
    r = replay_file(EXAMPLES / "game.18xx")
    assert r.findings == []
    assert r.finished and r.end_reason == "bank"
    assert r.phase == "5"
    rows = {row["player"]: row for row in r.standings}
    assert rows["Bob"] == {"player": "Bob", "cash": 2039, "shares": 2405, "privates": 0,
                           "net_worth": 4444, "rank": 1}
    assert [rows[p]["net_worth"] for p in ("Carol", "Alice", "Dave")] == [4317, 3880, 3091]


def test_complete_game_uses_the_title_s_own_powers():
    text = (EXAMPLES / "game.18xx").read_text(encoding="utf-8")
    assert "MF lay 437 G10 r0" in text and "ER lay 14 C4 r1" in text
    assert "\nOR 1.1\n" in text and "\nSR 2\n" in text     # written with its rounds


ILLEGAL = {
    "par-off-the-market": (17, "stock.par_price", "¥67 is not a par value; par values are "
                                                  "¥100, ¥90, ¥80, ¥75, ¥70, ¥65"),
    "sale-of-one-company-twice": (121, "stock.sell_blocks", "Carol already sold TR this turn"),
    "private-bought-from-a-player": (56, "private.trade_phase",
                                     "players may not buy privates from each other in phase 3"),
    "port-in-another-presidents-turn": (40, "private.window",
                                        "Carol's MF may lay its tile only outside the turns of "
                                        "companies other players preside; it is IR's turn"),
    "port-off-the-coast": (43, "private.power", "MF can lay track only on B11, G10, I12, J9, "
                                                "not J5"),
    "port-tile-laid-by-a-company": (43, "tile.special",
                                    "tile 437 is laid only with a private's power"),
    "ohzu-tile-after-the-sale": (73, "private.window",
                                 "ER's tile lay is made by the player who sells it to a company, "
                                 "at once"),
    "smr-on-a-mountain-with-a-river": (297, "checkpoint.mismatch",
                                       "IR has ¥1044, the record says ¥1124"),
    "ferry-in-a-three-player-game": (8, "private.not_in_game",
                                     "UTF is not in a game of 3 players (it needs 4 or more)"),
    "track-through-a-new-home-station": (86, "tile.connection",
                                         "tile 6 rotation 1 on K8 is not connected to SR's "
                                         "network"),
    "train-from-a-company-with-the-presidents-money": (197, "emergency.source",
                                                       "in an emergency only the depot sells"),
    "emergency-sale-hands-over-a-presidency": (594, "emergency.presidency",
                                               "Dave may not give up the presidency of KO while "
                                               "raising money for TR's train: selling 30% "
                                               "leaves 20%, less than another player's 30%"),
    "diesel-paid-the-brown-value": (642, "route.revenue",
                                    "AR's runs are worth ¥290, but ¥210 was claimed"),
}


def test_every_illegal_example_is_listed():
    assert illegal_examples(EXAMPLES) == sorted(ILLEGAL)


@pytest.mark.parametrize("name", sorted(ILLEGAL))
def test_illegal_example_is_flagged_at_its_last_line_only(name):
    line, rule, text = ILLEGAL[name]
    path = EXAMPLES / "illegal" / f"{name}.18xx"
    assert len(path.read_text(encoding="utf-8").splitlines()) == line
    assert_flagged_only_at(path, line, rule, text)
