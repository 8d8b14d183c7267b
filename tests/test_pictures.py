"""The pictures: the board's SVG (title, legend, labels, gauges, the marks of
a finding), the companies' colours, the charts' axes and bars, and the HTML
index's width.  How they look is checked in headless Chromium by hand
(docs/report.md); these tests hold what can be counted."""

import html
import itertools
import re

import pytest
from click.testing import CliRunner

from railcheck.actions import LayTile, PlaceToken, Route, RunRoutes, Stop
from railcheck.analysis.charts import Chart, Series, company_colors, label_rows, render_svg, ticks
from railcheck.board.render import Marks, marks_of_action, render_svg as board_svg
from railcheck.cli import main
from railcheck.colors import NEAR, distance, distinct_colors, rgb
from railcheck.game import Game
from railcheck.ruleset import known_titles, load_ruleset

from conftest import REPO

ILLEGAL = REPO / "examples" / "1830" / "illegal"


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def fresh_board(title):
    return Game(load_ruleset(title), ["A", "B", "C"]).board


@pytest.fixture(scope="module")
def board_1830():
    return fresh_board("1830")


# ----------------------------------------------------------------------
# the board

def test_show_svg_has_a_title_and_a_legend_of_the_companies_on_the_map(tmp_path):
    svg = tmp_path / "b.svg"
    res = run("show", ILLEGAL / "revenue-claim.18xx", "--svg", svg)
    assert res.exit_code == 1, res.output     # an illegal game: the one rule of exit codes
    text = svg.read_text()
    title = re.search(r'<text class="board-title"[^>]*>(.*?)</text>', text).group(1)
    assert "1830: " in title and "revenue-claim.18xx" in title and "at the end" in title
    assert "<title>1830: " in text
    # the legend: one marker per company with a station or a home on the map, in
    # the ruleset's order, and the off-board values' key
    legend = text[text.index('<g class="legend">'):]
    assert [html.unescape(c) for c in re.findall(r'class="legend-token" data-corp="([^"]+)"',
                                                 legend)] == [
        "PRR", "NYC", "CPR", "B&O", "C&O", "ERIE", "NYNH", "B&M"]
    assert "home station not yet placed" in legend
    assert "off-board value in each phase" in legend
    # the legend lies below the map, inside the picture
    vb = [float(v) for v in re.search(r'viewBox="([^"]+)"', text).group(1).split()]
    legend_y = max(float(y) for y in re.findall(r'<text x="[-\d.]+" y="([-\d.]+)"', legend))
    hex_y = max(float(y) for y in re.findall(r',([-\d.]+)', " ".join(
        re.findall(r'<polygon class="hex"[^>]*points="([^"]+)"', text))))
    assert hex_y < legend_y < vb[1] + vb[3]


def test_labels_sit_in_the_hex_corners_apart_from_the_revenue(board_1830):
    """The coordinate, the tile number and the revenue each have a corner of
    their own, so none is drawn over another (Altoona H12: printed grey, a
    city paying 10)."""
    text = board_svg(board_1830)
    h12 = _hex_centre(text, "H12")
    coord = _text_at(text, "coord", "H12")
    badge = _badge_near(text, h12)
    assert coord[1] < h12[1] - 14              # the coordinate in the top corner
    assert badge[0] < h12[0] - 10 and badge[1] < h12[1]   # the revenue upper left
    assert abs(coord[0] - badge[0]) > 10 or abs(coord[1] - badge[1]) > 8


def test_place_names_wrap_and_shrink_to_their_hex(board_1830):
    text = board_svg(board_1830)
    name = re.search(r'<text class="name" font-size="([\d.]+)"[^>]*>((?:<tspan[^>]*>[^<]*'
                     r'</tspan>)+)</text>', _name_of(text, "Detroit"))
    lines = re.findall(r">([^<]*)</tspan>", name.group(2))
    assert lines == ["Detroit", "&amp; Windsor"]
    # every name fits the hex's width (28 units a side: at most ~1.5 sides)
    for m in re.finditer(r'<text class="name" font-size="([\d.]+)"[^>]*>(.*?)</text>', text):
        size = float(m.group(1))
        for line in re.findall(r">([^<]*)</tspan>", m.group(2)):
            assert len(html.unescape(line)) * 0.56 * size <= 1.6 * 28, line


def test_off_board_values_are_away_from_the_track(board_1830):
    """Chicago F2's track leaves by its right-hand sides: its values (40 in
    yellow, 70 in brown) are drawn on its left, in their phases' colours."""
    text = board_svg(board_1830)
    cx, cy = _hex_centre(text, "F2")
    group = re.search(r'<g class="offboard-values">((?:(?!</g>).)*>40<(?:(?!</g>).)*)</g>',
                      text).group(1)
    xs = [float(x) for x in re.findall(r'<rect x="([-\d.]+)"', group)]
    assert max(xs) < cx                     # left of the centre, where no track runs
    assert 'fill="#f5e050"' in group and 'fill="#b07a4a"' in group
    assert ">40<" in group and ">70<" in group


