"""`cudalint explain FILE:LINE`: the warp's picture, as plain text (rich without colour)."""

import io
from pathlib import Path

from rich.console import Console

from cudalint.cli import main
from cudalint.explain import run_explain

ROOT = Path(__file__).resolve().parents[1]


def picture(location: str, **kw):
    buf = io.StringIO()
    console = Console(file=buf, width=200, record=True, color_system=None, force_terminal=False)
    code = run_explain(location, console=console, **kw)
    return code, buf.getvalue()


def test_shared_column_read_puts_all_lanes_in_bank_zero():
    code, out = picture(f"{ROOT}/fixtures/shared/transpose_tile.cu:23")
    assert code == 0
    assert "offset (bytes) = 128*threadIdx.x + 4*threadIdx.y" in out
    assert "│ 0    │ w0 (0), w32 (1), w64 (2)" in out
    assert "banks not used: 31" in out
    assert "conflict degree: 32-way; 32 wavefront(s) for this warp's request" in out


def test_global_stride_two_lists_lanes_sectors_and_lines():
    code, out = picture(f"{ROOT}/fixtures/global/stride.cu:25")
    assert code == 0
    # lane 5 of warp 0 reads byte 40 -> sector 1, line 0
    assert "│    5 │   (5,0,0) │          40 │         1 │          0 │" in out
    assert "sectors/request 8 (ideal 4), efficiency 50.0%" in out
    assert "line        0 (byte          0): [#][#][#][#]" in out


def test_misaligned_offset_is_drawn_at_its_residue():
    code, out = picture(f"{ROOT}/fixtures/global/misaligned.cu:22")
    assert "│    0 │   (0,0,0) │           4 │         0 │" in out
    assert "sectors/request 5 (ideal 4), efficiency 80.0%" in out


def test_constant_reads_count_distinct_addresses():
    code, out = picture(f"{ROOT}/fixtures/constant/constant_reads.cu:47")
    assert "4 distinct address(es) -> 4 request(s) per warp" in out


def test_html_page_and_usage_errors(tmp_path, capsys):
    html = tmp_path / "warp.html"
    code, _ = picture(f"{ROOT}/fixtures/shared/stride2.cu:26", html=str(html))
    page = html.read_text()
    assert code == 0 and page.lower().startswith("<!doctype html>") and "conflict degree:" in page
    assert main(["explain", "fixtures/shared/stride2.cu"]) == 2
    assert "expected FILE:LINE" in capsys.readouterr().err
    code, out = picture(f"{ROOT}/fixtures/shared/stride2.cu:1")
    assert code == 1 and "no global, shared or constant access modelled" in out
