#!/usr/bin/env python3
"""Convert a title's board from the 18xx.games reference constants into
railcheck's own board YAML (see docs/board.md).

    python tools/convert_board.py ../shared/reference/1830.json railcheck/titles/g1830/board.yaml
    python tools/convert_board.py ../shared/reference/1860.json railcheck/titles/g1860/board.yaml
    python tools/convert_board.py ../shared/reference/18Ireland.json railcheck/titles/g18ireland/board.yaml

Run once per title; the YAML is then committed as data and edited by hand if
needed.  The output is re-read and compared with what was meant to be written.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys

import yaml

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from railcheck.board.tiles import parse_18xx_code  # noqa: E402

KEY_ORDER = ("name", "color", "count", "label", "cities", "towns", "offboard", "offboards",
             "halts", "node_order", "paths", "cost", "terrain", "borders", "revenue", "slots",
             "group", "hidden", "symbol", "edge", "type", "private_only")


def coord_key(coord: str):
    m = re.match(r"([A-Z]+)(-?\d+)$", coord)   # 18Ireland has G-1 (off the top edge)
    return (len(m.group(1)), m.group(1), int(m.group(2)))


def tile_key(name: str):
    m = re.match(r"(\d+)(.*)$", name)
    if m:
        return (0, "", int(m.group(1)), m.group(2))
    m = re.match(r"([A-Za-z]+)(\d+)$", name)      # 18Ireland's IR1 ... IR72 in number order
    return (1, m.group(1), int(m.group(2)), "") if m else (1, name, 0, "")


def convert(constants: dict) -> dict:
    layout = constants.get("LAYOUT", "pointy")
    names = constants.get("LOCATION_NAMES", {}) or {}
    board: dict = {"layout": layout}
    if constants.get("AXES"):
        board["axes"] = constants["AXES"]
    board["impassable_colors"] = list(constants.get("IMPASSABLE_HEX_COLORS") or ["blue", "gray", "red"])

    tiles = {}
    for name, info in sorted(constants["TILES"].items(), key=lambda kv: tile_key(kv[0])):
        entry = {"color": info["color"], "count": info["count"]}
        entry.update(parse_18xx_code(info["code"]))
        tiles[str(name)] = entry
    board["tiles"] = tiles

    hexes = {}
    for color, group in constants["HEXES"].items():
        for coords_json, code in group.items():
            for coord in json.loads(coords_json):
                entry = {}
                if coord in names:
                    entry["name"] = names[coord]
                entry["color"] = color
                entry.update(parse_18xx_code(code))
                if coord in hexes:
                    raise SystemExit(f"{coord} defined twice")
                hexes[coord] = entry
    board["hexes"] = {c: hexes[c] for c in sorted(hexes, key=coord_key)}

    # tiles that may only be laid unrotated (1860: they carry a fixed geography)
    if constants.get("NO_ROTATION_TILES"):
        board["fixed_rotation_tiles"] = [str(t) for t in constants["NO_ROTATION_TILES"]]
    # the smaller map of an optional rule (1860's two_player_map / original_game):
    # hexes taken off the map, hexes printed differently, tile copies removed
    if constants.get("OPTION_REMOVE_HEXES") or constants.get("OPTION_ADD_HEXES"):
        added = {}
        for coords_json, code in (constants.get("OPTION_ADD_HEXES") or {}).items():
            for coord in json.loads(coords_json):
                entry = {"name": names[coord]} if coord in names else {}
                entry["color"] = "white"
                entry.update(parse_18xx_code(code))
                added[coord] = entry
        board["small_map"] = {
            "remove_hexes": sorted(constants.get("OPTION_REMOVE_HEXES") or [], key=coord_key),
            "add_hexes": added,
            "remove_tile_copies": list(constants.get("OPTION_TILES") or []),
        }
    check_node_part_indexes(constants)
    return board


def check_node_part_indexes(constants: dict) -> None:
    """18xx.games names a node inside a hex by its part index ("F2 0.1"); our
    `node_order` holds that only if every code lists its nodes first."""
    node_kinds = ("city", "town", "offboard", "halt")
    codes = [info["code"] for info in constants["TILES"].values()]
    codes += [code for group in constants["HEXES"].values() for code in group.values()]
    for code in codes:
        kinds = [p.split("=", 1)[0].strip() for p in code.split(";") if p.strip()]
        seen_other = False
        for kind in kinds:
            if kind in node_kinds and seen_other:
                raise SystemExit(f"a node follows another part in {code!r}: node_order "
                                 "would not match 18xx.games part indexes")
            seen_other = seen_other or kind not in node_kinds


# ---------------------------------------------------------------------------
# a compact YAML writer: one flow mapping per tile / hex

def scalar(v) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    s = str(v)
    if re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", s) and s.lower() not in (
            "yes", "no", "on", "off", "true", "false", "null", "y", "n", "unlimited_"):
        return s
    return json.dumps(s)


def flow(v) -> str:
    if isinstance(v, dict):
        keys = list(v)   # revenue by colour keeps its order (yellow before brown)
        if all(k in KEY_ORDER for k in keys):
            keys.sort(key=KEY_ORDER.index)
        return "{" + ", ".join(f"{scalar(k)}: {flow(v[k])}" for k in keys) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(flow(x) for x in v) + "]"
    return scalar(v)


def dump(board: dict, source: str) -> str:
    lines = [
        "# railcheck board: map and tile manifest (format: docs/board.md)",
        f"# Generated once by tools/convert_board.py from {source}",
        "# (18xx.games reference constants); committed as data.",
        f"layout: {board['layout']}            # edges numbered as in 18xx.games for this layout",
    ]
    if "axes" in board:
        lines.append(f"axes: {flow(board['axes'])}")
    lines.append(f"impassable_colors: {flow(board['impassable_colors'])}   # no new track into these hexes' edges without a path")  # noqa: E501
    lines.append("tiles:")
    for name, entry in board["tiles"].items():
        lines.append(f"  {json.dumps(name)}: {flow(entry)}")
    lines.append("hexes:")
    for coord, entry in board["hexes"].items():
        lines.append(f"  {coord}: {flow(entry)}")
    if "fixed_rotation_tiles" in board:
        lines.append("# tiles that may only be laid at rotation 0 (their printed geography is fixed)")
        lines.append(f"fixed_rotation_tiles: {flow(board['fixed_rotation_tiles'])}")
    if "small_map" in board:
        small = board["small_map"]
        lines.append("# the smaller first-edition map (optional rules two_player_map, original_game):")
        lines.append("# remove_hexes leave the map, add_hexes are then printed as given,")
        lines.append("# remove_tile_copies (tile-copy ids) are taken out of the box")
        lines.append("small_map:")
        lines.append(f"  remove_hexes: {flow(small['remove_hexes'])}")
        lines.append("  add_hexes:")
        for coord, entry in small["add_hexes"].items():
            lines.append(f"    {coord}: {flow(entry)}")
        lines.append(f"  remove_tile_copies: {flow(small['remove_tile_copies'])}")
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("reference", help="reference JSON, e.g. ../shared/reference/1830.json")
    ap.add_argument("output", help="board YAML to write, e.g. railcheck/titles/g1830/board.yaml")
    args = ap.parse_args(argv)
    with open(args.reference, encoding="utf-8") as fh:
        data = json.load(fh)
    constants = data.get("constants", data)
    board = convert(constants)
    text = dump(board, os.path.basename(args.reference))
    if yaml.safe_load(text) != json.loads(json.dumps(board)):
        raise SystemExit("internal error: the YAML written does not read back as meant")
    with open(args.output, "w", encoding="utf-8") as fh:
        fh.write(text)
    print(f"wrote {args.output}: {len(board['tiles'])} tiles, {len(board['hexes'])} hexes")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
