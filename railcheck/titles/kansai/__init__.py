"""Kansai (the title line is missing from its Polish rule summary).

Every rule the summary states is in ``rules.yaml``; every number it does not
give comes from a components file the user fills in from the game box
(``components.py``, docs/kansai-components.md).  Where a number is
``unknown`` the check that needs it is not made and the report says so, once
per kind of check.  Because the economy (starting cash, market, prices) may
be unknown, the title replays a record with its own checker (``replay.py``):
the phases, the turns and every Kansai rule, not the players' and companies'
money (docs/kansai.md says what is and is not checked).
"""

from __future__ import annotations

from pathlib import Path

from ..base import Title


class TitleKansai(Title):
    id = "kansai"
    aliases = ("Kansai (title line missing from the summary)", "Kansai")
    folder = Path(__file__).resolve().parent
    rounds_description = ("waterfall auction of the privates, then stock rounds (always one) "
                          "each followed by 1 to 3 operating rounds (by phase); minors 1-4 "
                          "convert into Kinki Nippon Railway in their operating turns")
    events = ("jr_privatised",)
    uses_components = True

    @classmethod
    def load_rules(cls, options=(), components=None):
        from .rules import load_rules
        rules = load_rules(options, components)
        rules.title_class = cls
        return rules

    @classmethod
    def replay(cls, replay):
        from .replay import KansaiReplay
        return KansaiReplay(replay.record, replay.rules, stop_at=replay.stop_at,
                            before_action=replay.before_action).run()