def test_narrow_gauge_is_drawn_apart_from_broad_gauge():
    board = fresh_board("18Ireland")
    board.lay_tile("MGWR", "79", "E9", 0, colors=["yellow"], check_connection=False)
    board.lay_tile("MGWR", "657", "D6", None, colors=["yellow"], check_connection=False)
    gauges = [g for h in board.hex_list for k, _ in enumerate(h.paths)
              for g in [h.tile.tracks[k] if k < len(h.tile.tracks) else "broad"]]
    text = board_svg(board)
    assert gauges.count("narrow") == 2
    assert text.count('class="track narrow"') == 2
    assert text.count('class="track broad"') == gauges.count("broad")
    narrow = re.search(r'<path class="track narrow"[^>]*stroke-width="([\d.]+)"', text)
    broad = re.search(r'<path class="track broad"[^>]*stroke-width="([\d.]+)"', text)
    assert float(narrow.group(1)) < float(broad.group(1))
    # ... and chequered: a dashed white line runs along it
    after = text[narrow.end():narrow.end() + 200]
    assert "stroke-dasharray" in after.split("/>")[1]
    assert "narrow gauge" in text[text.index('<g class="legend">'):]
    # 1830 has no narrow gauge: no key for it
    assert "narrow gauge" not in board_svg(fresh_board("1830"))


def test_stops_on_the_same_sides_are_drawn_apart():
    """18Ireland's Dundalk & Drogheda (I9, tile IR8): the city and the town
    both join sides 0 and 2; each is drawn where the other is not."""
    board = fresh_board("18Ireland")
    board.lay_tile("DSER", "IR2", "I9", None, colors=["yellow"], check_connection=False)
    board.lay_tile("DSER", "IR8", "I9", None, colors=["green"], check_connection=False)
    text = board_svg(board)
    cx, cy = _hex_centre(text, "I9")
    # the town, and the city (DER's home, not yet placed)
    near = [(float(x), float(y), float(r), cls) for cls, x, y, r in re.findall(
        r'<circle (?:class="(\w+)"[^>]*? )?cx="([-\d.]+)" cy="([-\d.]+)" r="([\d.]+)"', text)
        if abs(float(x) - cx) < 24 and abs(float(y) - cy) < 24]
    town = [c for c in near if c[3] == "town"]
    city = [c for c in near if c[3] != "town" and c[2] > 5]
    assert len(town) == 1 and len(city) == 1
    (tx, ty, tr, _), (px, py, pr, _) = town[0], city[0]
    assert ((tx - px) ** 2 + (ty - py) ** 2) ** 0.5 >= tr + pr
    # both inside the hex
    for x, y, r, _ in (town[0], city[0]):
        assert ((x - cx) ** 2 + (y - cy) ** 2) ** 0.5 + r <= 28 * 0.87


def test_marks_ring_the_hex_the_city_and_the_run(board_1830):
    lay = marks_of_action(LayTile(actor="B&O", tile="57", hex="I15", rotation=0))
    assert lay.hexes == ["I15"] and lay.what == "the hex of this tile lay"
    text = board_svg(board_1830, marks=lay)
    assert len(re.findall(r'class="mark" data-hex="I15"', text)) == 1
    assert "the hex of this tile lay" in text

    token = marks_of_action(PlaceToken(actor="PRR", hex="H12", city=0))
    text = board_svg(board_1830, marks=token)
    assert 'data-hex="H12"' in text and 'class="mark" data-city="H12.0"' in text

    run_ = RunRoutes(actor="B&O", routes=[
        Route(train="2", stops=[Stop(hex="I15"), Stop(hex="I19")],
              path=[["I15", "I17", "I19"]])])
    marks = marks_of_action(run_)
    text = board_svg(board_1830, marks=marks)
    line = re.search(r'<polyline class="mark-route" points="([^"]+)"', text).group(1)
    # from Baltimore through I17's centre to Atlantic City: 5 points
    assert len(line.split()) == 5
    assert re.findall(r'class="mark" data-stop="([^"]+)"', text) == ["I15", "I19"]
    # the run under the stations, the rings on top of them
    assert text.index("mark-route") < text.index('class="token"') \
        or 'class="token"' not in text
    assert text.index('data-stop="I15"') > text.rindex("<circle", 0, text.index('data-stop'))

    assert marks_of_action(None) is None
    assert not Marks()


