"""What the analyser reads of a game (``history``, ``plot``, ``report``, ``league``,
``show``), as 1890's checker knows it: the players' and companies' money from its ledger,
the prices, the trains, the phase, the round and the board of the components file's map.

A value the checker does not know for sure (an unknown number of the components file
made it so) is ``None`` here, never a guess: the analyser prints it as unknown.  Money is
there only when the components file gives what it needs (``Ledger.on``); otherwise
:func:`no_money` says why and the analyser says so.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Optional


class GameView:
    """A read-only picture of a 1890 replay in the shape of the shared ``Game``."""

    def __init__(self, replay):
        self.r = replay
        self.rules = replay.rules
        self.title = self.rules.title
        self._corps: dict = {}

    @property
    def untracked(self) -> Optional[str]:
        """Why no money is known (None: it is): the analyser says so."""
        led = self.led
        if led.on:
            return None
        off = ".".join(str(k) for k in led.off) if led.off else ""
        if off and off != "companies":
            return f"{off} is unknown in {self.rules.components.describe()}"
        return "the auction was not played" if off == "companies" else \
            "the record ends before the auction does"

    # the state ----------------------------------------------------------

    @property
    def led(self):
        return self.r.ledger

    @property
    def findings(self):
        return self.r.findings

    @property
    def current_action(self):
        return self.r.action if self.r.action is not None else self.r.last_action

    @property
    def finished(self) -> bool:
        return self.r.finished

    @property
    def phase(self):
        return SimpleNamespace(name=self.r.phase.name)

    @property
    def bank(self):
        led = self.led
        return SimpleNamespace(cash=led.bank if led.on and led.sure("bank") else None)

    @property
    def board(self):
        return self.r.operating.map.board

    @property
    def round(self):
        r = self.r
        turn = None
        corp = self.corporations.get(r.turn_actor) if r.kind == "OR" else None
        if corp is not None:
            t = r.operating.turn
            turn = SimpleNamespace(corp=corp, revenue=None if t is None else t.revenue)
        actor = r.turn_actor if not r.turn.get("ended") else None
        return SimpleNamespace(label=r.round_label, kind=r.kind, turn=turn, closed_turn=None,
                               describe_turn=lambda: actor or "", describe_step=lambda: "")

    def money(self, amount) -> str:
        return "unknown" if amount is None else self.r.money(amount)

    def _cash(self, who: str) -> Optional[int]:
        led = self.led
        if not led.on or not led.sure(who) or who in led.at_most:
            return None
        return led.get(who)

    @property
    def players(self) -> list:
        return [SimpleNamespace(name=p, cash=self._cash(p)) for p in self.r.holdings.names]

    @property
    def corporations(self) -> dict:
        """The companies with a par (the minors: once owned), as the shared Game's."""
        r, h, led = self.r, self.r.holdings, self.led
        out = {}
        owners = {p.name: p for p in self.players}
        for spec in r.rules.corporations:
            sym = spec.sym
            minor = spec.kind == "minor"
            corp = h.corporations[sym]
            if minor and h.minor_owner(sym) is None:
                continue
            price = None
            if not minor and led.on and corp.par is not None and led.sure("price:" + sym):
                value = led.price(sym)
                price = None if value is None else SimpleNamespace(price=value)
            president = h.minor_owner(sym) if minor else h.president(sym)
            # one object per company for the whole replay (observers compare them by identity)
            out[sym] = self._corps.setdefault(sym, SimpleNamespace())
            out[sym].__dict__.update(
                sym=sym, par=None if minor else h.par(sym),
                floated=(president is not None) if minor else corp.floated,
                closed=corp.closed,
                price=price, cash=self._cash(sym),
                trains=[SimpleNamespace(name=t) for t in sorted(h.train_names(sym))],
                president=owners.get(president))
        return out

    # the players' worth -------------------------------------------------

    def _row(self, player: str) -> Optional[dict]:
        if not self.led.on:
            return None
        rows, _ = self.led.standings()
        return next((row for row in rows if row["player"] == player), None)

    def share_value(self, p) -> Optional[int]:
        row = self._row(p.name)
        return None if row is None else row["shares"]

    def company_value(self, p) -> Optional[int]:
        row = self._row(p.name)
        return None if row is None else row["privates"]

    def net_worth(self, p) -> Optional[int]:
        row = self._row(p.name)
        return None if row is None else row["net_worth"]

