"""18Ireland's operating round: the shared round, with the privates' tokens
(CDSPC, TASPS: ``assign``) and 18Ireland's bankruptcy."""

from __future__ import annotations

from ...actions import Assign, Pass
from ...findings import RuleViolation
from ...mechanics.shares import raising_power
from ...rounds.operating import OperatingRound
from ...state import Corporation
from .closing import president_bankrupt
from .steps import BuyTrain18Ireland, Route18Ireland


class OperatingRound18Ireland(OperatingRound):

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
        if isinstance(action, Pass) and t.step < self.done:
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
        super().process_corp(t, action)

    def extra_lay_left(self, corp) -> bool:
        """The round's last turn is not kept open once it ended: a private's
        power usable at any moment of the turn (DCR's lay, CDSPC's and TASPS's
        tokens) holds the turn's last step until a pass
        (``steps.BuyCompany18Ireland``), and DR's, TDR's and the Irish Mail's
        lays are the track step's (18006_1, #950: DKR with TDR unused)."""
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
        president_bankrupt(self.game, self, t)
