"""Runs of an 18xx.games export read on our map: the site's place numbers
within a hex mapped to ours (board.yaml ``node_order``), an export's
``connections`` parsed (``"F2 0.1"``: a stretch inside F2 from the site's
place 0 to its place 1), and the sequences of stop hexes they can be
chained into.  Used by the titles that check runs from their connections
(1860, 18Ireland)."""

from __future__ import annotations

import functools

from ..findings import RuleViolation
from .routes import follow_given_track


@functools.lru_cache(maxsize=None)
def node_orders(folder: str) -> dict:
    """The site's node numbering where it differs from ours (board.yaml
    ``node_order``), by tile name / printed hex.  The file is the one the
    title's ruleset includes as its board: its reading (libyaml) is shared
    with the ruleset's, not parsed again."""
    from ..ruleset import _read_doc
    data = _read_doc(str(folder) + "/board.yaml", "board").data
    if not isinstance(data, dict):
        return {}
    out = {}
    for section in ("tiles", "hexes"):
        for name, spec in (data.get(section) or {}).items():
            if isinstance(spec, dict) and spec.get("node_order"):
                out[str(name)] = tuple(spec["node_order"])
    return out


def site_node(g, coord: str, site_index: int) -> int:
    """Our node index for the site's node ``site_index`` on ``coord``."""
    h = g.board.hexes[coord]
    order = node_orders(str(g.title.folder)).get(h.tile.name if h.laid else coord)
    if not order or site_index >= len(order):
        return site_index
    names = {h.tile.node_name(i): i for i in range(len(h.tile.nodes))}
    return names.get(order[site_index], site_index)


def stop_hex_sequences(conns: list) -> list:
    """Every sequence of stop hexes the stretches can be chained into
    (consecutive stretches meet at a stop)."""
    ends = [(c[0], c[-1]) for c, _ in conns]
    if len(ends) == 1:
        return [[ends[0][0], ends[0][1]]]
    out = []

    def extend(seq, k):
        if k == len(ends):
            out.append(seq)
            return
        a, b = ends[k]
        last = seq[-1]
        for x, y in ((a, b), (b, a)):
            if x == last:
                extend(seq + [y], k + 1)
                if a == b:
                    break

    for start in dict.fromkeys(ends[0]):
        a, b = ends[0]
        extend([start, b if start == a else a], 1)
    uniq = []
    for s in out:
        if s not in uniq:
            uniq.append(s)
    return uniq


def parse_connections(connections: list) -> list:
    out = []
    for seg in connections:
        parts = [str(x).split() for x in (seg if isinstance(seg, list) else [seg])]
        if not parts or not all(parts):
            raise RuleViolation("route.path", f"an empty stretch of track in {connections!r}")
        hexes = [p[0] for p in parts]
        pair = None
        if len(parts) == 1 and len(parts[0]) > 1:
            try:
                pair = tuple(int(x) for x in parts[0][1].split("."))
            except ValueError:
                raise RuleViolation("route.path", f"cannot read the connection {seg[0]!r}") from None
        out.append((hexes, pair))
    return out


def follow_connections(g, label: str, connections: list, problems: list):
    """Each way an export's ``connections`` can be followed on the map, as
    (nodes, segments, keys) (see :func:`follow_given_track`): the site's
    place numbers inside a hex are read first; should they not fit the
    track, the track alone decides.  The refusals met are appended to
    ``problems`` (the first is the one to report)."""
    board = g.board
    conns = parse_connections(connections)
    for hexes, _ in conns:
        for coord in hexes:
            if coord not in board.hexes:
                raise RuleViolation("route.path", f"{label}: there is no hex {coord}")
    for use_pairs in (True, False):
        for seq in stop_hex_sequences(conns):
            cands = [None] * len(seq)
            ok = True
            for k, (hexes, pair) in enumerate(conns):
                if pair is None or not use_pairs:
                    continue
                both = {site_node(g, hexes[0], i) for i in pair}
                for j in (k, k + 1):
                    cands[j] = both if cands[j] is None else cands[j] & both
                    ok = ok and bool(cands[j])
            if not ok:
                continue
            try:
                yield follow_given_track(
                    board, label, seq, [sorted(c) if c is not None else None for c in cands],
                    [h for h, _ in conns])
            except RuleViolation as v:
                problems.append(v)
