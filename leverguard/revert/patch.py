"""git's own `-U0` patches as the line model: `--raw -p -U0 -z` output into changes and hunks.

A patch holds exactly the changed lines, so judging hunks costs what a commit changed, never
what its files hold (REVERTS.md, "Cost"). Lines are normalized once here: whitespace removed
(so CRLF and trailing-space evasion vanish) and trivial lines (braces, `else`, a lone comma)
dropped, because they prove nothing.
"""

from __future__ import annotations

import re
from collections import Counter

from leverguard.patterns import lazy
from leverguard.errors import GitError
from leverguard.records import NamedTuple
from leverguard.revert.model import Change, parse_raw

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Iterable, Iterator, Sequence

    from packaging.version import Version

MIN_ALNUM = 3  # lines with fewer letters/digits than this are trivial
# a file's patch changing more lines than this (test data, a generated client, a vendored tree: headscale's
# 22,000-line policy fixtures, sixty to a commit) is compared by object id and size only, as a file over
# `max_file_size` is: reading its lines cost an audit most of its time and a gigabyte of memory
MAX_PATCH_LINES = 10_000
# a merge's conflict markers committed by mistake (tower's `>>>>>>> master` in a changelog): no one's work
CONFLICT_MARKERS = (b"<<<<<<<", b">>>>>>>")
MARKER_COMMENTED = b"#;%/*-"  # and commented out before the clean-up (pi-hole's `#<<<<<<< Updated upstream`)
# the version of the IDE that last saved a Visual Studio solution (`VisualStudioVersion = 12.0.31101.0`):
# each contributor's IDE stamps its own, no one's work (squeezed, as the patches hold it)
# and the format version Qt's lupdate or Linguist stamps a translation file with (`<TS version="2.1" language="pl">`:
# TeXworks' maintainer's lupdate writes 2.0, its translators' Linguist 2.1)
# what an editor stamps into what it saves (whitespace squeezed): Visual Studio's versions in a solution or an
# old project file, Qt Linguist's catalog version, the writer's version on an RTF file's first line (TextEdit's
# `{\rtf1\ansi\ansicpg1252\cocoartf2577`)
IDE_STAMPS = (b"VisualStudioVersion=", b"MinimumVisualStudioVersion=", b"#VisualStudio", b"<TSversion=",
              b"<ProductVersion>", b"{\\rtf1",
              b"RoxygenNote:")  # (roxygen2 stamps its version into an R package's DESCRIPTION at every run)
TRIVIAL = frozenset(
    b"else else: pass end fi done then do try: finally: return return; break break; continue continue; "
    b"#else #endif endif end; esac }else{ }else else{ */ /** \"\"\" '''".split()
)
_NON_ALNUM = bytes(c for c in range(256) if not (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122))
_DIGITS = b"0123456789"
# a reference into a source file by line: `rowExpandingFeature.types.ts:113`, `...types.ts#L113`, `#L10-L12`
_LINE_REFERENCE = lazy(rb"(\.(?:py|pyi|js|mjs|cjs|ts|mts|tsx|jsx|go|rs|java|kt|c|h|cc|cpp|hpp|rb|php|cs|swift|scala|"
                       rb"m|mm|ex|exs|vue|svelte|dart|lua|sh))(?::\d+(?::\d+)?|#L\d+(?:-L?\d+)?)\b")
# a path through a machine's home folder (macOS, Linux, Windows), to its end
_HOME_PATH = lazy(rb"(?:/Users/|/home/|[A-Za-z]:\\+Users\\+)[^\"'\s,;)]*")
_SEPARATORS = lazy(rb"[/\\]+")
_SPACE = b" \t\r\f\v\n"
# formatter punctuation (REVERTS.md, traps): quote style (every quote read as `"`), trailing commas, wrapping
# parentheses, semicolons, line continuations. A comma elsewhere stays: `'t,' '1'` for `'t', '1'` is a fix.
_QUOTES = bytes.maketrans(b"'`", b'""')
_TRAILING_COMMA = lazy(rb",+(?=[)\]}]|$)")
_WRAPPING = b";()[]\\"
_MINUS, _PLUS, _BACKSLASH = b"-+\\"  # a patch line's first byte, as an int
HEADER = b"\x1e"  # the record separator leverguard puts before each commit in `--format`
_EXTENDED = (b"old mode", b"new mode", b"deleted file mode", b"new file mode", b"index ", b"similarity index",
             b"dissimilarity index", b"rename from", b"rename to", b"copy from", b"copy to", b"Binary files",
             b"--- ", b"+++ ", b"GIT binary patch", b"remerge ")  # remerge: a merge's conflict notes


# Comments that only silence a linter, a type checker, a formatter or a coverage tool (noqa, type-ignore,
# ty-ignore, eslint-disable, pragma no-cover, istanbul-ignore, NOLINT markers): adding or dropping one changes no behaviour. Matched on normalized lines.
_LINT_MARKER = lazy(rb"(?:#|//|/\*)(?:noqa\b|type:ignore\b|pragma:no(?:cover|branch)\b|pylint:disable|nosec\b"
                    rb"|pyright:ignore\b|eslint-disable|@ts-ignore\b|@ts-expect-error\b|nolint\b|NOLINT"
                    rb"|prettier-ignore\b|ty:ignore\b|pyre-(?:ignore|fixme)\b|biome-ignore\b|deno-lint-ignore\b"
                    rb"|fmt:(?:skip|off|on)\b|rubocop:disable\b|(?:istanbul|c8)ignore\b).*$")


_UNICODE_PREFIX = lazy(rb"(?<![\w])u(?=['\"])")  # `label(u'hello')`, `[u'v']`; not `menu'`
_LINT_ATTRIBUTE = lazy(rb"#!?\[(?:allow|expect|warn|deny)\([\w:,]*(?:\)\])?")  # (a closing `)]` alone is trivial)
_LINT_NAME = lazy(rb"\w+(?:::\w+)*,?")


_BOM = "\ufeff".encode()


def unpunctuated(line: bytes) -> bytes:
    """LINE without whitespace and formatter punctuation: what a formatter's rewrite leaves alone. Python 2's
    `u'...'` prefix goes too: it changes nothing under Python 3 or `unicode_literals` (wtforms' Python 3 merge);
    so does a byte-order mark."""
    if b"u'" in line or b'u"' in line:
        line = _UNICODE_PREFIX.sub(b"", line)
    if _BOM in line:  # an editor's byte-order mark, written or dropped on a file's first line (testfx' XML)
        line = line.replace(_BOM, b"")
    line = line.translate(_QUOTES, _SPACE)
    if line.endswith(b",") or b",)" in line or b",]" in line or b",}" in line:
        line = _TRAILING_COMMA.sub(b"", line)
    return line.translate(None, _WRAPPING)


def lint_markers_only(hunk: Hunk) -> bool:
    """Does HUNK only add or drop comments that silence a linter (`# type: ignore[...]`), or only edit the
    lints a Rust `#[allow(...)]` names (serde's `clippy::needless_lifetimes` added, then taken out again)?"""
    def unmarked(lines: tuple[bytes, ...]) -> tuple[bytes, ...]:
        return tuple(bare for line in lines if (bare := _LINT_MARKER.sub(b"", line)))
    if hunk.removed == hunk.added:
        return False
    return unmarked(hunk.removed) == unmarked(hunk.added) or (_lint_list(hunk.removed) and _lint_list(hunk.added))


def _lint_list(lines: tuple[bytes, ...]) -> bool:
    """LINES (normalized) are a lint attribute, `#[allow(a, b)]` on one line or its names one per line."""
    if not any(line.startswith((b"#[", b"#![")) for line in lines):  # most hunks: no attribute at all
        return False
    return any(_LINT_ATTRIBUTE.fullmatch(line) for line in lines) and \
        all(_LINT_ATTRIBUTE.fullmatch(line) or _LINT_NAME.fullmatch(line) for line in lines)


# Import statements, on normalized (whitespace-free) lines: Python, JavaScript/TypeScript, C/C++, Rust,
# Java. Formatters and linters sort, prune and re-add them (isort, ruff, pycln), so alone they prove little.
_IMPORT = lazy(rb"(?:from[\w.]+import[\w.,()*]+|import[\w.,]+|import(?:static)?[\w.*]+;"
               rb"|import.*from['\"][^'\"]+['\"];?|import['\"][^'\"]+['\"];?|#include[<\"].+[>\"]"
               rb"|(?:pub)?use[\w:{},*]+;|(?:const|let|var)[\w{},]+=require\(['\"][^'\"]+['\"]\);?"
               # PHP's `use App\Models\User;`, C#'s `using System.Linq;`, `global using`, `using static`
               rb"|use\\?\w+(?:\\\w+)+(?:as\w+)?;|(?:global)?using(?:static)?[\w.]+;)")


