"""How far a train may run: one interface for every title's model.

* ``stops``: a count of revenue centres visited (1830's "4": any four stops);
* ``n+m``: n cities (off-board areas count as cities) and m towns, a town may
  stand in for an unused city (1860's "3+2");
* ``hexes``: a count of hexes entered along the track (18Ireland's "2H");
* ``unlimited``: no limit (1830's diesel).

A train also runs on a gauge (``broad``, ``narrow`` or ``any``).  The
ruleset writes a train's reach as ``distance``: an integer (stops), null
(unlimited), or a mapping ``{cities: 3, towns: 2}`` or ``{hexes: 2}``, with an
optional ``gauge``.  Counting needs the visited nodes' kinds (and for hexes,
the track followed), so :meth:`Reach.problem` is asked once the route's nodes
are known.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

GAUGES = ("broad", "narrow", "any")


@dataclass(frozen=True)
class Reach:
    kind: str                       # "stops", "n+m", "hexes" or "unlimited"
    stops: Optional[int] = None
    cities: int = 0
    towns: int = 0
    hexes: Optional[int] = None
    gauge: str = "any"

    @classmethod
    def from_distance(cls, distance, gauge: str = "any") -> "Reach":
        """The reach a ruleset's ``distance`` describes (see the module text);
        raises ValueError with a message for a shape it does not know."""
        if gauge not in GAUGES:
            raise ValueError(f"unknown gauge {gauge!r}; known: {', '.join(GAUGES)}")
        if distance is None:
            return cls("unlimited", gauge=gauge)
        if isinstance(distance, bool):
            raise ValueError(f"expected a number of stops or a mapping, got {distance!r}")
        if isinstance(distance, int):
            return cls("stops", stops=distance, gauge=gauge)
        if isinstance(distance, dict):
            keys = set(distance)
            if keys <= {"cities", "towns"} and "cities" in keys:
                c, t = distance.get("cities", 0), distance.get("towns", 0)
                if not all(isinstance(x, int) and not isinstance(x, bool) and x >= 0
                           for x in (c, t)):
                    raise ValueError("cities and towns are whole numbers")
                return cls("n+m", cities=c, towns=t, gauge=gauge)
            if keys == {"hexes"} and isinstance(distance["hexes"], int):
                return cls("hexes", hexes=distance["hexes"], gauge=gauge)
            raise ValueError(f"a distance mapping is {{cities: N, towns: M}} or {{hexes: N}}, "
                             f"not {distance!r}")
        raise ValueError(f"expected a number of stops, a mapping or null, got {distance!r}")

    def describe(self) -> str:
        if self.kind == "stops":
            return f"{self.stops}"
        if self.kind == "n+m":
            return f"{self.cities} cities + {self.towns} towns"
        if self.kind == "hexes":
            return f"{self.hexes} hexes"
        return "unlimited"

    def too_many_stops(self, n: int) -> bool:
        """What can be told from the number of stops alone."""
        if self.kind == "stops":
            return n > self.stops  # type: ignore[operator]
        if self.kind == "n+m":
            return n > self.cities + self.towns
        return False

    def problem(self, kinds: list[str], hexes_entered: Optional[int] = None) -> Optional[str]:
        """Why a run visiting nodes of ``kinds`` ("city", "town", "offboard")
        is beyond this reach, or None."""
        n = len(kinds)
        if self.kind == "stops" and n > self.stops:  # type: ignore[operator]
            return f"visits {n} stops but may visit only {self.stops}"
        if self.kind == "n+m":
            big = sum(1 for k in kinds if k != "town")
            small = n - big
            if big > self.cities:
                return (f"visits {big} cities or off-board areas but may visit only "
                        f"{self.cities} (a {self.cities}+{self.towns} train)")
            # towns fill the train's town places, then its unused city places
            if small > self.towns + (self.cities - big):
                return (f"visits {big} cities and {small} towns; a {self.cities}+{self.towns} "
                        f"train counts at most {self.cities} cities and {self.towns} towns "
                        f"(a town may take an unused city's place)")
        if self.kind == "hexes" and hexes_entered is not None and hexes_entered > self.hexes:  # type: ignore[operator]
            return f"runs through {hexes_entered} hexes but may run only {self.hexes}"
        return None
