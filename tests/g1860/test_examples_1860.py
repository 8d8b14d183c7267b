"""1860's bundled example: a complete legal game in the notation (game
210007 of 18xx.games, renamed), scored as the site did."""

from pathlib import Path

from conftest import replay_file as run

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "1860"


def test_complete_game_is_legal_and_scores_as_the_site():
    r = run(EXAMPLES / "game.18xx")
    assert [f.severity for f in r.findings] == ["info"]     # 8 runs written by their stops only
    assert r.finished and r.end_reason == "stock_market"
    assert {row["player"]: row["net_worth"] for row in r.standings} == {
        "Bob": 16165, "Alice": 9773}
    rows = {row["player"]: row for row in r.standings}
    assert (rows["Alice"]["cash"], rows["Alice"]["privates"]) == (3836, 200)