# a variable's name as a print's label, camelCase or snake_case (squeezed lines hold no spaces to tell words by)
_NAME_LABEL = rb"(?:[a-z][a-z0-9]*(?:[A-Z][a-z0-9]*)+|[a-z][a-z0-9]*(?:_[a-z0-9]+)+)"
# Debug output, on normalized lines: a dump or a breakpoint only someone debugging writes (`var_dump($x);`,
# `dbg!(x)`, `debugger;`, a console print of bare values, labelled by a name at most: `console.log(list)`,
# `console.log('navbarHeight: ', height)`), with the halt after it (`die;`), and prints, which a program's own
# output uses too (`console.log("listening on", port)`)
_DUMP = rb"(?:(?:var_dump|print_r|debug_zval_dump|dbg!)\(.*|debugger;?|" \
    rb"console\.(?:log|debug|dir|table)\((?:(?P<q>['\"`])" + _NAME_LABEL + rb"[:=]?(?P=q),)?[\w.$\[\]{},]+\);?)"
_HALT = rb"(?:die|exit)(?:\(\))?;"
_PRINT = rb"(?:console\.(?:log|debug|dir|trace)|print(?:ln|f)?!?|e?println!|fmt\.Print\w*|System\.(?:out|err)\.print\w*|NSLog)\(.*"
# a test focused while debugging, which no suite keeps: mocha's and jest's `it.only(`, jasmine's `fit(`
_FOCUSED = rb"(?:(it|describe|test|context|suite|specify)\.only|f(it|describe))(\(['\"`].*)"
DUMP, HALT, PRINT, FOCUSED = lazy(_DUMP), lazy(_HALT), lazy(_PRINT), lazy(_FOCUSED)
COMMENTED_DEBUG = lazy(rb"(?:#|//|/\*|--)+(?:" + _DUMP + b"|" + _PRINT + b")")


def debug_only(lines: Iterable[bytes]) -> bool:
    """Are LINES (normalized) debug output no one keeps: prints commented out (eslint-plugin-react's
    `// console.log(require('util').inspect(t, { depth: null }));`), or a dump or a focused test with the
    prints, halts and imports around it (flysystem's `CS` taking out `var_dump($x); die();`, pixijs's `clean
    up test` putting `it(` back for `it.only(` and taking out the `console.log(fill2Data);` beside it)? Taking
    it out or back loses nothing; a print alone is a program's output."""
    found = [line for line in lines if line]
    focused = [match for line in found if (match := FOCUSED.fullmatch(line))]
    unfocused = {(m[1] or m[2]) + m[3] for m in focused}  # the same test's line before it was focused
    if not found or not all(DUMP.fullmatch(line) or HALT.fullmatch(line) or COMMENTED_DEBUG.fullmatch(line) or
                            FOCUSED.fullmatch(line) or PRINT.fullmatch(line) or _IMPORT.fullmatch(line) or
                            line in unfocused for line in found):  # most: the first line is code
        return False
    return all(COMMENTED_DEBUG.fullmatch(line) for line in found) or bool(focused) or \
        any(DUMP.fullmatch(line) for line in found)


def prints_only(lines: Iterable[bytes]) -> bool:
    """Are LINES (normalized) all prints or debug output (`console.log("rendering keyed", x);`)?"""
    found = [line for line in lines if line]
    return bool(found) and all(PRINT.fullmatch(line) or DUMP.fullmatch(line) or HALT.fullmatch(line) or
                               COMMENTED_DEBUG.fullmatch(line) for line in found)


def imports_only(lines: Iterable[bytes], language: str = "") -> bool:
    """Are LINES (normalized) all import statements (`from typing import Protocol`, `#include <x.h>`)? In Go
    (LANGUAGE "go") an import block's quoted paths count too."""
    found = list(lines)
    return bool(found) and all(_IMPORT.fullmatch(line) or language == "go" and _GO_SPEC_SQUEEZED.fullmatch(line)
                               for line in found)


_FROM_IMPORT = lazy(rb"from([\w.]+)import\(?([\w.,*]+?),?\)?")  # normalized: `fromtypesimportA,B`
# the names an import line brings in, normalized: `usestd::iter;`, `use a::{b,c};`, `import{a,b}from'x'`,
# `importxfrom'x'`, `import*asxfrom'x'`, `importos.path`
_IMPORTED = (lazy(rb"(?:pub)?use(?:[\w]+::)*\{([\w,]+)\};"), lazy(rb"(?:pub)?use(?:[\w]+::)*(\w+);"),
             lazy(rb"import\{([\w,]+)\}from['\"].*"), lazy(rb"import(?:\*as)?(\w+)from['\"].*"),
             lazy(rb"import(\w+)(?:\.[\w.]+)?"))


def imported_names(line: bytes) -> list[bytes]:
    """The names import LINE (normalized) brings in, for the forms whose names can be read back; none for
    the others (`#include`, `use a::*;`, `from x import a as b` squeezed to `aasb`)."""
    found = _FROM_IMPORT.fullmatch(line)
    if found is not None:
        return [] if b"*" in found.group(2) else [name for name in found.group(2).split(b",") if name]
    for pattern in _IMPORTED:
        found = pattern.fullmatch(line)
        if found is not None:
            return [name for name in found.group(1).split(b",") if name]
    return []


_PY_IMPORT = lazy(rb"\s*import\s+([\w.]+(?:\s+as\s+\w+)?(?:\s*,\s*[\w.]+(?:\s+as\s+\w+)?)*)\s*")
_PY_FROM = lazy(rb"\s*from\s+[\w.]+\s+import\s+\(?\s*(\w+(?:\s+as\s+\w+)?(?:\s*,\s*\w+(?:\s+as\s+\w+)?)*)\s*,?\s*\)?\s*")
_JS_IMPORT = lazy(rb"\s*import\s+(?:type\s+)?([\w$]+\s*,?\s*)?(?:\{([\w$\s,]*)\}|\*\s*as\s+([\w$]+))?\s*from\s*['\"][^'\"]+['\"]\s*;?\s*")
_JVM_IMPORT = lazy(rb"\s*import\s+(?:static\s+)?[\w.]*\.(\w+)(?:\s+as\s+(\w+))?\s*;?\s*")  # the last name, or its alias
_PHP_USE = lazy(rb"\s*use\s+(?:function\s+|const\s+)?\\?(?:\w+\\)*(\w+)(?:\s+as\s+(\w+))?\s*;\s*")
_RUST_USE = lazy(rb"\s*use\s+(?:::)?(?:\w+::)*(?:\{([\w\s,]+)\}|(\w+(?:\s+as\s+\w+)?))\s*;\s*")
_ALIAS = lazy(rb"\s+as\s+")
# which grammar a file's import lines follow, by its name's ending
IMPORT_LANGUAGES = {**dict.fromkeys((b".py", b".pyi"), "python"), **dict.fromkeys((b".java", b".kt", b".kts"), "jvm"),
                    # (a Vue or Svelte component's `<script>` imports as JavaScript does: mealie's `settings.vue`)
                    **dict.fromkeys((b".js", b".mjs", b".cjs", b".jsx", b".ts", b".mts", b".cts", b".tsx", b".vue", b".svelte"),
                                    "javascript"),
                    b".rs": "rust", b".php": "php", b".go": "go", b".cs": "csharp"}
# a Go import spec, as written (`\tyaml "gopkg.in/yaml.v3"`, `import "fmt"`) and squeezed (`yaml"gopkg.in/yaml.v3"`):
# gofmt's composite literals end every line with a comma, so a quoted path alone is an import block's line
_GO_SPEC = lazy(rb'\s*(?:import\s+)?(?:([A-Za-z_]\w*|\.)\s+)?"([^"\s]+)"\s*')
_GO_SPEC_SQUEEZED = lazy(rb'(?:import)?(?:[A-Za-z_]\w*|\.)?"[^"]+"')
_GO_MAJOR = lazy(rb"v\d+")


def import_language(path: bytes) -> str:
    """The import grammar of PATH's language ("python", "javascript", "jvm", "rust", "php", "go", "csharp"), or "" for
    any other."""
    return IMPORT_LANGUAGES.get(path[path.rfind(b"."):].lower(), "") if b"." in path.rpartition(b"/")[2] else ""


