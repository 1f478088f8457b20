"""The front-ends (clang's :mod:`~cudalint.frontend.libclang`, :mod:`~cudalint.frontend.treesitter`) and what they
share."""

import re

#: a string or character literal (group 1) or a comment, in C++ source text
NOT_CODE = re.compile(r'("(?:\\.|[^"\\\n])*"|\'(?:\\.|[^\'\\\n])*\')|//[^\n]*|/\*.*?\*/', re.S)


def blank_non_code(text: str) -> str:
    """``text`` with its literals and comments blanked (their newlines kept, so lines stay where they were)."""
    return NOT_CODE.sub(lambda m: "\n" * m.group().count("\n"), text)
