"""A progress bar on stderr for long runs (rich), as ruff and clang-tidy's run scripts show one.

Shown only when stderr is a terminal other than ``TERM=dumb`` and the run has lasted a second: a pre-commit run over a few files, CI logs and pipes never see it.  Transient: the bar is
erased when the run ends, so the findings printed after it are all that stays on the screen."""

from __future__ import annotations

import os
import sys
import time
from typing import Optional

#: seconds a run lasts before the bar appears
DELAY_S = 1.0


class Progress:
    """Context manager counting files done out of ``total``; :meth:`advance` once per file."""

    def __init__(self, total: int, enabled: bool = True, stream=None, delay: float = DELAY_S):
        self.stream = stream if stream is not None else sys.stderr
        self.total, self.done, self.delay = total, 0, delay
        self.enabled = (enabled and total > 1 and bool(getattr(self.stream, "isatty", lambda: False)())
                        and os.environ.get("TERM") != "dumb")
        self.start = time.monotonic()
        self._bar = None
        self._task: Optional[int] = None

    def __enter__(self) -> "Progress":
        return self

    def advance(self) -> None:
        self.done += 1
        if not self.enabled:
            return
        if self._bar is None and time.monotonic() - self.start >= self.delay and self.done < self.total:
            from rich.console import Console
            from rich.progress import BarColumn, MofNCompleteColumn, Progress as Bar, TextColumn, TimeElapsedColumn
            self._bar = Bar(TextColumn("linting"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                            console=Console(file=self.stream), transient=True)
            self._bar.start()
            self._task = self._bar.add_task("lint", total=self.total)
        if self._bar is not None:
            self._bar.update(self._task, completed=self.done)

    def __exit__(self, *exc) -> None:
        if self._bar is not None:
            self._bar.stop()