def bound_names(line: bytes, language: str) -> list[bytes] | None:
    """The names an import LINE (as written) of LANGUAGE binds in its file: Python's `import a.b as c` c,
    `import a.b` a, `from m import x as y, z` y and z; JavaScript's `import d, {e as f} from 'm'` d and f;
    Java's or Kotlin's `import java.lang.reflect.Field;` Field; Rust's `use a::{B, C as D};` B and D; PHP's
    `use Illuminate\\Support\\Arr;` Arr. None
    for any other line, or one that binds nothing a reader could look up (`from m import *`, `import 'm'`,
    `import a.b.*;`, `use a::Trait as _;`, a `pub use`, whose names are for other files)."""
    if language == "python":
        found = _PY_IMPORT.fullmatch(line)
        if found is not None:
            return [_ALIAS.split(item.strip())[-1].split(b".")[0] for item in found.group(1).split(b",")]
        found = _PY_FROM.fullmatch(line)
        return None if found is None else \
            [_ALIAS.split(item.strip())[-1] for item in found.group(1).split(b",") if item.strip()]
    if language == "go":
        found = _GO_SPEC.fullmatch(line)
        if found is None or found.group(1) in (b"_", b"."):  # a side effect, or names dotted into the file
            return None
        if found.group(1):
            return [found.group(1)]
        parts = found.group(2).split(b"/")  # the package is the path's last part, its major version aside
        name = parts[-2] if len(parts) > 1 and _GO_MAJOR.fullmatch(parts[-1]) else parts[-1]
        return [name.removeprefix(b"go-").split(b".")[0].split(b"-")[0]]  # `go-sqlite3`, `yaml.v3`
    if language == "jvm":
        found = _JVM_IMPORT.fullmatch(line)
        return None if found is None else [found.group(2) or found.group(1)]
    if language == "php":
        found = _PHP_USE.fullmatch(line)
        return None if found is None else [found.group(2) or found.group(1)]
    if language == "rust":
        found = _RUST_USE.fullmatch(line)
        if found is None:
            return None
        names = [_ALIAS.split(item.strip())[-1] for item in (found.group(1) or found.group(2)).split(b",") if item.strip()]
        return None if b"_" in names or b"self" in names else names  # `Trait as _` is used by its methods
    found = _JS_IMPORT.fullmatch(line) if language == "javascript" else None
    if found is None or not any(found.groups()):
        return None
    default, named, star = found.groups()
    names = [default.strip(b" \t,")] if default else []
    names += [_ALIAS.split(item.strip())[-1] for item in (named or b"").split(b",") if item.strip()]
    return names + ([star] if star else []) or None


# an import statement whose names follow on lines of their own, one per line, to its closing bracket
_LIST_OPENS = {"python": lazy(rb"\s*from\s+[\w.]+\s+import\s*\(\s*(#.*)?"),
               "javascript": lazy(rb"\s*(import|export)\s+(type\s+)?\{\s*"),
               "rust": lazy(rb"\s*(pub\s+)?use\s+[\w:]+::\{\s*")}
_LIST_ITEM = lazy(rb"\s*(?:type\s+)?(\w+)(?:\s+as\s+(\w+))?\s*,?\s*(#.*|//.*)?")
_LIST_ITEM_SQUEEZED = lazy(rb"\w+,?(#.*|//.*)?")


def import_list_items(text: bytes, language: str) -> dict[bytes, list[bytes]]:
    """The lines of TEXT (squeezed) that name one import of a statement spread over lines (Python's
    `from m import (`, JavaScript's `import {`, Rust's `use a::{`), each with the name it binds (`a as b`: b)."""
    opens = _LIST_OPENS.get(language)
    if opens is None:
        return {}
    found: dict[bytes, list[bytes]] = {}
    inside = False
    for line in text.split(b"\n"):
        if not inside:
            inside = opens.fullmatch(line) is not None
            continue
        item = _LIST_ITEM.fullmatch(line)
        if item is None:
            inside = False  # the closing bracket, or a line that is no single name
            continue
        # (one kept with a comment, a linter's `noqa`, is kept on purpose: it binds nothing a reader looks up)
        found[squeeze(line)] = [] if item.group(3) else [item.group(2) or item.group(1)]
    return found


def names_one_import(line: bytes) -> bool:
    """Whether LINE (squeezed) can name one import of a statement spread over lines (`x,`, `yasz,`)."""
    return _LIST_ITEM_SQUEEZED.fullmatch(line) is not None


def names_pruned(removed: Sequence[bytes], added: Sequence[bytes]) -> bool:
    """One `from M import ...` line for another of the same module whose names only gain or only lose some
    (`FrameType, ModuleType` to `ModuleType`): a tool pruning an unused name, or re-adding one."""
    if len(removed) != 1 or len(added) != 1:
        return False
    old, new = _FROM_IMPORT.fullmatch(removed[0]), _FROM_IMPORT.fullmatch(added[0])
    if old is None or new is None or old.group(1) != new.group(1):
        return False
    before, after = set(old.group(2).split(b",")), set(new.group(2).split(b","))
    return before != after and (before <= after or after <= before)


# A version number in a line: `version="1.2.0dev0"`, `__version__='0.11-dev'`, `"version":"2.0.0-beta.1"`.
# `@v4` too: actions pin a major version alone.
# A Go module's requirement, squeezed as the patches hold it: `cloud.google.com/go/spannerv1.47.0//indirect`.
# Each part of a suffix after the first starts with its separator, so a line is read in linear time.
_VERSION = lazy(rb"(?<![\w.])(?:v?(\d+(?:\.\d+)+(?:[-.]?[a-z]+\d*(?:[-.][a-z0-9]+)*)?)|(?<=@)v(\d+))(?![\w.])|"
                rb"(?<=[a-z0-9_~/.-])v(\d+\.\d+\.\d+(?:-[0-9a-z.-]+)?(?:\+incompatible)?)(?=(?://indirect)?$)",
                re.IGNORECASE)
# what makes a number on a line a version: a version key, a pin, an action's ref (not `assertLess(t, 0.045)`),
# a Go module path right before it (read on the line, and on its shape with the version taken out)
_VERSION_KEY = lazy(rb"version|(?<![a-z])rev(?![a-z])|@|[=<>~!]=|\^|~|[a-z0-9_~/.-]v\d+\.\d+\.\d+|[a-z0-9_~/.-]\x00(?://indirect)?$",
                    re.IGNORECASE)
# a measurement, not a version: a part of more digits than any version's (`0.0022159663427570053`, a test's
# duration in pytest-split's `.test_durations`, whose names may say `version`)
_MEASURED = lazy(rb"v?\d+(?:\.\d+)*\.\d{11}")
_MAJOR_FLOOR = lazy(r"(\d+)(?:\.0)+")  # `15.0.0`: a major's first release
# a shape naming what it pins (`"lodash":"^\0"`, `numpyv\0`), unlike a bare key (`rev:\0`, `version="\0"`)
_NAMED_SHAPE = 3  # letters or digits besides the version keys


def version_pairs(removed: Sequence[bytes], added: Sequence[bytes]) -> list[tuple[bytes, bytes, str, str]]:
    """Each line of REMOVED holding a version number that a line of ADDED, the same but for that number,
    replaces (`version="1.1.2"` by `version="1.2.0dev0"`): the line, the line that replaces it, and both
    versions. Pass one hunk's sides. A line whose shape repeats there is no pair, nor are two lines after
    different changed lines: a file holds many `rev: v1.2` lines, each after the `repo:` it pins, and a
    hook replaced by another changes both."""
    def number(line: bytes) -> str | None:
        found = _VERSION.search(line)
        if found is None or _MEASURED.match(found.group(0)):
            return None
        return (found.group(1) or found.group(2) or found.group(3)).decode("ascii")

    def by_shape(lines: Sequence[bytes]) -> dict[bytes, tuple[bytes, str, bytes | None]]:
        found: dict[bytes, tuple[bytes, str, bytes | None]] = {}  # shape -> line, version, the line before
        shapes: Counter[bytes] = Counter()
        for i, line in enumerate(lines):
            if _VERSION_KEY.search(line) is None or (version := number(line)) is None:
                continue
            template = _VERSION.sub(b"\0", line, count=1)
            if _VERSION_KEY.search(template):
                shapes[template] += 1
                found[template] = (line, version, lines[i - 1] if i else None)
        return {shape: entry for shape, entry in found.items() if shapes[shape] == 1}

    # a pure addition or deletion replaces nothing; most hunks hold no version key at all (one search each)
    if not removed or not added or _VERSION_KEY.search(b"\n".join(removed)) is None:
        return []
    written = by_shape(added)
    pairs = []
    for shape, (line, old, before) in by_shape(removed).items():
        if shape in written:
            new_line, new, new_before = written[shape]
            # first in its hunk (after context), after the same line, or named: a requirement's name is unique
            if before is None or new_before is None or before == new_before or _named(shape):
                pairs.append((line, new_line, old, new))
    return pairs


def _named(shape: bytes) -> bool:
    """A version line's shape names what it pins (`"lodash":"^\0"`): the only line of that name in its hunk."""
    return len(_VERSION_KEY.sub(b"", shape).translate(None, _NON_ALNUM)) >= _NAMED_SHAPE


# the release tag of a Maven `<scm>` block, which maven-release-plugin writes with each version (`HEAD` between)
_SCM_TAG = lazy(rb"<tag>[^<]*</tag>")


def versions_move_on(hunks: Sequence[Hunk], semver: bool = False) -> bool:
    """Whether HUNKS only move version numbers on (`version="1.1.2"` to `version="1.2.0dev0"`), with the
    release tag a Maven release writes beside them: a release cycle, where a value can equal an older one.
    A stale tree moves versions back, never forward. SEMVER: the hunks are of manifests whose ecosystem
    orders versions as Semantic Versioning does (`1.0.0-dev` after `1.0.0-beta.5.3`: dart-sass' reset
    after each beta), not as PEP 440 does (`1.0.0.dev0` before any beta)."""
    moves: list[tuple[str, str]] = []
    for hunk in hunks:
        found = _version_moves(hunk.removed, hunk.added)
        if found is None:
            return False
        moves += found
    return bool(moves) and all(_semver_later(old, new) if semver else _later(old, new) for old, new in moves)


