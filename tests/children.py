"""Helpers for tests that run the CLI in a child process."""

from __future__ import annotations

import signal


def default_sigint() -> None:
    """``preexec_fn`` of a spawned CLI, so Ctrl-C reaches it as a KeyboardInterrupt even
    when the suite itself runs in the background: a shell starts a background job with
    SIGINT ignored, children inherit that, and Python then installs no handler."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)