def test_a_finding_s_board_in_the_report_marks_its_hex_and_its_run(tmp_path):
    out = tmp_path / "rep"
    res = run("report", ILLEGAL / "green-tile-phase-2.18xx", ILLEGAL / "revenue-claim.18xx",
              "-o", out)
    assert res.exit_code == 1, res.output     # an illegal game: the one rule of exit codes
    page = (out / "green-tile-phase-2.html").read_text(encoding="utf-8")
    finding = page[page.index('id="finding-1"'):page.index('id="standings"')]
    # "B&O lay 14 J14 r0": J14 ringed, the summary and the board's legend say so
    assert re.findall(r'class="mark" data-hex="([^"]+)"', finding) == ["J14"]
    assert "The board at this finding (the hex of this tile lay ringed in magenta)" in finding
    assert "the hex of this tile lay</text>" in finding
    # the board at the end marks nothing
    end = page[page.index('id="board"'):]
    assert 'class="mark' not in end
    page = (out / "revenue-claim.html").read_text(encoding="utf-8")
    # (its one finding: one per rule broken)
    finding = page[page.index('id="finding-1"'):page.index('id="standings"')]
    # "B&O run 2 I15-I19 (40), 2 I15-J14 (60)": both runs drawn, their stops ringed
    assert finding.count('class="mark-route"') == 2
    assert re.findall(r'class="mark" data-stop="([^"]+)"', finding) == [
        "I15", "I19", "I15", "J14"]


# ----------------------------------------------------------------------
# colours

def test_no_two_companies_of_a_title_share_a_colour():
    for title in known_titles():
        colors = company_colors(load_ruleset(title))
        for (a, ca), (b, cb) in itertools.combinations(colors.items(), 2):
            assert distance(ca, cb) >= NEAR, (title, a, ca, b, cb)
    ireland = company_colors(load_ruleset("18Ireland"))
    # the first of two alike keeps the published colour, the second gets a spare
    assert ireland["DSER"] == "black" and ireland["GSWR"] == "red"
    assert rgb(ireland["CBPR"]) != (0, 0, 0) and rgb(ireland["WLR"]) != (255, 0, 0)
    assert company_colors(load_ruleset("1830"))["PRR"] == "#32763f"


def test_distinct_colors_reads_names_and_hex_alike():
    out = distinct_colors([("A", "black"), ("B", "#000"), ("C", "#010101"), ("D", None),
                           ("E", "navy")])
    assert out["A"] == "black" and out["E"] == "navy"
    assert len({rgb(c) for c in out.values()}) == 5
    assert all(distance(x, y) >= NEAR for x, y in itertools.combinations(out.values(), 2))


# ----------------------------------------------------------------------
# charts

def _chart(n_series, bars=True, currency="£", rounds=20):
    xl = [f"OR {k}.1" for k in range(1, rounds + 1)]
    return Chart("revenue", "Revenue", f"revenue ({currency})", xl, bars=bars,
                 currency=currency, phases=[(4, "3"), (5, "4"), (6, "5"), (15, "10")],
                 series=[Series(f"C{k}", f"#{k * 13 % 256:02x}4080",
                                [10 * (k + 1)] * rounds) for k in range(n_series)])


def test_revenue_bars_are_stacked_as_wide_with_17_companies_as_with_one():
    one = render_svg(_chart(1))
    many = render_svg(_chart(17))
    width = set(re.findall(r'<rect class="bar" x="[\d.]+" y="[\d.]+" width="([\d.]+)"', many))
    assert len(width) == 1 and float(width.pop()) > 25
    assert many.count('class="bar"') == 17 * 20
    # one bar per round: each round's segments share an x
    xs = re.findall(r'<rect class="bar" x="([\d.]+)"', many)
    assert len(set(xs)) == 20
    # the legend's 17 entries all inside the picture (two columns)
    legend_x = [float(x) for x in re.findall(r'<text x="([\d.]+)" y="[\d.]+" class="legend"',
                                             many)]
    assert len(legend_x) == 17 and max(legend_x) < 1100 and len(set(legend_x)) == 2
    assert one.count('class="bar"') == 20


def test_chart_axes_carry_the_quantity_and_the_currency():
    svg = render_svg(_chart(3))
    assert re.search(r'<text class="ylabel"[^>]*>revenue \(£\)</text>', svg)
    ticks_ = re.findall(r'<text class="tick"[^>]*>([^<]+)</text>', svg)
    assert ticks_[0] == "£0" and all(t.startswith("£") for t in ticks_)
    assert ticks(0, 250) == [0, 50, 100, 150, 200, 250]
    assert ticks(-87, 2133) == [-500, 0, 500, 1000, 1500, 2000, 2500]


