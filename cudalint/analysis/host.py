"""Host-pointer provenance over the IR (placeholder while it is ported)."""
from __future__ import annotations


def collect_async_copies(tu):
    return []