# manifests whose ecosystem orders versions by Semantic Versioning: npm's, Dart's, Cargo's, Composer's
SEMVER_MANIFESTS = frozenset((b"package.json", b"pubspec.yaml", b"Cargo.toml", b"composer.json"))
_SEMVER = lazy(r"v?(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?(?:\+[0-9A-Za-z.-]+)?")


def _semver_later(old: str, new: str) -> bool:
    """Whether NEW comes after OLD in Semantic Versioning's precedence (a pre-release before its release, its
    identifiers compared one by one: numbers by value, below words, words by their letters)."""
    before, after = _semver_key(old), _semver_key(new)
    return before is not None and after is not None and before < after


def _semver_key(version: str) -> tuple[tuple[int, int, int], int, tuple[tuple[int, int, str], ...]] | None:
    found = _SEMVER.fullmatch(version)
    if found is None:
        return None
    core = (int(found.group(1)), int(found.group(2)), int(found.group(3)))
    if found.group(4) is None:
        return core, 1, ()
    parts = tuple((0, int(part), "") if part.isdigit() else (1, 0, part) for part in found.group(4).split("."))
    return core, 0, parts


def moves_versions_back(removed: Sequence[bytes], added: Sequence[bytes]) -> bool:
    """Whether a hunk's REMOVED and ADDED lines only set version numbers back (`__version__ = "0.7.2"` to
    `"0.7.0"`, a bulk import from an older fork): undoing that moves them on again, a release cycle's way."""
    moves = _version_moves(removed, added)
    return bool(moves) and all(_later(new, old) for old, new in moves or ())


def _version_moves(removed: Sequence[bytes], added: Sequence[bytes]) -> list[tuple[str, str]] | None:
    """The (old, new) versions of a hunk that only changes version numbers (and a Maven release tag beside
    them); None when it changes anything else."""
    pairs = version_pairs(removed, added)
    paired = {line for line, new_line, _, _ in pairs} | {new_line for _, new_line, _, _ in pairs}
    rest_removed = [line for line in removed if line not in paired]
    rest_added = [line for line in added if line not in paired]
    codes = _code_moves(rest_removed, rest_added)
    if codes is None and _release_fields(rest_removed, rest_added):
        codes = []  # (their values move no version: the one beside them says which way the cycle went)
    if codes is not None:
        return [(old, new) for _, _, old, new in pairs] + codes
    if len(rest_removed) != len(rest_added) or not all(_SCM_TAG.fullmatch(line) for line in rest_removed + rest_added):
        return None
    return [(old, new) for _, _, old, new in pairs]


RELEASE_KEY = lazy(rb"version|release", re.IGNORECASE)  # a key naming a release field (squeezed lines)
RELEASE_VALUE = lazy(rb"[\w.-]{1,24}[\"']?;?")  # its value's end, where the line's two versions differ


def _release_fields(removed: Sequence[bytes], added: Sequence[bytes]) -> bool:
    """Whether REMOVED and ADDED, pair by pair, set a release's fields, each line changed in its value only under
    a key naming a version or a release (Qiskit's `#define QISKIT_RELEASE_LEVEL QISKIT_RELEASE_LEVEL_DEV`,
    `QISKIT_VERSION_MINOR 6` and `QISKIT_RELEASE_SERIAL 0` after `2.5.0rc1`). Their values say nothing of the way
    the cycle went (a serial starts again at 0, a level goes from `RC` to `DEV`)."""
    if not removed or len(removed) != len(added):
        return False
    for old, new in zip(removed, added):
        size = next((i for i, (a, b) in enumerate(zip(old, new)) if a != b), min(len(old), len(new)))
        if not RELEASE_KEY.search(old[:size]) or not RELEASE_VALUE.fullmatch(old[size:]) or \
                not RELEASE_VALUE.fullmatch(new[size:]):
            return False
    return True


def _code_moves(removed: Sequence[bytes], added: Sequence[bytes]) -> list[tuple[str, str]] | None:
    """The (old, new) build numbers of lines that differ in one only (ampache's `$version_numeric = '554000'`
    beside `$version = '5.5.4'`, Gradle's `versionCode 42`); None unless every line is such a pair."""
    def shapes(lines: Sequence[bytes]) -> dict[bytes, str] | None:
        found: dict[bytes, str] = {}
        for line in lines:
            code = _VERSION_CODE.search(line)
            if code is None:
                return None
            found[line[:code.start(1)] + b"\0" + line[code.end(1):]] = code.group(1).decode("ascii")
        return found if len(found) == len(lines) else None
    before, after = shapes(removed), shapes(added)
    if not removed or before is None or after is None or before.keys() != after.keys():
        return None
    return [(before[shape], after[shape]) for shape in before]


# a build number that a version key names, squeezed as the patches hold it: `$version_numeric='554000';`,
# `versionCode42` (Gradle), `android:versionCode="42"`; asked only whether a change moves versions on
_VERSION_CODE = lazy(rb"version_?(?:code|numeric|number|int)?[\"']?[:=]?[\"']?(\d+)(?![\w.])", re.IGNORECASE)


def written_on(lines: Iterable[bytes], hunks: Sequence[Hunk]) -> bool:
    """Whether HUNKS replace each of LINES by the same line with a later version (`lxml==4.8.0` by
    `lxml==4.9.0`): those pins moved on, whatever else the hunks write (a merge re-locking a file)."""
    wanted = set(lines)
    later = {line for hunk in hunks for line, _, old, new in version_pairs(hunk.removed, hunk.added) if _later(old, new)}
    return bool(wanted) and wanted <= later


# The project's own version, on a normalized line: `__version__="26.0"`, `version="1.2.0",` (setup.py),
# `"version":"2.0.0",` (package.json), `version:1.2.0` (YAML), `VERSION="1.2"`; never a dependency's pin.
_OWN_VERSION = lazy(rb"[\"']?(?:__version__|version)[\"']?(?::\w+)?[:=][\"']?v?\d[\w.+-]*[\"']?,?", re.IGNORECASE)


def own_version_only(lines: Iterable[bytes]) -> bool:
    """Are LINES (normalized) all assignments of the project's own version (`__version__="26.1.dev2"`)?"""
    found = list(lines)
    return bool(found) and all(_OWN_VERSION.fullmatch(line) for line in found)


def prerelease(version: str) -> bool:
    """VERSION is a dev or pre-release (`26.1.dev2`, `6.6.0b1`, `2.0.0-rc.1`): a marker a release replaces."""
    parsed = _parsed(version)
    return parsed is not None and parsed.is_prerelease  # (PEP 440: dev releases are pre-releases too)


def set_back(old: str, new: str) -> bool:
    """NEW is a lower minor (or major) version than OLD (`0.11-dev` to `0.10.1`, `v4` to `v3`). Patch levels
    and dev markers do not count: releases write `8.3.dev` after `8.3.1` on purpose; nor does a shorter
    version OLD begins with (`v4.1.7` to the floating `v4`, which covers it: a stale copy writes an older
    value, not a prefix of the newer one)."""
    before, after = _parsed(old), _parsed(new)
    if before is None or after is None:
        return False
    covers = len(after.release) < len(before.release) and before.release[:len(after.release)] == after.release
    return not covers and _minor(after) < _minor(before)


def widens_to_major(line: bytes, old: str, new: str) -> bool:
    """LINE writes a caret range at the start of OLD's own major (`"prop-types": "^15.0.0"` where it said
    `^15.7.2`): a range convention (remark's `^N.0.0`), which every resolver still meets with OLD or newer;
    the range widened, no version went back. Not for 0.x, where a caret stops at the minor."""
    floor = _MAJOR_FLOOR.fullmatch(new)
    return floor is not None and floor.group(1) != "0" and old.startswith(floor.group(1) + ".") and \
        b"^" + new.encode() in line


def _later(old: str, new: str) -> bool:
    pseudo_before, pseudo_after = _GO_PSEUDO.match(old), _GO_PSEUDO.match(new)
    if pseudo_after is not None:
        # two commits of a module: only its history orders them (badger's `Bring master Ristretto` set ristretto
        # back to the parent commit, whose pseudo-version reads newer by a skewed clock)
        return False
    if pseudo_before is not None:  # a commit before the release it names (`0.11.1-0.2023...` before `0.11.1`)
        base, after = _parsed(pseudo_before.group(1)), _parsed(new)
        return base is not None and after is not None and base <= after
    if _SNAPSHOT.search(old) or _SNAPSHOT.search(new):  # Maven's order, which PEP 440 cannot read
        maven_before, maven_after = _maven_key(old), _maven_key(new)
        return maven_before is not None and maven_after is not None and maven_before < maven_after
    before, after = _parsed(old), _parsed(new)
    return before is not None and after is not None and before < after


