"""The one domain exception, the exit codes, and the one place that maps errors to them."""

from __future__ import annotations

import sys

TYPE_CHECKING = False  # typing costs ~5 ms of start-up; hooks run on every commit
if TYPE_CHECKING:
    from typing import Callable

EXIT_CLEAN = 0
EXIT_FINDINGS = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3  # an unexpected exception: never 1, which means findings (issue #9)
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141  # 128 + SIGPIPE, what a shell reports for a writer whose reader went away (issue #11)


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
    """Run a command body; map every exception to an exit code and one stderr line, never a traceback."""
    try:
        return run()
    except LeverguardError as exc:
        print(f"leverguard: error: {exc.message}", file=sys.stderr)
        return exc.exit_code
    except KeyboardInterrupt:
        print("leverguard: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        return broken_pipe()
    except Exception as exc:  # noqa: BLE001 - the last line of defence: exit 3, not a traceback or a 1
        return internal_error(exc)


def finish(code: int) -> int:
    """Flush stdout before the interpreter does: a reader that closed the pipe must not turn into exit 0 or 120."""
    try:
        if sys.stdout is not None:
            sys.stdout.flush()
    except BrokenPipeError:
        return broken_pipe()
    return code


def broken_pipe() -> int:
    """The reader closed stdout (`| head`): silence the rest as the Python docs advise, exit as SIGPIPE would."""
    import os

    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())  # the interpreter's final flush now writes nowhere
        os.close(devnull)
    except (OSError, ValueError):  # stdout is not a real file (an in-process caller): nothing to redirect
        pass
    return EXIT_BROKEN_PIPE


def internal_error(exc: BaseException) -> int:
    """Write the traceback to a crash log outside the repository and say in one line where it is."""
    where = _crash_log(exc)
    summary = " ".join(str(exc).split()) or "(no message)"
    detail = f"details in {where}" if where else "no crash log could be written"
    print(f"leverguard: internal error: {type(exc).__name__}: {summary} ({detail}); please report it",
          file=sys.stderr)
    return EXIT_INTERNAL


def _crash_log(exc: BaseException) -> str | None:
    """The traceback in `$XDG_CACHE_HOME/leverguard/` (else the temp dir), never in the checked repository."""
    import os
    import tempfile
    import time
    import traceback

    from leverguard.cache import user_folder

    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.log"
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    header = f"leverguard {_version()} on Python {sys.version.split()[0]}\nargv: {sys.argv!r}\n\n"
    for folder in (user_folder(), tempfile.gettempdir()):
        if folder is None or not os.path.isabs(folder):
            continue
        try:
            os.makedirs(folder, exist_ok=True)
            path = os.path.join(folder, name)
            with open(path, "w", encoding="utf-8", errors="backslashreplace") as handle:
                handle.write(header + text)
            return path
        except OSError:
            continue
    return None


def _version() -> str:
    from leverguard import __version__

    return __version__
