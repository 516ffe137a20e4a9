"""Progress feedback on standard error for long work: reading and parsing files, long loops.

Off unless asked for (``progress=True`` in the API; the ``la-graph`` command asks
when standard error is a terminal).  Bars are tqdm's and appear only once the
work has taken ``DELAY`` seconds, so quick calls print nothing.
"""

from __future__ import annotations

import contextlib
import sys

#: seconds before a bar appears
DELAY = 2.0


class _Off:
    """What a bar is when progress is off: every call does nothing."""

    n = 0

    def update(self, k=1):
        pass

    def set_postfix_str(self, s):
        pass

    def close(self):
        pass


def bar(enabled, *, desc, total=None, unit="it", **kwargs):
    """A tqdm bar on standard error (rate and time left where ``total`` is known), or a silent one."""
    if not enabled:
        return _Off()
    from tqdm.auto import tqdm

    return tqdm(total=total, desc=desc, unit=unit, delay=kwargs.pop("delay", DELAY), file=sys.stderr,
                leave=False, dynamic_ncols=True, **kwargs)


@contextlib.contextmanager
def step(enabled, desc):
    """A line ``desc: <elapsed>`` while a step that has no count of its own runs (parsing, building)."""
    b = bar(enabled, desc=desc, total=1, bar_format="{desc}: {elapsed}")
    try:
        yield
        b.update(1)
    finally:
        b.close()