_SNAPSHOT = lazy(r"-snapshot$", re.IGNORECASE)
# a Go pseudo-version, a commit of a module by its time: `0.0.0-20230530153820-e85fd2cbaebc`
_GO_PSEUDO = lazy(r"(\d+\.\d+\.\d+)-(?:[0-9a-z.]*\.)?\d{14}-[0-9a-f]{12}$")
_MAVEN_VERSION = lazy(r"(\d+(?:\.\d+)*)(?:[-.]?([a-z]+)[-.]?(\d*))?", re.IGNORECASE)
# Maven's qualifiers in its own order (ComparableVersion); Jackson's `pr` is a pre-release like `rc`
_MAVEN_STAGES = {"alpha": 1, "a": 1, "beta": 2, "b": 2, "milestone": 3, "m": 3, "rc": 4, "cr": 4, "pr": 4}
_MAVEN_RELEASES = frozenset(("ga", "final", "release"))  # Maven reads these as the release itself (BroadleafCommerce's `5.2.4-GA`)
_SNAPSHOT_STAGE, _RELEASE_STAGE = 8, 9  # `2.11.0-SNAPSHOT` builds toward 2.11.0: after 2.11.0.rc1, before 2.11.0


def _maven_key(version: str) -> tuple[tuple[int, ...], int, int, int] | None:
    """VERSION in Maven's order (`2.11.0.rc1` < `2.11.0-SNAPSHOT` < `2.11.0` < `2.12.0-SNAPSHOT`; a
    qualified snapshot `2.0.0-alpha0-SNAPSHOT` just before `2.0.0-alpha0`); None for a qualifier Maven
    orders by name alone."""
    snapshot = _SNAPSHOT.search(version) is not None
    found = _MAVEN_VERSION.fullmatch(_SNAPSHOT.sub("", version))
    if found is None:
        return None
    numbers = tuple(int(part) for part in found.group(1).split("."))
    release = numbers + (0,) * (4 - len(numbers))  # 1.2 == 1.2.0
    qualifier = (found.group(2) or "").lower()
    if not qualifier or qualifier in _MAVEN_RELEASES and not found.group(3):
        return release, _SNAPSHOT_STAGE if snapshot else _RELEASE_STAGE, 0, 0
    stage = _MAVEN_STAGES.get(qualifier)
    if stage is None:
        return None
    return release, stage, int(found.group(3) or 0), 0 if snapshot else 1


def _minor(version: Version) -> tuple[int, int]:
    numbers = version.release + (0, 0)
    return numbers[0], numbers[1]


def _parsed(version: str) -> Version | None:
    """VERSION as PEP 440 reads it (also `0.11-dev`, `1.0.0-beta.1`); None when it cannot."""
    from packaging.version import InvalidVersion, Version  # only here: the hooks never need it

    try:
        return Version(version)
    except InvalidVersion:
        return None


class Hunk(NamedTuple):
    """One `-U0` hunk: its non-trivial removed and added lines, normalized."""

    removed: tuple[bytes, ...]
    added: tuple[bytes, ...]
    cosmetic: bool  # only whitespace or formatter punctuation changed
    old_start: int = 0  # where it sits in the old file: nearby hunks make one hunk of an ordinary diff
    old_count: int = 0
    new_start: int = 0  # where it sits in the new file: an undo of it sits there in a later file, give or take
    new_count: int = 0
    # lines too short to compare that hold a value (`- 1.4`, `x=1`), squeezed: removed, then added
    short: tuple[tuple[bytes, ...], tuple[bytes, ...]] = ((), ())
    markers: bool = False  # it writes git's conflict markers: a merge committed broken


class FilePatch(NamedTuple):
    """A path's change with its hunks; `text` is False for binary files and submodules, and for a patch
    over MAX_PATCH_LINES (`oversized`)."""

    change: Change
    hunks: tuple[Hunk, ...]
    text: bool
    renamed_from: bytes | None = None  # with rename detection: the path this file came from
    oversized: bool = False

    @property
    def lines(self) -> int:
        return sum(len(h.removed) + len(h.added) for h in self.hunks if not h.cosmetic)


def reading_views(patches: Iterable[FilePatch]) -> Iterator[tuple[FilePatch, bytes]]:
    """Each landing patch with the path whose history it is read against. A rename git paired is read twice:
    its edits against the source path's history (a line undone inside a moved file), and its target as a
    file added, against the target path's own, as a reading that pairs nothing sees it (a stale squash
    renaming a folder back puts the old names' old versions back: rollbacks of the commits that edited them)."""
    for patch in patches:
        yield patch, patch.renamed_from or patch.change.path
        if patch.renamed_from is not None and patch.change.new is not None:
            yield FilePatch(Change(patch.change.path, None, patch.change.new), (), False), patch.change.path


_CONFLICT_MARKER = lazy(rb"(<{7}|={7}|>{7})(\s|$)")


# an XML declaration's `standalone="no"`, the default a serializer may write or leave out (openhab's release
# plugin joining each pom.xml's header with it, spotless splitting it again)
_STANDALONE_DEFAULT = lazy(rb"""\s+standalone\s*=\s*["']no["']""")


def _hunk(removed: list[bytes], added: list[bytes], old_start: int = 0, old_count: int = 0, new_start: int = 0,
          new_count: int = 0) -> Hunk:
    was, now = b"".join(removed), b"".join(added)
    if b"standalone" in was or b"standalone" in now:
        was, now = _STANDALONE_DEFAULT.sub(b"", was), _STANDALONE_DEFAULT.sub(b"", now)
    # one text in two formattings has the same letters and digits in the same order (a `u'...'` prefix aside,
    # which `unpunctuated` drops): one C-level pass each rules most hunks out before it runs
    words_was, words_now = was.translate(None, _NON_ALNUM), now.translate(None, _NON_ALNUM)
    if words_was == words_now or b"u'" in was or b'u"' in was or b"u'" in now or b'u"' in now:
        # (the prefix is the only letter `unpunctuated` drops: other words differing, it cannot make them
        # equal, and a minified bundle's `u'` would cost it a pass over megabytes: frp's dashboard)
        cosmetic = (words_was == words_now or words_was.replace(b"u", b"") == words_now.replace(b"u", b"")) and \
            unpunctuated(was) == unpunctuated(now)
    else:  # a machine's stamps, rewritten line for line; a formatter's sorted class lists
        cosmetic = len(removed) == len(added) > 0 and (_home_only(was, now) or (
            words_was.translate(None, _DIGITS) == words_now.translate(None, _DIGITS) and _line_references_only(was, now))
            or (len(words_was) == len(words_now) and sorted(words_was) == sorted(words_now)  # (sorting is the cost)
                and (_words_reordered_in_strings(removed, added) or _attributes_reordered(removed, added))))
    if not cosmetic and (b"\\u" in was or b"\\u" in now) and _unescaped(was) == _unescaped(now):
        cosmetic = True  # one string, escaped or written out (heroic's `jeu\u202f?` for `jeu ?` with U+202F)
    (gone, short_gone), (new, short_new) = _non_trivial(removed), _non_trivial(added)
    # a conflict's markers written or taken out with nothing else of substance: no work either way (tower's
    # `>>>>>>> master` committed by mistake, cleaned up later)
    cosmetic = cosmetic or (not gone and not new and
                           any(_CONFLICT_MARKER.match(line.lstrip(MARKER_COMMENTED).lstrip()) for line in removed + added))
    gone, new = _punctuation_only(gone, new)
    return Hunk(gone, new, cosmetic, old_start, old_count, new_start, new_count,
                ((), ()) if cosmetic else (short_gone, short_new),
                CONFLICT_MARKERS[0] in now and any(_CONFLICT_MARKER.match(line) for line in added))


_UNICODE_ESCAPE = lazy(rb"\\u([0-9a-fA-F]{4})")  # JSON's and JavaScript's `\u202f`


def _unescaped(text: bytes) -> bytes:
    """TEXT with its `\\uXXXX` escapes written out in UTF-8, as the string they stand for."""
    return _UNICODE_ESCAPE.sub(lambda found: chr(int(found.group(1), 16)).encode("utf-8", "surrogatepass"), text)


def _line_references_only(old: bytes, new: bytes) -> bool:
    """Do a hunk's OLD and NEW text differ only in the line numbers of source references (TypeDoc's `Defined
    in: [types.ts:113](.../types.ts#L113)`, written again at every build as the source moves)? No one's work."""
    if old == new or not _LINE_REFERENCE.search(old):
        return False
    return _LINE_REFERENCE.sub(rb"\1:N", old) == _LINE_REFERENCE.sub(rb"\1:N", new)


_QUOTED = lazy(rb"([\"'`])(.*?)\1")  # a string literal on a line (a class list: `className="flex gap-2"`)


