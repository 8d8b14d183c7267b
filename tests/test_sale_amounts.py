"""A sale of a certificate not held whose company the record's later
purchases name, but not how much of it was sold (``following/sale.py``,
``implied_sale``; ``following/repair.py``, ``_implied_sale_amounts``): the
purchases name only the certificates bought back from the pool — never a
president's certificate, never a share nobody bought back — so the amounts
of that company up to what the seller holds are read by the record's next
lines, the one they name first."""

from railcheck.engine import Replay

from conftest import error_findings, net_worths
from test_slips import _changed_export


def test_a_sale_not_held_is_the_amount_the_record_goes_on_from_not_only_what_is_bought_back():
    # 1860_rand_49000100_0 #221: Player 2 sells BHI&R_1 and BHI&R_0 (the
    # president's certificate), 30%; written as FYN_8, 15%, which he does
    # not hold.  The later purchases name BHI&R_1 alone (#297: nobody buys
    # a president's certificate from the pool), so the sale was read as 10%
    # of BHI&R, Player 2 stayed its president and BHI&R's float at #297
    # was refused: 120 errors.  Now 10%, 20% and 30% are read by the next
    # lines; 30% is the one they go on from: one finding, the game's end
    changed = _changed_export("1860_slips/1860_rand_49000100_0.json.gz", 221,
                              {"shares": ["FYN_8"], "percent": 15})
    res = Replay(changed, hints=False).run()
    assert [(f.action_id, f.rule, f.message) for f in error_findings(res)] == [
        (221, "stock.sell_not_owned",
         "Player 2 holds 0% of FYN and cannot sell 15%; the record's later lines buy Player 2's "
         "BHI&R_1 from the bank (#297) and go on as if Player 2 sold 30% of BHI&R: taken so")]
    assert net_worths(res) == {"Player 2": 10033, "Player 1": 8156}
