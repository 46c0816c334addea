"""Imports put back where they stood, taken out where a commit had moved them: imports sorted otherwise.

Each developer's IDE or formatter places imports its own way (AppFlowy's `package:flutter/*` imports moved to
the top and back, PR after PR). Moving an import back undoes nothing; an import put back that the change does
not take out elsewhere, or a code line moved back, still counts (in code, order is meaning).
"""

from __future__ import annotations

import pytest

from conftest import Repo
from revert_helpers import BOB, CAROL, by_pr, check, land, seed

IMPORTS = [f"import 'package:appflowy/part_{i}/part_{i}_service.dart';\n" for i in range(12)]
MOVED = "import 'package:flutter/foundation.dart';\n"
CODE = "".join(f"final workspaceMember{i} = await userService.getWorkspaceMember(id: {i});\n" for i in range(6))
NEW = "final healthCheck = await userService.checkWorkspaceHealth(timeout: 30);\n"


def _moved_back(repo: Repo, line: str, moved: bool, subject: str = "fix: postpone fetching member") -> dict:
    """#301 moves LINE from the top to below the other imports (or, not MOVED, deletes it); Carol's change
    (branched after it) writes LINE at the top again, with new work."""
    seed(repo)
    land(repo, "feat: the workspace bloc", {"lib/bloc.dart": line + "\n" + "".join(IMPORTS) + "\n" + CODE})
    sorted_in = IMPORTS[:9] + ([line] if moved else []) + IMPORTS[9:]  # (an IDE's sorting puts it there)
    edited = CODE.replace("id: 5", "id: widgetId")  # the commit's other work, kept
    land(repo, "feat: workspace health button (#301)", {"lib/bloc.dart": "".join(sorted_in) + "\n" + edited}, author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, subject, {"lib/bloc.dart": line + "\n" + "".join(IMPORTS) + "\n" + edited + NEW},
         author=CAROL)
    return by_pr(check(repo, "main..topic")[1]).get(301, {"severity": "none"})


def test_an_import_moved_back_undoes_nothing(repo: Repo) -> None:
    assert _moved_back(repo, MOVED, moved=True)["severity"] in ("none", "notice")


@pytest.mark.parametrize(("line", "moved"), [
    (MOVED, False),  # an import the commit deleted, put back: no move
    ("configureWorkspaceHealth(timeout: 30, retries: 3);\n", True),  # a code line moved back: order is meaning
])
def test_what_is_no_import_moved_back_still_counts(repo: Repo, line: str, moved: bool) -> None:
    assert _moved_back(repo, line, moved)["severity"] == "warning"


@pytest.mark.parametrize(("subject", "line", "severity"), [
    ("iwyu: fix headers", MOVED, "notice"),  # neomutt's: an include another commit pruned, put back by the tool
    ("tidy code\n\n- fix #includes", MOVED, "notice"),  # said in the body's list
    ("fix: postpone fetching member", MOVED, "warning"),  # says nothing of the imports
    ("iwyu: fix headers", "configureWorkspaceHealth(timeout: 30, retries: 3);\n", "warning"),  # a code line
])
def test_imports_put_back_by_a_change_that_says_it_works_on_them(repo: Repo, subject: str, line: str,
                                                                 severity: str) -> None:
    found = _moved_back(repo, line, False, subject)
    assert found["severity"] == severity, found.get("reason")


def test_an_import_the_commit_moved_under_a_guard_put_back_still_counts(repo: Repo) -> None:
    # pre-commit's `from typing import NoReturn` moved under `if TYPE_CHECKING:`: a stale copy putting it back
    # at the top and taking the guard out undoes that fix, though the import line reads the same
    old = seed(repo)
    third = "from identify.identify import parse_shebang_from_file\n\n"
    top = "from typing import Mapping\nfrom typing import NoReturn\nfrom typing import Tuple\n\n" + third
    guarded = "from typing import Mapping\nfrom typing import Tuple\nfrom typing import TYPE_CHECKING\n\n" + third + \
              "if TYPE_CHECKING:\n    from typing import NoReturn\n\n"
    land(repo, "feat: shebang parsing", {"src/shebang.py": top + old["src/mod1.py"]})
    fix = "def normalize_cmd(cmd: Tuple[str, ...]) -> NoReturn:\n    raise SystemExit(cmd)\n"  # the fix's other hunk, kept
    land(repo, "Fix pre-commit in python 3.6.0-3.6.1 (#301)", {"src/shebang.py": guarded + old["src/mod1.py"] + fix},
         author=BOB)
    repo.git("checkout", "-q", "-b", "topic")
    land(repo, "feat: flush the batch", {"src/shebang.py": top + old["src/mod1.py"] + fix + NEW}, author=CAROL)
    assert by_pr(check(repo, "main..topic")[1])[301]["severity"] == "warning"