def _words_reordered_in_strings(removed: list[bytes], added: list[bytes]) -> bool:
    """Line for line, the same but for the order of the words inside a string: prettier-plugin-tailwindcss
    sorting a class list (formbricks' `pt-1 pb-4` and `pb-4 pt-1`, flipping as branches format it under
    two configurations). Outside the strings nothing may differ."""
    for was, now in zip(removed, added):
        if was == now:
            continue
        if _QUOTED.sub(b'""', was) != _QUOTED.sub(b'""', now):
            return False
        olds, news = [m[2] for m in _QUOTED.finditer(was)], [m[2] for m in _QUOTED.finditer(now)]
        if len(olds) != len(news) or any(sorted(a.split()) != sorted(b.split()) for a, b in zip(olds, news)):
            return False
    return True


# one markup attribute on a line (`app:cardElevation="4dp"`), the tag's end after it or not
_ATTRIBUTE_LINE = lazy(rb"""\s*([\w:.-]+\s*=\s*(?:"[^"]*"|'[^']*'))\s*(?:/?>)?\s*$""")


def _attributes_reordered(removed: list[bytes], added: list[bytes]) -> bool:
    """A tag's attributes, one a line, the same but written in another order, the `>` that ends the tag
    following the last (Android Studio arranging oppia-android's `app:cardElevation` and `app:cardCornerRadius`,
    and a later layout arranging them back): markup gives their order no meaning."""
    def attributes(lines: list[bytes]) -> list[bytes] | None:
        found = [_ATTRIBUTE_LINE.match(line) for line in lines]
        return sorted(m.group(1) for m in found if m is not None) if all(found) else None
    was = attributes(removed)
    return was is not None and was == attributes(added)


def _home_only(old: bytes, new: bytes) -> bool:
    """Do a hunk's OLD and NEW text differ only in whose home folder their paths run through (jazzy's
    `undocumented.json` rewritten from `/Users/cnoon/Programming/...` to `/Users/jshier/Desktop/...`)? Each
    run writes its own machine's: no one's work. (A home path written over a portable one is a change: the
    setup.py accident.)"""
    if b"/Users/" not in old and b"/home/" not in old and b"\\Users\\" not in old:
        return False
    return unpunctuated(_HOME_PATH.sub(_in_project, old)) == unpunctuated(_HOME_PATH.sub(_in_project, new))


def _in_project(path: re.Match[bytes]) -> bytes:
    """A home path's last two parts (`Source/AFError.swift`): where the checkout lies varies by machine."""
    return b"~/" + b"/".join(_SEPARATORS.split(path.group())[-2:])


def _punctuation_only(removed: tuple[bytes, ...], added: tuple[bytes, ...]) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """Drop line pairs that differ only by a trailing comma or semicolon (`x: 1` -> `x: 1,` to add an item
    after it): the content is the same, and a later undo of the item need not restore the comma."""
    if not removed or not added:
        return removed, added
    bare = {line.rstrip(b",;") for line in removed} & {line.rstrip(b",;") for line in added}
    if not bare:
        return removed, added
    pairs = {line.rstrip(b",;") for line in removed if line.rstrip(b",;") in bare and line not in added}
    pairs &= {line.rstrip(b",;") for line in added if line.rstrip(b",;") in bare and line not in removed}
    if not pairs:
        return removed, added
    return (tuple(x for x in removed if x.rstrip(b",;") not in pairs or x in added),
            tuple(x for x in added if x.rstrip(b",;") not in pairs or x in removed))


# prose files: the order of their lines (a list of names, of links) is presentation, where code's is meaning
_PROSE_SUFFIXES = (b".md", b".markdown", b".rst", b".txt", b".adoc")
_PROSE_NAMES = frozenset((b"readme", b"authors", b"contributors", b"maintainers"))


def prose(path: bytes) -> bool:
    """Whether PATH is documentation (`README.md`, `docs/usage.rst`, `AUTHORS`) rather than code or data."""
    name = path.rpartition(b"/")[2].lower()
    return name.endswith(_PROSE_SUFFIXES) or name in _PROSE_NAMES


# declaration modifiers whose order is style (PSR-12's `public static`, Java's `static final`), squeezed
_MODIFIER = lazy(rb"(?:public|protected|private|static|final|abstract|readonly|override|virtual|internal|sealed)")


def modifiers_reordered(hunk: Hunk) -> bool:
    """Whether HUNK only re-orders the modifiers its lines open with (phpBB's `static public function` made
    `public static function` in 388 files, by its coding guidelines and back): the same declarations."""
    return bool(hunk.removed) and len(hunk.removed) == len(hunk.added) and hunk.removed != hunk.added and \
        all(_modifiers(old) == _modifiers(new) for old, new in zip(hunk.removed, hunk.added))


def _modifiers(line: bytes) -> tuple[tuple[bytes, ...], bytes]:
    """A squeezed line's leading modifiers, sorted, and the rest of it."""
    found = []
    while (match := _MODIFIER.match(line)) is not None:
        found.append(match.group(0))
        line = line[match.end():]
    return tuple(sorted(found)), line


def reordered_only(patch: FilePatch) -> bool:
    """Whether PATCH only moves lines: every line it takes out it writes again elsewhere in the file."""
    return _reordered(patch.hunks)


def _reordered(hunks: Sequence[Hunk]) -> bool:
    removed = Counter(line for hunk in hunks for line in hunk.removed)
    return bool(removed) and removed == Counter(line for hunk in hunks for line in hunk.added)


def _imports_sorted(hunks: tuple[Hunk, ...], language: str = "") -> tuple[Hunk, ...]:
    """A file's hunks that only reorder its import lines (rustfmt's, isort's, goimports' grouping), or the names
    inside an import's braces (`use a::{B, c};` as `use a::{c, B};`), are cosmetic, as a formatter's punctuation
    is: the same imports, every one of them written again (zoxide's nightly formatter regrouping the `use` lines
    another commit had sorted its own way; goimports moving a spec into its own group in an import block).
    LANGUAGE is the file's import grammar (`import_language`)."""
    live = [h for h in hunks if not h.cosmetic]  # (beside re-wrapped lines: `cargo fmt` does both at once)
    if not live or sum(len(h.removed) for h in live) != sum(len(h.added) for h in live):
        return hunks
    first = next((line for h in live for line in h.removed), None)
    if first is None or not (_IMPORT.fullmatch(first) or language == "go" and _GO_SPEC_SQUEEZED.fullmatch(first)):
        return hunks  # most files: not even the first line is an import
    removed = Counter(_import_key(line) for h in live for line in h.removed)
    if removed != Counter(_import_key(line) for h in live for line in h.added) or \
            not imports_only((line for h in live for line in h.removed), language):
        return hunks
    return tuple(h._replace(cosmetic=True, short=((), ())) for h in hunks)


_BRACED = lazy(rb"([^{}]*\{)([^{}]*)(\}[^{}]*)")  # an import naming what it brings in braces, squeezed


def _import_key(line: bytes) -> bytes:
    """An import line with the names inside its braces in one order: the imports it makes, whatever order it
    lists them in."""
    found = _BRACED.fullmatch(line)
    if found is None:
        return line
    return found.group(1) + b",".join(sorted(name for name in found.group(2).split(b",") if name)) + found.group(3)


def squeeze(line: bytes) -> bytes:
    """LINE as the patches hold it: whitespace squeezed out."""
    return line.translate(None, _SPACE)


def compared_lines(text: bytes) -> tuple[bytes, ...]:
    """A file's lines as the patches compare them: squeezed, the trivial and short ones left out."""
    return _non_trivial(text.split(b"\n"))[0]


def compared_letters(text: bytes) -> Counter[bytes]:
    """A file's compared lines by their letters and digits alone (what whitespace, quotes and commas
    leave), counted: two versions of a file alike but for formatting have the same."""
    return Counter(found for line in compared_lines(text) if (found := line.translate(None, _NON_ALNUM)))


def _non_trivial(lines: list[bytes]) -> tuple[tuple[bytes, ...], tuple[bytes, ...]]:
    """LINES worth comparing, squeezed; and those left out as short that still hold letters or digits (a
    version `- 1.4`, `x=1`): too common to match a hunk by, but part of what a file equal to an older one has."""
    found = []
    short = []
    for line in lines:
        squeezed = squeeze(line)
        if squeezed in TRIVIAL or squeezed.lstrip(MARKER_COMMENTED).startswith(CONFLICT_MARKERS) or squeezed.startswith(IDE_STAMPS):
            continue
        if len(squeezed.translate(None, _NON_ALNUM)) >= MIN_ALNUM:
            found.append(squeezed)
        elif squeezed.translate(None, _NON_ALNUM):
            short.append(squeezed)
    return tuple(found), tuple(short)


