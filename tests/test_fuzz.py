"""A fixed-seed sample of the mutation fuzzer (tests/fuzz.py; run it alone for the long mode): no mutant of the
fixtures or the corpus may end in an internal error of either front-end or any rule (issue 15)."""

from __future__ import annotations

import random

import pytest

from tests.fuzz import SEEDS, mutate, run


def test_mutations_are_deterministic_and_change_the_source():
    src = SEEDS[0].read_bytes()
    a = [mutate(src, random.Random(7)) for _ in range(3)]
    b = [mutate(src, random.Random(7)) for _ in range(3)]
    assert a == b
    ops = {mutate(src, random.Random(s))[0] for s in range(200)}
    assert ops == {"truncate", "delete", "duplicate", "brace", "macro", "nest", "literal", "nul", "utf8", "crlf",
                   "swap", "shift"}


@pytest.mark.slow
def test_no_mutant_ends_in_an_internal_error():
    assert run(mutants=60, seed=15, frontends=["clang", "tree-sitter"]) == []
