"""``cudalint explain --html``: the warp's picture as SVG in one self-contained HTML page.

The same facts as the terminal tables (:mod:`cudalint.explain`), drawn as the seed documents' interactive pages
draw them: a warp's 32 lanes in a row, and under them

- global memory: the 128-byte lines the warp touches, each as its four 32-byte sectors, a wire from every lane to
  the sector(s) its bytes lie in (sectors: CUDA C++ Programming Guide, "Device Memory Accesses"; 32-byte sectors of
  128-byte lines as measured in fixtures/measured);
- shared memory: the 32 banks of 4 bytes, a wire from every lane to the bank of its word, and under each bank the
  distinct words the warp hits there (more than one: a conflict, drawn red); one row per phase for accesses wider
  than 4 bytes (Programming Guide, "Shared Memory");
- constant memory: the distinct addresses the warp reads, one request each.

Built with :mod:`xml.etree.ElementTree`, so every text (a file name, an array's name) is escaped; no script, style
sheet or font is fetched: the page works offline and from a CI artefact.  Element classes (``lane``, ``sector``,
``bank``, ``word``, ``address``, ``wire``) and ``data-*`` attributes let a test read the picture back.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import Optional, Sequence

from .analysis.warp import BANK_WIDTH, BANKS, SECTOR, WARP, phases

LINE = 128
CELL = 26            # width of a lane or bank box, px
GAP = 4
LEFT = 150           # room for the row labels, px
MAX_LINES = 32       # 128-byte lines drawn; more are counted in the caption
INACTIVE = "#d0d0d0"
TOUCHED = "#4c8bf5"
CONFLICT = "#d93025"
FREE = "#ffffff"


def touched_lines(size: int, addrs: Sequence[Optional[int]]) -> dict[int, set[int]]:
    """128-byte line -> the indices (0-3) of its 32-byte sectors that lanes at byte ``addrs`` (None: inactive),
    moving ``size`` bytes each, touch."""
    lines: dict[int, set[int]] = {}
    for a in (a for a in addrs if a is not None):
        for s in range(a // SECTOR, (a + size - 1) // SECTOR + 1):
            lines.setdefault(s * SECTOR // LINE, set()).add(s % (LINE // SECTOR))
    return lines


def phase_banks(size: int, offsets: Sequence[Optional[int]], first: int = 0) -> dict[int, dict[int, list[int]]]:
    """bank -> 4-byte word -> the lanes (numbered from ``first``) of one phase whose ``size``-byte access at byte
    ``offsets`` (None: inactive) covers it."""
    banks: dict[int, dict[int, list[int]]] = {}
    for lane, off in enumerate(offsets, first):
        if off is not None:
            for w in range(off // BANK_WIDTH, (off + size - 1) // BANK_WIDTH + 1):
                banks.setdefault(w % BANKS, {}).setdefault(w, []).append(lane)
    return banks


def _el(parent: ET.Element, tag: str, text: Optional[str] = None, **attrs) -> ET.Element:
    e = ET.SubElement(parent, tag, {k.rstrip("_").replace("_", "-"): str(v) for k, v in attrs.items()})
    if text is not None:
        e.text = text
    return e


def _svg(width: int, height: int, label: str) -> ET.Element:
    return ET.Element("svg", {"xmlns": "http://www.w3.org/2000/svg", "width": str(width), "height": str(height),
                              "viewBox": f"0 0 {width} {height}", "role": "img", "aria-label": label})


def _x(i: int) -> int:
    return LEFT + i * (CELL + GAP)


def _lanes(svg: ET.Element, lanes: Sequence[Optional[int]], first: int = 0, y: int = 20) -> None:
    """The row of lane boxes, numbered ``first``..; an inactive lane (None) is grey."""
    _el(svg, "text", "lanes", x=8, y=y + 17, font_size=12)
    for i, off in enumerate(lanes):
        g = _el(svg, "g", class_="lane", data_lane=first + i, data_offset="" if off is None else off)
        _el(g, "rect", x=_x(i), y=y, width=CELL, height=CELL, fill=INACTIVE if off is None else "#fde293",
            stroke="#555")
        _el(g, "text", str(first + i), x=_x(i) + CELL // 2, y=y + 17, font_size=10, text_anchor="middle")
        _el(g, "title", f"lane {first + i}: " + ("inactive" if off is None else f"byte {off}"))


def _caption(svg: ET.Element, text: str) -> None:
    """The picture's numbers, on its last line (the SVG is made 22 px taller for it)."""
    h = int(svg.get("height")) + 22
    svg.set("height", str(h))
    svg.set("viewBox", f"0 0 {svg.get('width')} {h}")
    _el(svg, "text", text, class_="caption", x=8, y=h - 8, font_size=13, font_weight="bold")


