"""The rules of the summary that no other test breaks on purpose (docs/1890.md, "Every rule
of the summary"): the complete example game, changed to break one rule, is flagged at the
changed line with that rule's finding."""

from pathlib import Path

import pytest

from conftest import replay_file as run

GAME = Path(__file__).resolve().parents[2] / "examples" / "kansai" / "game.18xx"


def without_checkpoints() -> str:
    text = GAME.read_text(encoding="utf-8")
    return "\n".join(line for line in text.splitlines() if not line.startswith("check ")) + "\n"


@pytest.mark.parametrize("rule_no, before, after, rule, line, message", [
    ("F7", "HER buy train 6 for 630", "HER buy train D for 900", "trains.not_available",
     "HER buy train D for 900", "a D-train is sold once the first 6-train is (F7)"),
    ("F9", "HER lay 7 D8\n", "HER lay 7 D8\nHER buy private KT from Chie for 40\n",
     "private.buy_phase", "HER buy private KT from Chie for 40",
     "companies buy privates only in phases 2 and 3 (O6); this is phase 1"),
    ("SS1", "Ben buy JR\nChie pass", "Ben sell HER\nChie pass", "stock.sell_first_round",
     "Ben sell HER", "no shares may be sold in the first stock round (SS1)"),
    ("SB6", "Ben sell HER\nBen buy KNR\nChie pass\nAki pass\nBen pass",
     "Ben sell HER\nBen buy KNR\nChie pass\nAki pass\nBen buy HER", "stock.rebuy",
     "Ben buy HER", "Ben sold HER this round and may not buy it again (SB6)"),
    ("K6", "Chie buy M2\nChie par KNR 80\nAki buy M1", "Chie buy M2\nAki buy M1\nAki par KNR 80",
     "kansai.par_setter", "Aki par KNR 80",
     "KNR's par value is set by the owner of M2 (Chie), not by Aki"),
    ("O5a", "KNR buy train D for 900", "KNR buy train D exchange 3 for 600", "trains.exchange",
     "KNR buy train D exchange 3 for 600", "KNR owns no 3-train to trade in"),
    ("B1", "KNR buy train D for 900", "Ben sell 3 KNR\nKNR buy train D for 900",
     "emergency.presidency", "Ben sell 3 KNR",
     "Ben may not give up the presidency of KNR while raising money for it (B1)"),
    ("K1", "M5 buy train 2 for 60\n", "M5 buy train 2 for 60\nM5 convert\n", "kansai.conversion",
     "M5 convert", "M5 does not convert into KNR (only minors 1-4 do)"),
    ("N5", "OR 3.1\nM1 run 2 H14-H13 = 30", "OR 3.1\nM5 run 2 B7-B8 = 10\nM1 run 2 H14-H13 = 30",
     "kansai.minor_closed", "M5 run 2 B7-B8 = 10",
     "M5 (Kobe Electric Railway) has converted or closed and no longer operates"),
    ("K8", "M2 convert\n", "M2 convert\nM4 run 2 I13-I12 = 20\nM4 payout\n",
     "kansai.knr_at_once", "M4 run 2 I13-I12 = 20",
     "KNR operates at once after Osaka Electric Railroad converts (K8), before M4"),
    # (in JR's own turn: written in KNR's, after JR's turn, it is JR's second turn, turn.order)
    ("L2", "JR lay 9 F8\n", "JR lay 9 F8\nJR ignore KRTR for 100\n", "kansai.krtr_fee",
     "JR ignore KRTR for 100",
     "JR may not pay to ignore KRTR's station (L2: every company but JR and OMS)"),
    ("N0", "M1 buy train 2 for 60\nM2 buy train 2 for 60",
     "M2 buy train 2 for 60\nM1 buy train 2 for 60", "turn.order", "M2 buy train 2 for 60",
     "minors operate by their numbers (N0): M2 before M1; taken in the record's order"),
    ("N1", "M1 buy train 2 for 60\nM2", "M1 buy train 2 for 60\nM1 convert\nM2",
     "kansai.conversion_early", "M1 convert",
     "M1 (Kanan Railway) may convert into KNR from phase 2; this is phase 1"),
    ("P1", "HER lay 7 B9", "HER lay 7 B11", "track.one_lay", "HER lay 7 B11",
     "HER already laid 1 tile(s) this turn; the limit is 1"),
])
def test_a_rule_broken_is_flagged_at_its_line(rule_no, before, after, rule, line, message):
    text = without_checkpoints()
    assert before in text
    changed = text.replace(before, after, 1)
    first = run(GAME, text=changed).errors[0]
    assert (first.rule, first.text) == (rule, line), first
    assert changed.splitlines()[first.line - 1] == line
    assert message in first.message


def test_one_station_of_a_company_per_hex():
    # O2a: HER places a station on E15 (Sakai) in OR 4.1 and again in OR 4.2
    text = without_checkpoints()
    text = text.replace("HER buy train 6 for 630\n", "HER buy train 6 for 630\nHER token E15\n",
                        1)
    i = text.index("OR 4.2")
    j = text.index("HER payout\n", i) + len("HER payout\n")
    text = text[:j] + "HER token E15\n" + text[j:]
    first = run(GAME, text=text).errors[0]
    assert (first.rule, first.text) == ("kansai.one_station_per_hex", "HER token E15")
    or42 = text[:text.index("OR 4.2")].count("\n") + 1
    assert first.line > or42 and first.message == (
        "HER already has a station on E15: one station of a company per hex (O2a)")
