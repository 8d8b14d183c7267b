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

from dataclasses import dataclass, field
from pathlib import Path

from ..base import Title


@dataclass
class State1890:
    """What 1890 tracks beyond the shared state's objects (``holdings.py``: the players,
    corporations, certificates, privates, trains, cash, the phase and the priority): the
    title's own flags, and the stations and tiles the record placed (the board's in step 4
    of the move onto the shared engine, docs/1890.md)."""
    #: corporation -> the player holding its free share (HER, KHN: C1, C3)
    free_share: dict = field(default_factory=dict)
    #: KNR has started (M2 converted: K8)
    knr_started: bool = False
    #: company -> hexes with its stations
    stations: dict = field(default_factory=dict)
    #: companies that had a station in Kobe when KRTR started, or paid its fee (L2)
    krtr_free: set = field(default_factory=set)
    #: companies that paid KRTR's fee, and in which OR (L2)
    krtr_paid: dict = field(default_factory=dict)
    #: OMS's operating rounds so far (its free tile in its first: C7); OMER's upgrade used (P7)
    oms_turns: int = 0
    omer_used: bool = False
    #: company -> stations bought (placed by a token action; the home is free: O2)
    tokens_bought: dict = field(default_factory=dict)
    #: hexes the record has laid a tile on (a later lay there is an upgrade: free, O1c)
    laid_hexes: set = field(default_factory=set)
    #: hex -> the tile the record last laid there
    tile_on: dict = field(default_factory=dict)


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