class _Cursor:
    """A position in git's output, read from a pipe as needed; fields end at NUL, lines at a newline."""

    __slots__ = ("data", "pos", "_more")

    def __init__(self, data: bytes, more: Iterator[bytes] = iter(())) -> None:
        self.data = data
        self.pos = 0
        self._more = more

    def _fill(self) -> bool:
        block = next(self._more, b"")
        if not block:
            return False
        self.data = self.data[self.pos:] + block
        self.pos = 0
        return True

    def at_end(self) -> bool:
        while self.pos >= len(self.data):
            if not self._fill():
                return True
        return False

    def peek(self, prefix: bytes | tuple[bytes, ...]) -> bool:
        longest = max(map(len, prefix)) if isinstance(prefix, tuple) else len(prefix)
        while len(self.data) - self.pos < longest and self._fill():
            pass
        return self.data.startswith(prefix, self.pos)

    def _until(self, delimiter: bytes) -> bytes:
        searched = self.pos
        while True:
            end = self.data.find(delimiter, searched)
            if end >= 0:
                break
            searched = len(self.data) - self.pos
            if not self._fill():
                end = len(self.data)
                break
            searched = max(searched, 0)
        value, self.pos = self.data[self.pos:end], end + 1
        return value

    def hunk_lines(self, old_count: int, new_count: int, keep: bool = True) -> tuple[list[bytes], list[bytes]]:
        """A hunk's removed and added lines, read by their counts with the buffer in locals: this loop
        reads every changed line of every check, thousands for a 200-file change (not KEEP: passed over)."""
        removed: list[bytes] = []
        added: list[bytes] = []
        removed_line, added_line = (removed.append, added.append) if keep else (_discard, _discard)
        data, pos = self.data, self.pos
        while old_count > 0 or new_count > 0:
            end = data.find(b"\n", pos)
            if end < 0:  # the line goes on in the pipe's next block
                self.pos = pos
                if not self._fill():
                    raise GitError("git's patch was cut short: check the repository with git fsck")
                data, pos = self.data, self.pos
                continue
            kind = data[pos] if end > pos else 0  # an int: cheaper than a one-byte slice
            if kind == _MINUS:
                removed_line(data[pos + 1:end])
                old_count -= 1
            elif kind == _PLUS:
                added_line(data[pos + 1:end])
                new_count -= 1
            elif kind != _BACKSLASH:  # not "\ No newline at end of file": a context line counts on both sides
                old_count, new_count = old_count - 1, new_count - 1
            pos = end + 1
        self.pos = pos
        return removed, added

    def field(self) -> bytes:
        return self._until(b"\0")

    def line(self) -> bytes:
        return self._until(b"\n")


def _discard(line: bytes) -> None:
    """A line passed over (an oversized patch's)."""


def parse_changes(data: bytes) -> list[FilePatch]:
    """The output of `diff-tree -r --raw -p -U0 -z OLD NEW` (no commit header)."""
    return _files(_Cursor(data))


def parse_commits(data: bytes, more: Iterator[bytes] = iter(())) -> Iterator[tuple[bytes, list[FilePatch]]]:
    """(header, file patches) per commit of `diff-tree --stdin` / `log` output with a `%x1e...` format.

    DATA and then the blocks of MORE (a pipe being read) are parsed as they come: a whole
    history's patches are never held at once.
    """
    cursor = _Cursor(data, more)
    while not cursor.at_end():
        if not cursor.peek(HEADER):
            raise GitError("unexpected git diff-tree output (no commit header): check git's version (2.38+)")
        header = cursor.field()[1:]
        if cursor.peek(b"\n"):  # git ends the formatted header with a newline before raw records
            cursor.pos += 1
        yield header, _files(cursor)


def _files(cursor: _Cursor) -> list[FilePatch]:
    """Raw records, then (after an empty field) one patch section per record, in the same order."""
    records: list[tuple[Change, bytes | None, bytes]] = []
    if cursor.peek(b"\n:"):
        cursor.pos += 1
    while cursor.peek(b":"):
        meta = cursor.field()
        status = meta.rsplit(b" ", 1)[-1][:1]
        first = cursor.field()
        if status in (b"R", b"C"):  # rename or copy: the raw record names both paths
            second = cursor.field()
            records.append((parse_raw(meta, second), first, status))
        else:
            records.append((parse_raw(meta, first), None, status))
    if records and cursor.peek(b"\0"):
        cursor.pos += 1
    files = []
    for change, source, status in records:
        hunks, text, oversized = _section(cursor, change.path.endswith(CATALOGS), change.path.endswith(PATCH_FILES),
                                          xml_catalog(change.path))
        hunks = _imports_sorted(hunks, import_language(change.path))
        if status == b"T":  # a type change (file <-> symlink) is patched as a deletion and an addition
            _section(cursor)
            hunks, text = (), False
        files.append(FilePatch(change, hunks, text, source, oversized))
    if not records and cursor.peek(b"\0diff --git "):
        cursor.pos += 1
    while cursor.peek(b"diff --git "):  # a re-merge's trailing notes on paths with no diff (no raw record)
        _section(cursor)
    return files


def _section(cursor: _Cursor, catalog: bool = False, patch_file: bool = False,
             xml: bool = False) -> tuple[tuple[Hunk, ...], bool, bool]:
    """One `diff --git` section: extended headers, then hunks read by their line counts; (hunks, text,
    oversized): past MAX_PATCH_LINES changed lines the rest is passed over, and no line of it kept. CATALOG:
    a gettext catalog's, whose tool-written lines are left out (`_catalog_lines`); PATCH_FILE: a committed
    patch's, whose diff headers are left out (`_PATCH_HEADER`); XML: an XML catalog's, read as its text
    says, however a tool escapes it (`_xml_catalog_lines`)."""
    if not cursor.peek(b"diff --git ") and not cursor.peek(b"diff --cc "):
        return (), False, False
    cursor.line()
    text = True
    while cursor.peek(_EXTENDED):
        header = cursor.line()
        if header.startswith(b"remerge ") and not cursor.peek(_EXTENDED + (b"@@ -",)):
            # a re-merge's note on a path with no diff (modify/delete kept as is) has no raw record:
            # the record's own section is the next one
            if not cursor.peek(b"diff --git "):
                return (), False, False
            cursor.line()
        elif header.startswith((b"Binary files", b"GIT binary patch")):
            text = False
    hunks = []
    changed = 0
    while cursor.peek(b"@@ -"):
        header = cursor.line()
        old_start, old_count, new_start, new_count = _header(header)
        changed += old_count + new_count
        if changed > MAX_PATCH_LINES:
            cursor.hunk_lines(old_count, new_count, keep=False)
            if cursor.peek(b"\\ "):
                cursor.line()
            continue
        # (a catalog hunk opening inside an entry's text: git names the keyword line before it, `@@ ... @@ msgid ""`)
        in_source = catalog and _SOURCE_KEYWORD.match(header.rpartition(b"@@")[2].strip()) is not None
        hunks.append(_read_hunk(cursor, old_start, old_count, new_start, new_count, catalog, in_source, patch_file,
                                xml))
    if changed > MAX_PATCH_LINES:
        return (), False, True
    return tuple(hunks), text, False


def _read_hunk(cursor: _Cursor, old_start: int, old_count: int, new_start: int, new_count: int,
               catalog: bool = False, in_source: bool = False, patch_file: bool = False, xml: bool = False) -> Hunk:
    """Lines by their counts (a context line, if any, counts on both sides)."""
    removed, added = cursor.hunk_lines(old_count, new_count)
    if cursor.peek(b"\\ "):
        cursor.line()
    if catalog:
        removed, added = _catalog_lines(removed, in_source), _catalog_lines(added, in_source, obsolete=True)
    if xml:
        removed, added = _xml_catalog_lines(removed), _xml_catalog_lines(added)
    if patch_file:  # (its hunk headers and index lines move whenever the patched source does)
        removed = [line for line in removed if not _PATCH_HEADER.match(line)]
        added = [line for line in added if not _PATCH_HEADER.match(line)]
    return _hunk(removed, added, old_start, old_count, new_start, new_count)


CATALOGS = (b".po", b".pot")  # gettext's translation catalogs
XLIFF = (b".xlf", b".xliff")


def xml_catalog(path: bytes) -> bool:
    """An XML translation catalog: XLIFF, or Qt Linguist's `.ts` in a translation folder (`translations/app_de.ts`;
    elsewhere `.ts` is TypeScript)."""
    return path.endswith(XLIFF) or path.endswith(b".ts") and TRANSLATION_FOLDER.search(path) is not None


# how a tool serializes a unit: a translation platform writes `<segment state="translated">` and escapes markup
# (`&lt;b&gt;`), Symfony's `translation:extract` drops the state and wraps it in CDATA (Part-DB's Crowdin merges
# and extractor runs rewriting each other's catalogs); Qt's lupdate marks a translation `type="unfinished"` and
# writes `&#xa0;` where Weblate writes the no-break space itself (lxqt-panel's `après&#xa0;:`): the same text
_XML_STATE = lazy(rb'\s+(?:state="[^"]*"|type="unfinished")')
_XML_ENTITIES = ((b"<![CDATA[", b""), (b"]]>", b""), (b"&lt;", b"<"), (b"&gt;", b">"), (b"&quot;", b'"'),
                 (b"&apos;", b"'"), (b"&amp;", b"&"))
