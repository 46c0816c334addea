"""The one domain exception, the exit codes, and the one place that maps errors to them."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; hooks run on every commit
if TYPE_CHECKING:
    from typing import Callable

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERRUPTED = 130


class LeverguardError(Exception):
    """A problem the user can fix; the message says what to do. Exit code 2 by default."""

    def __init__(self, message: str, exit_code: int = EXIT_USAGE) -> None:
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class GitError(LeverguardError):
    """A git call failed; never reported as "no findings"."""


class ConfigError(LeverguardError):
    """The configuration file holds an unknown key or a value of the wrong type."""


def guarded(run: Callable[[], int]) -> int:
    """Run a command body; map leverguard's errors and ^C to an exit code and one stderr line."""
    try:
        return run()
    except LeverguardError as exc:
        print(f"leverguard: error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("leverguard: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return EXIT_CLEAN
