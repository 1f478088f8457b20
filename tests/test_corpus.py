"""A corpus written the way production CUDA looks (tests/corpus/): every file is linted and every finding
was reviewed by hand; this test pins them (code, line, column, key metrics) so a regression shows."""

from pathlib import Path

import pytest

from cudalint.runner import RunOptions, lint_file

CORPUS = Path(__file__).parent / "corpus"

REVIEWED = {
    # warp-per-row softmax: lane-strided loops, shuffles, __ldg, float4, a non-type template parameter
    # (COLS = 1024 from the launch), missing cub/project headers: all coalesced, nothing to report.
    "softmax.cu": [],
    # shared histogram (data-dependent shared atomics are not modelled: silent), and a column-major walk
    # with row-fastest threads (block 32x8): lanes `rows` floats apart.
    "histogram.cu": [
        ("CL101", 24, 31, {"sectors_per_request": 32, "stride_bytes": 4096}),  # rows = 1024 at the launch
        ("CL601", 38, 16, {}),
    ],
    # kernels defined by a macro are clean; a strided read hidden in a function-like macro is found at
    # the macro's use; a lambda inside a kernel is fine.
    "macros_lambdas.cu": [
        ("CL101", 18, 14, {"sectors_per_request": 32, "stride_bytes": 64}),
    ],
}


def test_every_corpus_file_is_reviewed():
    assert sorted(p.name for p in CORPUS.glob("*.cu")) == sorted(REVIEWED)


@pytest.mark.parametrize("name", sorted(REVIEWED))
def test_corpus_findings(name):
    diags = lint_file(str(CORPUS / name), RunOptions())
    got = [(d.code, d.line, d.column) for d in diags]
    assert got == [(c, ln, col) for c, ln, col, _ in REVIEWED[name]]
    for d, (_, _, _, metrics) in zip(diags, REVIEWED[name]):
        for k, v in metrics.items():
            assert d.metrics[k] == v, (d.to_text(), k)