def test_phase_labels_take_turns_on_rows_and_never_overlap():
    svg = render_svg(_chart(2, bars=False, rounds=60))
    labels = [(float(x), float(y), t) for x, y, t in re.findall(
        r'<text class="phase-label" x="([\d.]+)" y="([\d.]+)"[^>]*>([^<]+)</text>', svg)]
    assert [t for _, _, t in labels] == ["phase 3", "phase 4", "phase 5", "phase 10"]
    for (x1, y1, t1), (x2, y2, t2) in itertools.combinations(labels, 2):
        if y1 == y2:
            assert x1 + 6.2 * len(t1) <= x2 or x2 + 6.2 * len(t2) <= x1, (t1, t2)
    assert len({y for _, y, _ in labels}) >= 2       # three changes in a row: two rows
    assert label_rows([(0, 40), (30, 70), (60, 100), (120, 160)]) == [0, 1, 0, 0]


def test_plot_s_phase_labels_never_overlap():
    pytest.importorskip("matplotlib")
    from railcheck.analysis.plot import figure_of

    chs = [_chart(2, bars=False, rounds=60), _chart(3, rounds=20)]
    fig = figure_of(chs, "test")
    try:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        for k, ax in enumerate(fig.axes[:2]):
            boxes = [t.get_window_extent(renderer) for t in ax.texts
                     if t.get_text().startswith("phase ")]
            assert len(boxes) == 4
            for a, b in itertools.combinations(boxes, 2):
                assert not a.overlaps(b)
            # 60 rounds: three changes in a row take more rows; 20 rounds: one
            assert (len({round(b.y0) for b in boxes}) > 1) == (k == 0)
            # the labels above the plot, under the title
            top = ax.get_window_extent(renderer).y1
            assert all(b.y0 >= top for b in boxes)
            assert all(b.y1 <= ax.title.get_window_extent(renderer).y0 + 1 for b in boxes)
            assert ax.get_ylabel() == "revenue (£)"
            ticks_ = [t.get_text() for t in ax.get_yticklabels() if t.get_text()]
            assert ticks_ and all(t.startswith("£") for t in ticks_)
    finally:
        import matplotlib.pyplot as plt
        plt.close(fig)


# ----------------------------------------------------------------------
# the HTML index

def test_the_index_scrolls_its_tables_instead_of_clipping_them():
    from railcheck.analysis.html_report import CSS, GamePage, _env, _shown_paths

    folder = "/leagues/a-long-folder-name/season_2024_with_a_long_name"
    paths = [f"{folder}/{'table_' * 12}{k}.json" for k in range(40)]
    pages = [GamePage(path=p, file=f"g{k}.html", title="1830", players=["Alice", "Bob"],
                      status="game over: the bank broke", winner="Bob")
             for k, p in enumerate(paths)]
    common, shown = _shown_paths(paths)
    assert common == folder and shown[paths[3]] == f"{'table_' * 12}3.json"
    page = _env().get_template("index.html").render(
        css=CSS, pages=pages, table=[], not_counted=[(p, "unfinished") for p in paths[:5]],
        page_of={}, folder=common, shown=shown)
    # every table in a box that scrolls sideways; long names may break anywhere
    assert page.count("<table") == 2 and page.count('<div class="wide">') == 2
    assert re.search(r"\.wide \{[^}]*overflow-x: auto", CSS)
    assert re.search(r"td\.path \{[^}]*overflow-wrap: break-word", CSS)
    # no fixed width: nothing is wider than the window (only a maximum for the text)
    assert not re.search(r"(?<!max-)(?<!min-)width:\s*\d+px", CSS)
    # the paths from their common folder, breakable after each '_' (not mid-name)
    assert f"In {folder}" in page and f">{'table_<wbr>' * 12}3.json</a>" in page
    assert "5 games not counted" in page
    assert _shown_paths(["a.json", "b.json"]) == ("", {})


# ----------------------------------------------------------------------
# helpers

def _hex_centre(text, coord):
    pts = re.search(rf'<polygon class="hex" data-hex="{coord}" points="([^"]+)"', text).group(1)
    xy = [tuple(float(v) for v in p.split(",")) for p in pts.split()]
    return sum(x for x, _ in xy) / 6, sum(y for _, y in xy) / 6


def _text_at(text, cls, content):
    m = re.search(rf'<text class="{cls}" x="([-\d.]+)" y="([-\d.]+)"[^>]*>{content}</text>', text)
    return float(m.group(1)), float(m.group(2))


def _badge_near(text, centre):
    best = None
    for m in re.finditer(r'<rect class="revenue" x="([-\d.]+)" y="([-\d.]+)" '
                         r'width="([\d.]+)" height="([\d.]+)"', text):
        x = float(m.group(1)) + float(m.group(3)) / 2
        y = float(m.group(2)) + float(m.group(4)) / 2
        d = (x - centre[0]) ** 2 + (y - centre[1]) ** 2
        if best is None or d < best[0]:
            best = (d, (x, y))
    return best[1]


def _name_of(text, first_word):
    i = text.index(f">{first_word}")
    return text[text.rindex("<text", 0, i):text.index("</text>", i) + 7]
