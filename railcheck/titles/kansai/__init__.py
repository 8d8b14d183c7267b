"""Kansai (the title line is missing from its Polish rule summary).

Every rule the summary states is in ``rules.yaml``; every number it does not
give comes from a components file the user fills in from the game box
(``components.py``, docs/1890-components.md).  Where a number is
``unknown`` the check that needs it is not made and the report says so, once
per kind of check.  Because the economy (starting cash, market, prices) may
be unknown, the title replays a record with its own checker (``replay.py``):
the phases, the turns and every Kansai rule, not the players' and companies'
money (docs/1890.md says what is and is not checked).
"""

from __future__ import annotations

from pathlib import Path

from ..base import Title


class TitleKansai(Title):
    id = "1890"
    #: ``kansai`` was the title's id before the rule book named it (records,
    #: components files and rulesets written then still work)
    aliases = ("kansai", "Kansai (title line missing from the summary)", "Kansai",
               "the railways of Kansai (Keihanshin)")
    folder = Path(__file__).resolve().parent
    rounds_description = ("waterfall auction of the privates, then stock rounds (always one) "
                          "each followed by 1 to 3 operating rounds (by phase); minors 1-4 "
                          "convert into Kinki Nippon Railway in their operating turns")
    events = ("jr_privatised",)
    uses_components = True

    #: the rule book's scenarios, each a filled components file (scenarios/)
    scenarios = {"hanshin": "hanshin.yaml", "keihanshin": "keihanshin.yaml",
                 "1890": "1890.yaml", "1890-simplified": "1890-simplified.yaml"}

    @classmethod
    def shipped_components(cls, name):
        file = cls.scenarios.get(str(name).strip().lower())
        return cls.folder / "scenarios" / file if file else None

    @classmethod
    def load_rules(cls, options=(), components=None):
        from .rules import load_rules
        rules = load_rules(options, components)
        rules.title_class = cls
        return rules

    def operates(self, corp) -> bool:
        """Who operates in an operating round (the shared ``Game.operating_order``): a minor
        its owner bought, until it converts or closes (N0); a main company with a price
        marker while money is tracked (its place is its price's, O0b), floated (KNR: started
        by Osaka Electric Railroad's conversion, K8, unless it is a normal company), not
        closed by the black zone (K10), OMS from phase 4 (C5)."""
        h = self.game
        if corp.kind == "minor":
            return not corp.closed and h.minor_owner(corp.sym) is not None
        led = h.ledger
        if led is None or not led.on or corp.sym not in led.marked or led.closed(corp.sym):
            return False
        r = led.r
        if corp.sym == "OMS" and not r.phase_at_least("4"):
            return False
        if corp.sym == "KNR" and not r.knr_normal:
            return r.state.knr_started
        return corp.floated

    def operating_order_key(self, corp):
        """The minors first, by their numbers (N0: the rule book's reading
        ``rulebook.minors_operate: first``; the round checks their place among the main
        companies only with it), then the main companies by price, the highest first, on one
        cell the top marker, at equal prices the one further right (O0b)."""
        if corp.kind == "minor":
            return (0, corp.sym, ())
        return (1, "", self.game.price_order_key(corp))

    def cert_limit_applies(self) -> bool:
        """SB5 is checked while money is tracked (``Holdings.money_tracked``): what counts
        depends on the share prices' zones (SM1, SM2), which the market grid gives."""
        return self.game.money_tracked

    def counts_for_cert_limit(self, corp) -> bool:
        """SB5, SM1, N0: every certificate of a company counts (a minor's one), except while
        its price is in the yellow or orange zone (``no_cert_limit``) and once it is closed
        (a minor converted into KNR or privatised, N5; a company the black zone closed, K10)."""
        return not corp.closed and super().counts_for_cert_limit(corp)

    @classmethod
    def own_table(cls):
        """``railcheck next``, hover and completion for this title's own
        checker (``table.py``: ``kansai_next``, ``kansai_hover``,
        ``completion_items``)."""
        from . import table
        return table

    @classmethod
    def replay(cls, replay):
        from .replay import KansaiReplay
        return KansaiReplay(replay.record, replay.rules, stop_at=replay.stop_at,
                            before_action=replay.before_action, after_action=replay.after_action,
                            on_action=replay.on_action, on_round_end=replay.on_round_end).run()
