"""Colours for the pictures (the board, the charts, the HTML report): CSS
colour names read as RGB, the ink that reads on a colour, and one distinct
colour per company of a game.

Rulesets give each company the colour of the published game data
(``color:``), and a few titles give two companies the same one (18Ireland:
DSER and CBPR are both black, GSWR and WLR both red).  ``distinct_colors``
keeps the first company's colour and gives the later one the first colour of
a spare palette that is far from every company's, so that a chart's lines, a
bar's segments and the board's station markers can be told apart.
"""

from __future__ import annotations

from typing import Optional

# the CSS named colours (CSS Color Module Level 4), as data
_NAMED = dict(pair.split("=") for pair in """
aliceblue=f0f8ff antiquewhite=faebd7 aqua=00ffff aquamarine=7fffd4 azure=f0ffff
beige=f5f5dc bisque=ffe4c4 black=000000 blanchedalmond=ffebcd blue=0000ff
blueviolet=8a2be2 brown=a52a2a burlywood=deb887 cadetblue=5f9ea0 chartreuse=7fff00
chocolate=d2691e coral=ff7f50 cornflowerblue=6495ed cornsilk=fff8dc crimson=dc143c
cyan=00ffff darkblue=00008b darkcyan=008b8b darkgoldenrod=b8860b darkgray=a9a9a9
darkgreen=006400 darkgrey=a9a9a9 darkkhaki=bdb76b darkmagenta=8b008b
darkolivegreen=556b2f darkorange=ff8c00 darkorchid=9932cc darkred=8b0000
darksalmon=e9967a darkseagreen=8fbc8f darkslateblue=483d8b darkslategray=2f4f4f
darkslategrey=2f4f4f darkturquoise=00ced1 darkviolet=9400d3 deeppink=ff1493
deepskyblue=00bfff dimgray=696969 dimgrey=696969 dodgerblue=1e90ff firebrick=b22222
floralwhite=fffaf0 forestgreen=228b22 fuchsia=ff00ff gainsboro=dcdcdc ghostwhite=f8f8ff
gold=ffd700 goldenrod=daa520 gray=808080 green=008000 greenyellow=adff2f grey=808080
honeydew=f0fff0 hotpink=ff69b4 indianred=cd5c5c indigo=4b0082 ivory=fffff0 khaki=f0e68c
lavender=e6e6fa lavenderblush=fff0f5 lawngreen=7cfc00 lemonchiffon=fffacd
lightblue=add8e6 lightcoral=f08080 lightcyan=e0ffff lightgoldenrodyellow=fafad2
lightgray=d3d3d3 lightgreen=90ee90 lightgrey=d3d3d3 lightpink=ffb6c1 lightsalmon=ffa07a
lightseagreen=20b2aa lightskyblue=87cefa lightslategray=778899 lightslategrey=778899
lightsteelblue=b0c4de lightyellow=ffffe0 lime=00ff00 limegreen=32cd32 linen=faf0e6
magenta=ff00ff maroon=800000 mediumaquamarine=66cdaa mediumblue=0000cd
mediumorchid=ba55d3 mediumpurple=9370db mediumseagreen=3cb371 mediumslateblue=7b68ee
mediumspringgreen=00fa9a mediumturquoise=48d1cc mediumvioletred=c71585
midnightblue=191970 mintcream=f5fffa mistyrose=ffe4e1 moccasin=ffe4b5
navajowhite=ffdead navy=000080 oldlace=fdf5e6 olive=808000 olivedrab=6b8e23
orange=ffa500 orangered=ff4500 orchid=da70d6 palegoldenrod=eee8aa palegreen=98fb98
paleturquoise=afeeee palevioletred=db7093 papayawhip=ffefd5 peachpuff=ffdab9
peru=cd853f pink=ffc0cb plum=dda0dd powderblue=b0e0e6 purple=800080
rebeccapurple=663399 red=ff0000 rosybrown=bc8f8f royalblue=4169e1 saddlebrown=8b4513
salmon=fa8072 sandybrown=f4a460 seagreen=2e8b57 seashell=fff5ee sienna=a0522d
silver=c0c0c0 skyblue=87ceeb slateblue=6a5acd slategray=708090 slategrey=708090
snow=fffafa springgreen=00ff7f steelblue=4682b4 tan=d2b48c teal=008080 thistle=d8bfd8
tomato=ff6347 turquoise=40e0d0 violet=ee82ee wheat=f5deb3 white=ffffff
whitesmoke=f5f5f5 yellow=ffff00 yellowgreen=9acd32
""".split())

#: colours for companies whose ruleset gives none, or whose colour another
#: company of the game already has (dark and mid tones, far from each other)
SPARE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b", "#e377c2",
         "#7f7f7f", "#bcbd22", "#17becf", "#393b79", "#637939", "#8c6d31", "#843c39",
         "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1", "#636363", "#6b6ecf",
         "#b5cf6b", "#e7ba52", "#d6616b", "#ce6dbd", "#9c9ede", "#cedb9c", "#e7969c"]

#: two colours nearer than this (``distance``) look the same on a chart or a
#: station marker: black and #111 do, 18Ireland's saddle brown LER and brown
#: CBSCR do not
NEAR = 60.0


def rgb(color: Optional[str]) -> Optional[tuple]:
    """``(r, g, b)`` of a CSS colour (``#rgb``, ``#rrggbb`` or a name), None
    for anything else."""
    c = (color or "").strip().lower()
    c = "#" + _NAMED[c] if c in _NAMED else c
    if c.startswith("#") and len(c) == 4:
        c = "#" + "".join(ch * 2 for ch in c[1:])
    if c.startswith("#") and len(c) == 7:
        try:
            return tuple(int(c[k:k + 2], 16) for k in (1, 3, 5))
        except ValueError:
            return None
    return None


def distance(a: Optional[str], b: Optional[str]) -> float:
    """How far apart two colours look (the 'redmean' weighted RGB distance,
    0 to about 765); unreadable colours are far from everything but their own
    spelling."""
    ra, rb = rgb(a), rgb(b)
    if ra is None or rb is None:
        return 0.0 if (a or "").strip().lower() == (b or "").strip().lower() else 999.0
    rm = (ra[0] + rb[0]) / 2
    dr, dg, db = (ra[k] - rb[k] for k in range(3))
    return ((2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db) ** 0.5


def brightness(color: Optional[str]) -> float:
    """Perceived brightness, 0 (black) to 255 (white); 128 when unknown."""
    c = rgb(color)
    return 128.0 if c is None else 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


def ink_on(color: Optional[str]) -> str:
    """Black or white, whichever reads better on ``color``."""
    return "#000" if brightness(color) > 150 else "#fff"


def distinct_colors(given: list) -> dict:
    """One colour per company, no two alike: ``given`` is ``[(sym, colour or
    None)]`` in the ruleset's order.  A company keeps its colour unless an
    earlier one has the same (or a look-alike); it and the companies with no
    colour get the first spare colour far from every colour in use."""
    taken = [c for _, c in given if c]
    out: dict = {}
    used: list = []
    for sym, color in given:
        if color and all(distance(color, u) >= NEAR for u in used):
            out[sym] = color
        else:
            out[sym] = _spare(used + taken)
        used.append(out[sym])
    return out


def _spare(avoid: list) -> str:
    best, far = SPARE[0], -1.0
    for cand in SPARE:
        d = min((distance(cand, a) for a in avoid), default=999.0)
        if d >= NEAR * 2:
            return cand
        if d > far:
            best, far = cand, d
    return best
