"""1860's operating round: the shared round with 1860's order (nationalised
corporations stop), discards only at the start of a corporation's own turn,
the bankruptcy test at the end of each turn, and nationalisation's stops
after each round."""

from __future__ import annotations

from ...actions import LayTile
from ...findings import RuleViolation
from ...rounds.operating import OperatingRound


class OperatingRound1860(OperatingRound):
    # 1860 discards excess trains at the start of the corporation's own turn,
    # by its own action: nothing is forced before other actions
    force_discards = False

    def wants(self, action) -> bool:
        """Under British Rail there are no stock rounds (N3): a player's stock
        action is this round's to refuse, not the start of a stock round (nor
        a reason to pass over the operating rounds left)."""
        if super().wants(action):
            return True
        return self.game.title.state.nationalised and action.actor in self.game.player_by_name

    def process(self, action):
        g = self.game
        st = g.title.state
        if isinstance(action, LayTile) and action.actor in st.receivership:
            # its turn has no track step (R1): said so, not as a turn out of order
            corp = g.corporations[action.actor]
            price = g.money(corp.price.price) if corp.price is not None else "no price"
            raise RuleViolation("track.receivership",
                                f"{corp.sym} is in receivership (no president; its price "
                                f"{price}) and lays no track ({action.tile} on {action.hex})")
        if st.nationalised and action.actor in g.player_by_name and not super().wants(action):
            left = [c.sym for c in g.corporations.values()
                    if c.floated and c.sym not in st.stopped]
            raise RuleViolation("stock.british_rail",
                                f"British Rail has formed: there are no more stock rounds, so "
                                f"{action.actor} may not '{action.verb}' ({g.round.label}; "
                                f"{len(left)} corporations still operate: {', '.join(left)})")
        return super().process(action)

    def next_corporation(self):
        st = self.game.title.state
        # nationalised corporations no longer operate
        self.order = [c for c in self.order if c.sym not in st.stopped]
        super().next_corporation()

    def start_turn(self, corp):
        # once the Southern Railway has formed (from the next stock round) no
        # station is placed, a home station neither: a corporation floated
        # since has none, so no route, and never runs (nor becomes insolvent)
        if self.game.title.state.no_building and not corp.home_placed:
            corp.operated = True
            return
        super().start_turn(corp)

    def check_skipped_turn(self, corp):
        return None        # runs are not checked yet: an empty turn is not flagged

    def end_turn(self):
        t = self.turn
        super().end_turn()
        if t is not None:
            self.game.title.check_bankrupt(t.corp)
            self.game.title.state.or_revenue[t.corp.sym] = getattr(t, "paid", 0) or 0
