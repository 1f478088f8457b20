"""`cudalint explain --html`: the warp's picture as SVG in a standalone page, read back from the page's markup and,
where Chromium is installed (`.ci/run` installs Debian's), from the page as a real browser lays it out."""

import io
import json
import os
import shutil
import subprocess
from html.parser import HTMLParser
from pathlib import Path

import pytest
from rich.console import Console

from cudalint.explain import run_explain

ROOT = Path(__file__).resolve().parents[1]


class Elements(HTMLParser):
    """Every start tag with its attributes, and the text of `<title>`, `<h1>`, `<h2>` and caption elements."""

    def __init__(self, text: str):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.texts: dict[str, list[str]] = {}
        self._open: list[str] = []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag not in ("meta", "link", "br", "img", "hr", "input"):       # void elements have no end tag
            self._open.append("caption" if a.get("class") == "caption" else tag)

    def handle_endtag(self, tag):
        if self._open:
            self._open.pop()

    def handle_data(self, data):
        if self._open and self._open[-1] in ("title", "h1", "h2", "caption", "pre"):
            # an SVG element's tooltip (<title> inside <svg>) is not the page's title
            key = "svg title" if self._open[-1] == "title" and "svg" in self._open else self._open[-1]
            self.texts.setdefault(key, []).append(data)

    def of_class(self, cls: str) -> list[dict]:
        return [a for t, a in self.tags if a.get("class") == cls]


def page(location: str, tmp_path: Path, name: str = "warp.html") -> tuple[int, str, Path]:
    out = tmp_path / name
    console = Console(file=io.StringIO(), width=200, record=True, color_system=None, force_terminal=False)
    code = run_explain(location, html=str(out), console=console)
    return code, out.read_text(encoding="utf-8"), out


def test_shared_stride_two_draws_32_lanes_to_16_banks_of_two_words(tmp_path):
    code, text, _ = page(f"{ROOT}/fixtures/shared/stride2.cu:26", tmp_path)
    assert code == 0 and text.startswith("<!DOCTYPE html>\n<html lang=\"en\">")
    doc = Elements(text)
    assert doc.texts["title"] == [f"cudalint explain {ROOT}/fixtures/shared/stride2.cu:26"]
    assert doc.texts["h2"] == ["evenElements: load of t (shared, 4 bytes), warp 0"]
    lanes = doc.of_class("lane")
    assert [int(a["data-lane"]) for a in lanes] == list(range(32))
    assert [int(a["data-offset"]) for a in lanes] == [8 * i for i in range(32)]
    banks = {int(a["data-bank"]): int(a["data-words"]) for a in doc.of_class("bank")}
    assert banks == {b: 2 if b % 2 == 0 else 0 for b in range(32)}
    words = {(int(a["data-bank"]), int(a["data-word"])): a["data-lanes"] for a in doc.of_class("word")}
    assert words[(0, 0)] == "0" and words[(0, 32)] == "16" and words[(30, 62)] == "31" and len(words) == 32
    assert len(doc.of_class("wire")) == 32
    assert doc.texts["caption"] == ["2-way: at most 2 distinct word(s) in one bank, 2 wavefront(s)"]
    # the terminal text of the same access is kept beside the picture
    assert "conflict degree: 2-way; 2 wavefront(s) for this warp's request" in "".join(doc.texts["pre"])
    # self-contained: nothing is fetched
    assert not any(a.get("src") or a.get("href") for _, a in doc.tags)


def test_global_stride_two_draws_eight_sectors_in_two_lines(tmp_path):
    code, text, _ = page(f"{ROOT}/fixtures/global/stride.cu:25", tmp_path)
    doc = Elements(text)
    sectors = doc.of_class("sector")
    assert [(int(a["data-line"]), int(a["data-sector"]), a["data-touched"]) for a in sectors] == \
        [(0, 0, "1"), (0, 1, "1"), (0, 2, "1"), (0, 3, "1"), (1, 4, "1"), (1, 5, "1"), (1, 6, "1"), (1, 7, "1")]
    assert [int(a["data-offset"]) for a in doc.of_class("lane")][:3] == [0, 8, 16]
    assert doc.texts["caption"] == ["8 sector(s) of 32 bytes in 2 line(s) of 128 bytes for this warp"]