_CHARACTER_REFERENCE = lazy(rb"&#(x[0-9a-fA-F]{1,6}|[0-9]{1,7});")
# what lupdate writes of the sources (`<location filename="../main.cpp" line="94"/>`, moving with every edit of
# them, as gettext's `#:` references) and a unit with no translation yet (`<translation type="unfinished"></translation>`,
# written for every new or changed source text: no translator's work)
_XML_TOOL_LINE = lazy(rb"\s*(?:<location\s[^>]*/>|<(translation|target)\s*(?:/>|></\1>))\s*")


def _xml_catalog_lines(lines: list[bytes]) -> list[bytes]:
    """An XML catalog's LINES as their text reads: no unit state, no CDATA wrapper, entities and character
    references decoded; without the lines its tools write (`_XML_TOOL_LINE`)."""
    found = []
    for line in lines:
        line = _XML_STATE.sub(b"", line)
        if b"&#" in line:
            line = _CHARACTER_REFERENCE.sub(_character, line)
        for escaped, plain in _XML_ENTITIES:
            line = line.replace(escaped, plain)
        if not _XML_TOOL_LINE.fullmatch(line):
            found.append(line)
    return found


def _character(reference: re.Match[bytes]) -> bytes:
    """A character reference's character in UTF-8 (`&#xa0;`, `&#160;`), the reference itself where it names none."""
    code = reference.group(1)
    number = int(code[1:], 16) if code.startswith(b"x") else int(code)
    if number > 0x10FFFF or 0xD800 <= number <= 0xDFFF:
        return reference.group(0)
    return chr(number).encode("utf-8")


# a translation folder's catalogs (`app/assets/i18n/strings_fr.json`), data files a tool may keep copies of
# entries across: slang's `_missing_translations_fr.json` work lists, filled in and then applied
TRANSLATION_FOLDER = lazy(rb"(?:^|/)(?:i18n|l10n|locales?|lang(?:s|uages?)?|translations?|strings)/", re.IGNORECASE)
TRANSLATION_DATA = (b".json", b".arb", b".yaml", b".yml", b".po", b".properties", b".strings", b".xml", b".xlf",
                    b".xliff", b".resx",
                    b".xaml")  # a WPF app's resource dictionary of one language's strings (Flow.Launcher's `Languages/ja.xaml`)


def translation_catalog(path: bytes) -> bool:
    return path.endswith(TRANSLATION_DATA) and TRANSLATION_FOLDER.search(path) is not None


# an Android app's resources for one language (`res/values-de/strings.xml`, `values-b+sr+Latn/`), which a
# translation platform's export writes whole; not `values-night/`, `values-v21/`, `values-sw600dp/`
ANDROID_LANGUAGE = lazy(rb"(?:^|/)res/values-(?:[a-z]{2,3}(?:-r[A-Z]{2})?|b\+[A-Za-z0-9+]+|x-[^/]+)/[^/]+\.xml$")


# and a Yii application's message folder for one language (humhub's `messages/de/base.php`)
YII_LANGUAGE = lazy(rb"(?:^|/)messages/[a-z]{2,3}(?:[-_][A-Za-z]{2,4})?/[^/]+\.(?:php|json)$")


# and a .NET resource file of one culture, anywhere (`Properties/Resources.de-DE.resx`, `Strings.zh-Hans.resx`)
RESX_CULTURE = lazy(rb"\.[a-z]{2,3}(?:-[A-Z][A-Za-z]{1,3}){0,2}\.resx$")


def translated_resource(path: bytes) -> bool:
    """A file holding one language's texts: a translation catalog, an Android app's or a Yii app's language files,
    a .NET resource file of one culture."""
    return translation_catalog(path) or ANDROID_LANGUAGE.search(path) is not None or \
        YII_LANGUAGE.search(path) is not None or RESX_CULTURE.search(path) is not None


# a committed patch (Paper's `*.patch` regenerated by its patch tool at every upstream update) and the lines its
# tool writes: a hunk's header (`@@ -706,9 +_,26 @@`), the blob ids, the file names and the commit it came from
PATCH_FILES = (b".patch", b".diff")
_PATCH_HEADER = lazy(rb"@@ -[\d_]+(,\d+)? \+[\d_]+(,\d+)? @@|index [0-9a-f]{7,}\.\.[0-9a-f]{7,}|diff --git |"
                     rb"(---|\+\+\+) (a/|b/|/dev/null)|From [0-9a-f]{40} ")
# what gettext's tools write into a catalog at every extraction or merge: source references (`#: src/app.c:42`),
# obsolete entries (`#~`), the header's bookkeeping fields and (`_catalog_lines`) the source texts, msgid and
# msgctxt, copied from the template; a translator's work is the msgstr text and the `#, fuzzy` flags (penpot's
# stale squash putting fuzzy flags back on live entries lost work). Plain comments (`# Translators:`, `# Copyright
# 2007-2026 by ...`) are the header block msginit and a translation platform rewrite at each sync (sabnzbd's
# Transifex pulls setting the copyright year back in every catalog), and so are the notes xgettext extracts from
# the sources (`#. TRANSLATORS: ...`), wrapped at each platform's column (Celestia's Transifex pulls)
_CATALOG_TOOL_LINE = lazy(rb'#[:~|.]|#(\s|$)|"(POT-Creation-Date|PO-Revision-Date|Last-Translator|Language-Team|X-Generator|'
                          rb'Project-Id-Version|Report-Msgid-Bugs-To|Plural-Forms|MIME-Version|Content-Type|'
                          rb'Content-Transfer-Encoding|Language|X-[\w-]+): ')


_CATALOG_FIELD = lazy(rb'"[\w-]+: ')  # a header field's first line; its wrapped rest follows as plain strings


def _catalog_lines(lines: list[bytes], in_source: bool = False, obsolete: bool = False) -> list[bytes]:
    """A gettext catalog's changed LINES without the ones its tools write (`_CATALOG_TOOL_LINE`), a header
    field's wrapped continuation lines included (`"Language-Team: Basque <https://.../penpot/"` `"frontend/eu/>\n"`),
    and the source texts msgmerge copies from the template (a translation platform's older copy of the template
    puts old ones back until the next merge: easyeffects' Weblate merges); each translation as one line: a
    msgstr's text is its strings' concatenation, however a tool wraps it (`msgmerge` and Weblate wrap at
    different columns). IN_SOURCE: LINES open inside a source text, continuing its strings (easyeffects' wrapped
    msgid, set back by Weblate's older template). OBSOLETE: the translations of obsolete entries (`#~ msgstr
    "..."`) count as translations, as lines written: msgmerge keeps a translation there when its source text
    leaves the sources (gala's `Update translation files` after `Open in %s` went), nothing lost."""
    kept: list[bytes] = []
    field = joined = False
    source = in_source
    for line in lines:
        if obsolete and line.startswith(b"#~ "):
            line = line[3:]
        if line.startswith(b"#,"):  # flags: a format's (`c-format`) is xgettext's, `fuzzy` the entry's state
            field = joined = False
            if b"fuzzy" in line:
                kept.append(b"#, fuzzy")
        elif _CATALOG_TOOL_LINE.match(line):
            field, joined = line.startswith(b'"'), False
        elif not (field and line.startswith(b'"') and not _CATALOG_FIELD.match(line)):
            field = False
            entry = _CATALOG_STRING.fullmatch(line.strip())
            if entry is None:
                kept.append(line)
                joined = source = False
                continue
            keyword, text = entry.groups()
            if keyword:  # (the source text, msgid and msgctxt, is the template's: msgmerge writes it)
                source = keyword.startswith(b"msgid") or keyword == b"msgctxt"
            if source:
                joined = False
            elif joined and not keyword:  # a string continuing the text before it
                kept[-1] += text
            else:
                kept.append(keyword + b" " + text)
                joined = True
    # (an empty translation is msgmerge's, written for each new source text: no translator's work yet)
    return [line for line in kept if not _EMPTY_TRANSLATION.fullmatch(line)]


_EMPTY_TRANSLATION = lazy(rb"msgstr(\[\d+\])? ")
_SOURCE_KEYWORD = lazy(rb"(msgid(_plural)?|msgctxt)\b")  # a source text's first line: `msgid ""`, `msgid_plural "..."`


# a line of a catalog entry's text: `msgstr "..."` (or msgid, msgctxt, `msgstr[1]`), or a string continuing it
_CATALOG_STRING = lazy(rb'((?:msg\w+(?:\[\d+\])?)?)\s*"(.*)"')


def _header(header: bytes) -> tuple[int, int, int, int]:
    """Starts and line counts from `@@ -a[,b] +c[,d] @@`; an omitted count is 1."""
    try:
        old, new = header.split(b" ", 3)[1:3]
        return int(old[1:].partition(b",")[0]), _count(old), int(new[1:].partition(b",")[0]), _count(new)
    except (ValueError, IndexError) as exc:
        raise GitError(f"unexpected hunk header in git's patch: {header[:80]!r}") from exc


def _count(part: bytes) -> int:
    _, _, count = part.partition(b",")
    return int(count) if count else 1
