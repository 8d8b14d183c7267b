"""18Ireland's operating round: the shared round, with the privates' tokens
(CDSPC, TASPS: ``assign``) and 18Ireland's bankruptcy."""

from __future__ import annotations

from ...actions import Assign, Pass
from ...findings import RuleViolation
from ...mechanics.shares import raising_power
from ...rounds.operating import OperatingRound
from ...state import Corporation


class OperatingRound18Ireland(OperatingRound):

    def wants(self, action) -> bool:
        """The last company, kept open for its private's extra lay, closes
        the round with its pass."""
        if isinstance(action, Pass) and self.at_end() and self.closed_turn is not None \
                and self.closed_turn.corp.sym == action.actor:
            return True
        return super().wants(action)

    def next_corporation(self):
        """A company that left the game during the round takes no turn."""
        super().next_corporation()
        while self.turn is not None and self.turn.corp.closed:
            self.turn = None
            super().next_corporation()

    def process_corp(self, t, action):
        """A pass while the company's trains wait to run passes a step the
        site asked for (a private's or a station's) that railcheck passes by
        itself: it changes nothing, and the run stays due."""
        stepped = False
        if isinstance(action, Pass) and t.step < self.done:
            from .closing import president_bankrupt
            from .steps import BuyTrain18Ireland, Route18Ireland
            step = self.steps[t.step]
            if isinstance(step, BuyTrain18Ireland) and step.must_buy(t.corp) \
                    and t.corp.president is not None:
                power, price = raising_power(self.game, self, t.corp)
                if power < price:
                    # the company cannot buy the train it must own: its president
                    # is bankrupt (the site takes the pass as the declaration)
                    t.acted = True
                    president_bankrupt(self.game, self, t)
                    return self.settle()
            if isinstance(step, Route18Ireland) and step.available(t):
                t.acted = True
                return
            stepped = step.available(t)
        super().process_corp(t, action)
        if stepped and self.at_end() and self.closed_turn is t \
                and self.lay_left_after_track(t.corp):
            # the pass of a step ended the round's last turn: the site keeps
            # the turn open for a private's lay usable at any moment of it
            # (DCR), and a second pass declines it (18003_5, #243 and #244)
            self.finished = False

    def extra_lay_left(self, corp) -> bool:
        """The round's last turn stays open only for a lay usable after the
        track step (DCR); DR's, TDR's and the Irish Mail's are the track
        step's, and the site ends the round without waiting (18006_1, #950:
        DKR with TDR unused)."""
        return self.lay_left_after_track(corp)

    def lay_left_after_track(self, corp) -> bool:
        """``corp`` owns a private with a lay left that it may use after its
        track step (``tile_lay.after_track``: DCR)."""
        for c in corp.companies:
            lay = (c.spec.special or {}).get("tile_lay") or {}
            if not c.closed and lay.get("after_track") \
                    and (lay.get("count") is None or c.uses < int(lay["count"])):
                return True
        return False

    def process_private(self, company, action):
        if not isinstance(action, Assign):
            return super().process_private(company, action)
        g = self.game
        owner = company.owner
        spec = (company.spec.special or {}).get("assign")
        if company.closed or not isinstance(owner, Corporation):
            raise RuleViolation("private.power", f"{company.sym}'s token is placed by the "
                                                 f"company that owns it")
        if spec is None:
            raise RuleViolation("private.power", f"{company.sym} has no token to place")
        if action.target not in spec["hexes"]:
            raise RuleViolation("private.power",
                                f"{company.sym}'s token goes on {', '.join(spec['hexes'])}, "
                                f"not {action.target}")
        in_turn = (self.turn is not None and self.turn.corp is owner) or \
            (self.closed_turn is not None and self.closed_turn.corp is owner)
        if not in_turn:
            raise RuleViolation("private.power", f"{company.sym} can be used only in its "
                                                 f"owner {owner.sym}'s turn")
        g.title.state.assigned[company.sym] = (owner.sym, action.target)
        if spec["closes"]:
            g.close_company(company)
        if self.turn is not None:
            self.settle()

    def cheapest_train(self):
        """A president helps his company when it cannot pay the cheapest
        train of the depot (the bank pool's primed trains do not count)."""
        depot = self.game.available_depot_trains()
        return min(depot, key=lambda t: t.spec.price) if depot else super().cheapest_train()

    def do_bankrupt(self, t, action):
        from .closing import president_bankrupt
        president_bankrupt(self.game, self, t)