def test_html_says_where_it_wrote_and_bad_lines_or_warps_are_refused_before_drawing(tmp_path, capsys):
    from cudalint.cli import main
    out = tmp_path / "p.html"
    assert main(["explain", f"{ROOT}/fixtures/global/stride.cu:25", "--html", str(out)]) == 0
    captured = capsys.readouterr()
    assert captured.err == f"cudalint: wrote {out}\n" and out.exists()
    assert main(["explain", f"{ROOT}/fixtures/global/stride.cu:25", "--warp", "99"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == "cudalint: error: warp 99 out of range: the block has 8 warps\n"
    assert main(["explain", f"{ROOT}/fixtures/global/stride.cu:999"]) == 2
    assert capsys.readouterr().err == (f"cudalint: error: {ROOT}/fixtures/global/stride.cu has 78 lines: line 999 "
                                       "is past its end\n")


def test_constant_reads_draw_each_distinct_address_once(tmp_path):
    code, text, _ = page(f"{ROOT}/fixtures/constant/constant_reads.cu:47", tmp_path)
    doc = Elements(text)
    assert "4 distinct address(es): 4 request(s) for this warp" in doc.texts["caption"]


def test_hostile_file_name_is_escaped_in_the_page(tmp_path):
    src = tmp_path / "a<script>alert(1)<script>&.cu"
    src.write_text((ROOT / "fixtures/shared/stride2.cu").read_text())
    code, text, _ = page(f"{src}:26", tmp_path)
    assert code == 0 and "<script>" not in text and "a&lt;script&gt;alert(1)&lt;script&gt;&amp;.cu" in text


CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")

# Run in the page after it is laid out: each picture's boxes as the browser draws them, written into the DOM that
# --dump-dom prints.
PROBE = """<script>
window.addEventListener('load', () => {
  const box = e => { const r = e.getBoundingClientRect(); return [r.left, r.top, r.width, r.height]; };
  const out = [...document.querySelectorAll('figure > svg')].map(svg => ({
    svg: box(svg),
    lanes: [...svg.querySelectorAll('g.lane > rect')].map(box),
    banks: [...svg.querySelectorAll('g.bank > rect')].map(box),
    sectors: [...svg.querySelectorAll('g.sector > rect')].map(box),
    wires: [...svg.querySelectorAll('line.wire')].map(box),
    caption: (svg.querySelector('text.caption') || {}).textContent,
    ns: svg.namespaceURI,
  }));
  const pre = document.createElement('pre'); pre.id = 'probe'; pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
});
</script>"""


def render(path: Path, tmp_path: Path) -> list[dict]:
    """The page's pictures as headless Chromium lays them out (see PROBE)."""
    probed = path.with_name("probed.html")
    probed.write_text(path.read_text(encoding="utf-8").replace("</body>", PROBE + "</body>"), encoding="utf-8")
    cmd = [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
           "--disable-background-networking", "--disable-component-update", "--disable-sync",
           f"--user-data-dir={tmp_path / 'chromium-profile'}", "--window-size=1400,1000", "--dump-dom",
           probed.as_uri()]
    done = subprocess.run(cmd, capture_output=True, text=True, timeout=120, env={**os.environ, "HOME": str(tmp_path)})
    doc = Elements(done.stdout)
    return json.loads("".join(doc.texts.get("pre", [])[-1:]) or "null")


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_chromium_lays_out_lanes_banks_and_wires(tmp_path):
    _, _, path = page(f"{ROOT}/fixtures/shared/stride2.cu:26", tmp_path)
    pics = render(path, tmp_path)
    assert pics is not None and len(pics) == 1
    pic = pics[0]
    assert pic["ns"] == "http://www.w3.org/2000/svg"            # parsed as SVG, not as unknown HTML tags
    assert len(pic["lanes"]) == 32 and len(pic["banks"]) == 32 and len(pic["wires"]) == 32
    assert pic["caption"] == "2-way: at most 2 distinct word(s) in one bank, 2 wavefront(s)"
    left, top, width, height = pic["svg"]
    for x, y, w, h in pic["lanes"] + pic["banks"]:
        assert w > 20 and h > 20                                  # drawn at full size
        assert left <= x and x + w <= left + width and top <= y and y + h <= top + height   # not clipped
    lane_row = {round(y) for _, y, _, _ in pic["lanes"]}
    bank_row = {round(y) for _, y, _, _ in pic["banks"]}
    assert len(lane_row) == 1 and len(bank_row) == 1 and min(bank_row) > max(lane_row)   # two rows, lanes above
    xs = [x for x, _, _, _ in pic["lanes"]]
    assert xs == sorted(xs) and all(b - a > 20 for a, b in zip(xs, xs[1:]))              # in order, not overlapping
    # every wire runs from the lanes' row down to the banks' row
    lane_bottom = max(y + h for _, y, _, h in pic["lanes"])
    for _, y, _, h in pic["wires"]:
        assert abs(y - lane_bottom) < 2 and abs(y + h - min(bank_row)) < 2


@pytest.mark.skipif(CHROMIUM is None, reason="Chromium is not installed (.ci/run installs Debian's chromium)")
def test_chromium_lays_out_a_global_pictures_sectors(tmp_path):
    _, _, path = page(f"{ROOT}/fixtures/global/stride.cu:25", tmp_path)
    pic = render(path, tmp_path)[0]
    assert len(pic["lanes"]) == 32 and len(pic["sectors"]) == 8 and len(pic["wires"]) == 32
    rows = sorted({round(y) for _, y, _, _ in pic["sectors"]})
    assert len(rows) == 2 and rows[0] > max(y for _, y, _, _ in pic["lanes"])           # two 128-byte lines below
    assert pic["caption"] == "8 sector(s) of 32 bytes in 2 line(s) of 128 bytes for this warp"