def _wire(svg: ET.Element, x1: float, y1: float, x2: float, y2: float, colour: str = "#888") -> None:
    _el(svg, "line", class_="wire", x1=x1, y1=y1, x2=x2, y2=y2, stroke=colour, stroke_width=1, stroke_opacity=0.7)


def global_svg(size: int, lanes: Sequence[Optional[int]], residue: int = 0) -> ET.Element:
    """Lanes -> 32-byte sectors of 128-byte lines.  ``size``: bytes each lane moves; ``lanes``: each lane's byte
    offset (None: inactive); ``residue``: bytes added to every offset (the base's residue mod 32)."""
    addrs = [None if off is None else off + residue for off in lanes]
    lines = touched_lines(size, addrs)
    shown = sorted(lines)[:MAX_LINES]
    row = {ln: r for r, ln in enumerate(shown)}
    top, pitch, sw = 90, 30, 60                 # first line row's y, row pitch, sector box width
    height = top + pitch * len(shown) + (30 if len(lines) > len(shown) else 10)
    svg = _svg(max(_x(WARP) + 10, LEFT + 4 * sw + 200), height, "lanes to 32-byte sectors")
    sx = LEFT + 10 * (CELL + GAP)               # sectors drawn under the warp's middle
    # the wires first: the boxes drawn after them cover a wire's run across the rows above its own line
    for lane, a in enumerate(addrs):
        if a is None:
            continue
        for s in {a // SECTOR, (a + size - 1) // SECTOR}:
            ln = s * SECTOR // LINE
            if ln in row:
                _wire(svg, _x(lane) + CELL / 2, 46, sx + (s % 4) * sw + (sw - 4) / 2, top + pitch * row[ln])
    _lanes(svg, addrs)
    for ln in shown:
        y = top + pitch * row[ln]
        _el(svg, "text", f"line {ln} (byte {ln * LINE})", x=8, y=y + 16, font_size=11)
        for i in range(LINE // SECTOR):
            hit = i in lines[ln]
            g = _el(svg, "g", class_="sector", data_line=ln, data_sector=ln * 4 + i, data_touched=int(hit))
            _el(g, "rect", x=sx + i * sw, y=y, width=sw - 4, height=22, fill=TOUCHED if hit else FREE, stroke="#555")
            _el(g, "title", f"sector {ln * 4 + i} (bytes {(ln * 4 + i) * SECTOR}-{(ln * 4 + i + 1) * SECTOR - 1})"
                + (": touched" if hit else ": not touched"))
    if len(lines) > len(shown):
        _el(svg, "text", f"... and {len(lines) - len(shown)} more 128-byte lines", x=8, y=height - 10, font_size=11)
    sectors = sum(len(v) for v in lines.values())
    _caption(svg, f"{sectors} sector(s) of 32 bytes in {len(lines)} line(s) of 128 bytes for this warp")
    return svg


def shared_svgs(size: int, lanes: Sequence[Optional[int]], shift: int = 0) -> list[ET.Element]:
    """One picture per phase: lanes -> the 32 banks, and the distinct words in each bank (more than one: a
    conflict).  ``lanes``: byte offsets (None: inactive); ``shift``: bytes every lane's offset adds."""
    n = phases(size)
    per = WARP // n
    out = []
    for p in range(n):
        part = [None if off is None else off + shift for off in lanes[p * per:(p + 1) * per]]
        banks = phase_banks(size, part, p * per)
        depth = max((len(ws) for ws in banks.values()), default=0)
        shown = min(depth, 8)
        btop = 110
        height = btop + 40 + 18 * shown + (20 if depth > shown else 0)
        svg = _svg(_x(WARP) + 10, height, f"lanes to 32 banks, phase {p + 1} of {n}")
        _lanes(svg, part, first=p * per)
        _el(svg, "text", "banks", x=8, y=btop + 17, font_size=12)
        for b in range(BANKS):
            words = banks.get(b, {})
            g = _el(svg, "g", class_="bank", data_bank=b, data_words=len(words))
            _el(g, "rect", x=_x(b), y=btop, width=CELL, height=CELL, stroke="#555",
                fill=CONFLICT if len(words) > 1 else TOUCHED if words else FREE)
            _el(g, "text", str(b), x=_x(b) + CELL // 2, y=btop + 17, font_size=10, text_anchor="middle")
            _el(g, "title", f"bank {b}: " + (", ".join(f"word {w} (lanes {', '.join(map(str, ls))})"
                                                      for w, ls in sorted(words.items())) or "not used"))
            for k, (w, ls) in enumerate(sorted(words.items())[:shown]):
                wg = _el(svg, "g", class_="word", data_bank=b, data_word=w, data_lanes=",".join(map(str, ls)))
                _el(wg, "rect", x=_x(b), y=btop + 34 + 18 * k, width=CELL, height=16,
                    fill="#fbd3cf" if len(words) > 1 else "#e8f0fe", stroke="#999")
                _el(wg, "text", f"w{w}", x=_x(b) + CELL // 2, y=btop + 46 + 18 * k, font_size=8,
                    text_anchor="middle")
        for lane, off in enumerate(part):
            if off is not None:
                colour = CONFLICT if len(banks[(off // BANK_WIDTH) % BANKS]) > 1 else "#888"
                _wire(svg, _x(lane) + CELL / 2, 46, _x((off // BANK_WIDTH) % BANKS) + CELL / 2, btop, colour)
        if depth > shown:
            _el(svg, "text", f"... up to {depth} words in one bank", x=8, y=height - 8, font_size=11)
        _caption(svg, (f"phase {p + 1} of {n}: " if n > 1 else "") + (
            f"{depth}-way: at most {depth} distinct word(s) in one bank, {depth} wavefront(s)" if depth else
            "no active lane, no wavefront"))
        out.append(svg)
    return out


def constant_svg(lanes: Sequence[Optional[int]]) -> ET.Element:
    """Lanes -> the distinct ``__constant__`` addresses the warp reads (one request each)."""
    addrs = sorted({off for off in lanes if off is not None})
    shown = addrs[:WARP]
    top = 110
    svg = _svg(_x(WARP) + 10, top + 60, "lanes to distinct constant addresses")
    _lanes(svg, lanes)
    _el(svg, "text", "addresses", x=8, y=top + 17, font_size=12)
    for i, a in enumerate(shown):
        g = _el(svg, "g", class_="address", data_offset=a)
        _el(g, "rect", x=_x(i), y=top, width=CELL, height=CELL, fill=TOUCHED, stroke="#555")
        _el(g, "text", str(a), x=_x(i) + CELL // 2, y=top + 40, font_size=8, text_anchor="middle")
        _el(g, "title", f"byte {a}: lanes " + ", ".join(str(ln) for ln, off in enumerate(lanes) if off == a))
    for lane, off in enumerate(lanes):
        if off is not None and off in shown:
            _wire(svg, _x(lane) + CELL / 2, 46, _x(shown.index(off)) + CELL / 2, top)
    _caption(svg, f"{len(addrs)} distinct address(es): {len(addrs)} request(s) for this warp")
    return svg


def page(title: str, sections: list[tuple[str, list[ET.Element], str]]) -> str:
    """A standalone HTML5 page: ``title``, and for each section its heading, pictures and the terminal text."""
    html = ET.Element("html", lang="en")
    head = _el(html, "head")
    _el(head, "meta", charset="utf-8")
    _el(head, "title", title)
    _el(head, "style", "body{font-family:sans-serif;margin:1.5em} pre{background:#f6f8fa;padding:.8em;"
                       "overflow-x:auto} svg{display:block;margin:.5em 0} figure{margin:0}")
    body = _el(html, "body")
    _el(body, "h1", title)
    for heading, pictures, text in sections:
        sec = _el(body, "section")
        _el(sec, "h2", heading)
        for svg in pictures:
            fig = _el(sec, "figure")
            fig.append(svg)
        if text:
            _el(sec, "pre", text)
    return "<!DOCTYPE html>\n" + ET.tostring(html, encoding="unicode", method="html") + "\n"
