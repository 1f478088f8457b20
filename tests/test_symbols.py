"""cudalint.analysis.symbols: comparisons built without sympy's assumption queries give sympy's own value."""

from __future__ import annotations

import pytest
import sympy

from cudalint.analysis import symbols
from cudalint.analysis.symbols import BDIM, BID, TID, evaluated_relation, substitute

n = sympy.Symbol("n", integer=True)                      # a kernel parameter: no sign known
k = sympy.Symbol("k@12.3", integer=True, nonnegative=True)  # a loop's trip counter
x, bx, dx = TID[0], BID[0], BDIM[0]

ORDERS = (sympy.Lt, sympy.Le, sympy.Gt, sympy.Ge)
CASES = [
    (x + 1, x),                    # a number apart: decided
    (x, x + 32),
    (x + dx * bx, n),              # a term of no known sign: stays as written
    (x + n * k, 4),
    (n * k + 2 * x, n),
    (x, dx * bx),                  # opposite known signs, two symbols: stays as written
    (x + 4 * k, 3 * dx * bx + 7),
    (dx - 1, 0),                   # one symbol, positive: sympy decides it (monotonic sign)
    (x, 0),                        # one nonnegative symbol: sympy decides it
    (x + dx, 0),                   # the same signs: sympy decides it
    (2 * x, 1),
]


@pytest.mark.parametrize("rel", ORDERS + (sympy.Eq, sympy.Ne))
@pytest.mark.parametrize("lhs, rhs", CASES)
def test_evaluated_relation_is_sympys_value(rel, lhs, rhs):
    assert evaluated_relation(rel, lhs, rhs) == rel(lhs, rhs)


def test_opposite_signs_skip_sympys_sign_queries(monkeypatch):
    """The cases that cost: `threadIdx.x + 4*k < blockDim.x * blockIdx.x` and `i < n` (a parameter) are left as written
    without asking sympy (the test fails if the shortcut is removed: the patched sympy evaluation raises)."""
    evaluated_relation.cache_clear()

    def refuse(*_a, **_k):
        raise AssertionError("sympy's sign query was asked")
    monkeypatch.setattr(sympy.core.relational, "is_ge", refuse)
    assert evaluated_relation(sympy.Lt, x + 4 * k, dx * bx) == sympy.Lt(x + 4 * k, dx * bx, evaluate=False)
    assert evaluated_relation(sympy.Lt, x + dx * bx, n) == sympy.Lt(x + dx * bx, n, evaluate=False)
    assert evaluated_relation(sympy.Ge, x + 3, x + 1) is sympy.true
    assert evaluated_relation(sympy.Lt, x + 3, x + 1) is sympy.false
    with pytest.raises(AssertionError):
        evaluated_relation(sympy.Lt, x + dx, 0)  # the same signs: sympy is asked
    evaluated_relation.cache_clear()


def test_substitute_replaces_inside_conditions():
    g = sympy.And(sympy.Lt(x + dx * bx, n), sympy.Not(sympy.Eq(x, 0)))
    assert substitute(g, {n: 100, dx: 32}) == g.xreplace({n: 100, dx: 32})
    assert substitute(sympy.Lt(x + dx * bx, n), {x: 3, dx: 32, bx: 0, n: 10}) is sympy.true
    assert substitute(g, {}) is g
    assert symbols.substitute(x + n, {n: 2}) == x + 2
