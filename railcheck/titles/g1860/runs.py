"""The revenue of an 1860 run recorded without it (older 18xx.games exports
give only the connections and the halts counted): the stops are read from the
connections, and an n+m train counts its best n cities or off-boards and,
with the city places left unused, its best towns (docs/1860.md O3e); each
halt counted pays the subsidy.  Used only when the export gives no revenue;
the run itself is not checked."""

from __future__ import annotations

from ...board.tiles import NODE_BASE, revenue_for_phase
from ...findings import RuleViolation


def _node_toward(board, coord: str, other: str):
    h = board.hexes[coord]
    if len(h.nodes) == 1:
        return 0
    for e, nb in board.neighbours(coord).items():
        if nb != other:
            continue
        for pi in h.at.get(e, ()):
            a, b = h.paths[pi]
            x = b if a == e else a
            if x >= NODE_BASE:
                return x - NODE_BASE
    return None


def route_stops(board, connections: list) -> list:
    """The (hex, node index) stops a run's connections join, in order of first visit."""
    stops: list = []

    def add(coord, idx):
        if idx is not None and (coord, idx) not in stops:
            stops.append((coord, idx))

    for seg in connections:
        if len(seg) == 1:
            coord, _, pair = str(seg[0]).partition(" ")
            if pair:
                for part in pair.split("."):
                    add(coord, int(part))
            else:
                for i in range(len(board.hexes[coord].nodes)):
                    add(coord, i)
            continue
        add(seg[0], _node_toward(board, seg[0], seg[1]))
        add(seg[-1], _node_toward(board, seg[-1], seg[-2]))
    return stops


def run_revenue(g, train, route) -> tuple[int, int]:
    """(revenue, subsidy) of a run recorded without its revenue."""
    board = g.board
    if board is None or not route.connections:
        raise RuleViolation("route.revenue_unknown",
                            f"the run of the {route.train}-train records no revenue and no "
                            f"connections to compute it from")
    st = g.title.state
    phase = g.phase.tiles[-1]
    cities, towns = [], []
    halts_seen = 0
    for coord, idx in route_stops(board, route.connections):
        node = board.hexes[coord].nodes[idx]
        value = revenue_for_phase(node.revenue, phase)
        if node.kind in ("city", "offboard"):
            cities.append(value)
        elif node.kind == "town":
            towns.append(value)
        else:
            halts_seen += 1
    dist = train.spec.distance if isinstance(train.spec.distance, dict) else {}
    n, m = int(dist.get("cities", 99)), int(dist.get("towns", 0))
    ins = g.rules.raw["insolvency"]
    if train.owner == "depot" and ins:
        # a leased train: 40 + 20 per stop (towns and halts are stops), at
        # most the train's city number of them; no subsidy
        stops = len(cities) + len(towns) + halts_seen
        return ins["lease_base"] + ins["lease_per_stop"] * min(stops, n), 0
    if st.nationalised:
        m = 0
    halts = 0 if st.no_building else min(int(route.halts or 0), halts_seen)
    cities.sort(reverse=True)
    towns.sort(reverse=True)
    counted = cities[:n]
    room = m + (n - len(counted)) - halts
    revenue = sum(counted) + sum(towns[:max(room, 0)])
    return revenue, halts * int(g.rules.operating["halt_subsidy"])
