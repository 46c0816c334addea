"""git's `-U0` patches parsed as they stream from a pipe: a line cut across blocks reads the same as
whole output, and output cut short is an error, never fewer hunks."""

from __future__ import annotations

import subprocess
from collections import Counter

import pytest

from conftest import Repo
from leverguard.errors import GitError
from leverguard.revert import hunks
from leverguard.revert.patch import FilePatch, bound_names, import_language, parse_commits

ARGS = ("diff-tree", "--stdin", "-r", "--raw", "-p", "-U0", "--inter-hunk-context=0", "-z", "--no-abbrev",
        "--no-renames", "--format=%x1e%H")


def _history(repo: Repo) -> bytes:
    """Three commits of several hunks each, one file ending without a newline."""
    repo.write("a.py", "".join(f"line_{i} = value({i})\n" for i in range(40)))
    repo.write("b.txt", "first words here\nsecond words here")
    repo.commit("initial")
    repo.write("a.py", "".join(f"line_{i} = value({i * (2 if i % 9 == 0 else 1)})\n" for i in range(40)))
    repo.commit("edit a")
    repo.write("b.txt", "first words here\nsecond words changed\nthird words added\n")
    repo.write("a.py", "".join(f"line_{i} = value({i})\n" for i in range(38)))
    repo.commit("edit both")
    shas = repo.git("rev-list", "HEAD~2..HEAD") + "\n"
    return subprocess.run(["git", *ARGS], cwd=repo.path, input=shas.encode(), capture_output=True, check=True).stdout


def _parsed(data: bytes, block: int) -> list[tuple[bytes, list[FilePatch]]]:
    blocks = iter([data[i:i + block] for i in range(0, len(data), block)])
    return [(header, list(files)) for header, files in parse_commits(b"", blocks)]


def _changed(repo: Repo, path: str, before: str, after: str) -> FilePatch:
    """The parsed patch of one commit changing PATH from BEFORE to AFTER, read as the engine reads it."""
    repo.write(path, before)
    repo.commit("initial")
    repo.write(path, after)
    repo.commit("change")
    data = subprocess.run(["git", *ARGS], cwd=repo.path, input=(repo.head() + "\n").encode(), capture_output=True,
                          check=True).stdout
    ((_, (patch,)),) = _parsed(data, len(data))
    return patch


def test_blocks_of_any_size_parse_as_the_whole_output(repo: Repo) -> None:
    data = _history(repo)
    whole = _parsed(data, len(data))
    assert [len(f.hunks) for _, files in whole for f in files] == [5, 1, 4]  # newest first: a.py (4 values back, 2 lines gone), b.txt; a.py
    for block in (1, 2, 3, 7, 64):
        assert _parsed(data, block) == whole


def test_output_cut_inside_a_hunk_is_an_error(repo: Repo) -> None:
    data = _history(repo)
    cut = data[:data.rindex(b"\n-") + 3]  # inside the last removed line
    with pytest.raises(GitError, match="cut short"):
        _parsed(cut, 5)


@pytest.mark.parametrize(("old", "new", "moved"), [
    (b"fnoctillion()->implParallelIterator<Item=u128>{", b"fnoctillion()->rayon::range::Iter<u128>{", True),
    (b"func(r*Router)Mount(patternstring,hhttp.Handler){", b"func(r*Router)Mount(pstring,hhttp.Handler)error{", True),
    (b"exportfunctiontoPath(urlOrPath){", b"exportconsttoPath=urlOrPath=>{", False),  # no longer a definition
    (b"deferred=start()", b"deferred=start(now)", False),  # an assignment defines nothing
    (b"defclose(self):", b"defshutdown(self):", False),
])
def test_a_definition_written_again_with_a_new_signature_counts_as_moved(old: bytes, new: bytes, moved: bool) -> None:
    body = [old, b"returnself.pool.release(handle)", b"logger.debug(released)", b"metrics.count(release)"]
    assert hunks.moved(body, Counter([new, b"returnself.pool.release(handle)"])) is moved


@pytest.mark.parametrize(("after", "cosmetic"), [
    ("from kit import run\nimport os\nimport sys\n\nrun(os, sys)\n", True),  # the same imports, regrouped
    ("from kit import run\nimport os\nimport json\n\nrun(os, sys)\n", False),  # one of them another
    ("import os\nimport sys\n\nfrom kit import run\n\nsys.exit(run(os, sys))\n", False),  # code changed
    ("import sys\nimport os\n\nfrom kit import run\n\nrun(os, sys)\nsetup()\n", False),  # and a line added
])
def test_a_files_hunks_that_only_regroup_its_imports_are_cosmetic(repo: Repo, after: str, cosmetic: bool) -> None:
    patch = _changed(repo, "main.py", "import os\nimport sys\n\nfrom kit import run\n\nrun(os, sys)\n", after)
    assert all(h.cosmetic for h in patch.hunks) is cosmetic


GO_MAIN = 'package main\n\nimport (\n\t"github.com/acme/kit/codegen"\n\t"github.com/acme/kit/config"\n\t"github.com/vektah/ast"\n)\n\nfunc main() { codegen.Run(config.Load(), ast.New()) }\n'
RS_LIB = "use std::fmt;\nuse percent_encoding::{utf8_percent_encode, CONTROLS};\n\nfn encode(s: &str) -> String { utf8_percent_encode(s, CONTROLS).to_string() }\n"


@pytest.mark.parametrize(("path", "before", "after", "cosmetic"), [
    # goimports moving a spec into a group of its own (gqlgen's `Add go generate`)
    ("main.go", GO_MAIN, GO_MAIN.replace('import (\n\t"github.com/acme', 'import (\n\t"github.com/vektah/ast"\n\n\t"github.com/acme')
     .replace('\t"github.com/vektah/ast"\n)', ")"), True),
    ("main.go", GO_MAIN, GO_MAIN.replace('"github.com/vektah/ast"', '"github.com/vektah/ast/v2"'), False),  # another import
    ("lib.rs", RS_LIB, RS_LIB.replace("{utf8_percent_encode, CONTROLS}", "{CONTROLS, utf8_percent_encode}"), True),  # cargo fmt
    ("lib.rs", RS_LIB, RS_LIB.replace("{utf8_percent_encode, CONTROLS}", "{CONTROLS, utf8_percent_encode}")
     .replace("-> String { ", "-> String {\n    "), True),  # and a line re-wrapped beside it
    ("lib.rs", RS_LIB, RS_LIB.replace("{utf8_percent_encode, CONTROLS}", "{CONTROLS, percent_encode}"), False),  # a name changed
])
def test_imports_regrouped_or_their_braced_names_re_sorted_are_cosmetic(repo: Repo, path: str, before: str, after: str,
                                                                       cosmetic: bool) -> None:
    patch = _changed(repo, path, before, after)
    assert patch.hunks and all(h.cosmetic for h in patch.hunks) is cosmetic


PO = ('msgid ""\nmsgstr ""\n"PO-Revision-Date: 2026-07-24 23:01+0000\\n"\n'
      '"Language-Team: Portuguese <https://hosted.weblate.org/projects/incus/cli/pt/"\n">\\n"\n"Language: pt\\n"\n\n'
      '#: cmd/incus/network.go:1253\nmsgid "Column arguments are either pre-defined shorthand chars (see below),"\n'
      'msgstr ""\n"Os argumentos de coluna são ou caracteres curtos predefinidos (veja "\n"abaixo),"\n')


@pytest.mark.parametrize(("after", "cosmetic"), [
    # msgmerge and Weblate: source references, the header's bookkeeping, the same text wrapped elsewhere (incus)
    (PO.replace("23:01", "17:31").replace('pt/"\n">', 'pt/>"\n"').replace("1253", "1261")
     .replace('(veja "\n"abaixo),"', '(veja abaixo),"'), True),
    (PO.replace("(veja ", "(consulte "), False),  # a translation changed
    (PO.replace("#: cmd/incus/network.go:1253\n", "#: cmd/incus/network.go:1253\n#, fuzzy\n"), False),  # marked fuzzy
    # the source text, as msgmerge copies it from the template (easyeffects' `Updated translation template`)
    (PO.replace("either pre-defined shorthand", "either predefined shorthand"), True),
    (PO.replace('msgstr ""\n"Os', 'msgctxt "columns"\nmsgstr ""\n"Os'), True),  # a context the template gave it
    (PO + '\n#: cmd/incus/main.go:12\nmsgid "Show the version"\nmsgstr ""\n', True),  # a new entry, not translated yet
    (PO + '\n#: cmd/incus/main.go:12\nmsgid "Show the version"\nmsgstr "Mostrar a versão"\n', False),  # translated
])
def test_a_gettext_catalogs_tool_written_lines_are_cosmetic(repo: Repo, after: str, cosmetic: bool) -> None:
    patch = _changed(repo, "po/pt.po", PO, after)
    assert patch.hunks and all(h.cosmetic for h in patch.hunks) is cosmetic


REFERENCE = "Defined in: [types.ts:{0}](https://github.com/o/r/blob/main/src/types.ts#L{0})\n"


@pytest.mark.parametrize(("after", "cosmetic"), [
    (REFERENCE.format(114), True),  # TypeDoc's reference renumbered by a rebuild
    ("Defined in: [other.ts:113](https://github.com/o/r/blob/main/src/other.ts#L113)\n", False),  # another file
    ("host = example.com:9090\n", False),  # a port is no line of a source file
])
def test_source_line_references_renumbered_are_cosmetic(repo: Repo, after: str, cosmetic: bool) -> None:
    before = REFERENCE.format(113) if "Defined" in after else "host = example.com:8080\n"
    patch = _changed(repo, "docs/api.md", "# API\n\n" + before, "# API\n\n" + after)
    assert all(h.cosmetic for h in patch.hunks) is cosmetic


@pytest.mark.parametrize(("line", "language", "names"), [
    (b"import inspect", "python", [b"inspect"]),
    (b"import pre_commit.constants as C", "python", [b"C"]),  # squeezed, `constantsasC`: `as` only seen as written
    (b"import os.path, sys", "python", [b"os", b"sys"]),
    (b"from typing import Any as A, cast", "python", [b"A", b"cast"]),
    (b"from typing import (Any, cast,)", "python", [b"Any", b"cast"]),
    (b'import React, { useState as useS } from "react";', "javascript", [b"React", b"useS"]),
    (b"import * as fs from 'fs'", "javascript", [b"fs"]),
    (b"import java.lang.reflect.Field;", "jvm", [b"Field"]),  # jdbi's, left unused by a refactor
    (b"import static org.junit.Assert.assertEquals;", "jvm", [b"assertEquals"]),
    (b"import io.ktor.server.application.Application", "jvm", [b"Application"]),  # Kotlin: no `;`
    (b"import io.ktor.server.application.Application", "python", [b"io"]),  # the same words, Python's meaning
    (b"import java.util.*;", "jvm", None),
    (b"use tauri_utils::config::BundleTypeRole;", "rust", [b"BundleTypeRole"]),
    (b"use std::sync::{Arc, LazyLock as Lazy};", "rust", [b"Arc", b"Lazy"]),
    (b"use rustc_type_ir::inherent::Region as _;", "rust", None),  # a trait brought in for its methods
    (b"pub use crate::error::Error;", "rust", None),  # a re-export, for other files
    (b"from typing import *", "python", None),  # binds nothing a reader can look up
    (b"import './theme.css';", "javascript", None),  # an import for its side effects
    (b"use Throwable;", "php", [b"Throwable"]),  # filament's, pruned unused in a merge
    (b"use Illuminate\\Support\\Facades\\Event as Events;", "php", [b"Events"]),
    (b"use Illuminate\\Support\\{Arr, Collection};", "php", None),
    (b"using System.Linq;", "", None),  # C#'s: a namespace, whose names are used unqualified
    (b'\t"github.com/opentofu/opentofu/internal/command/format"', "go", [b"format"]),  # opentofu's, in a block
    (b'import "fmt"', "go", [b"fmt"]),
    (b'\tyaml "gopkg.in/yaml.v3"', "go", [b"yaml"]),
    (b'\t"gopkg.in/yaml.v3"', "go", [b"yaml"]),
    (b'\t"github.com/jackc/pgx/v5"', "go", [b"pgx"]),  # a major version's folder is no package name
    (b'\t"github.com/mattn/go-sqlite3"', "go", [b"sqlite3"]),
    (b'\t_ "github.com/lib/pq"', "go", None),  # imported for its side effects
    (b'\t"a string in a slice",', "go", None),  # gofmt ends a composite literal's lines with a comma
])
def test_the_names_an_import_line_binds(line: bytes, language: str, names: list[bytes] | None) -> None:
    assert bound_names(line, language) == names


@pytest.mark.parametrize(("path", "language"), [
    (b"src/a.py", "python"), (b"web/App.TSX", "javascript"), (b"core/Main.kt", "jvm"), (b"lib.rs", "rust"),
    (b"src/FilamentManager.php", "php"), (b"Program.cs", "csharp"), (b"Makefile", ""), (b"v1.2/README", ""),
])
def test_the_import_grammar_of_a_file(path: bytes, language: str) -> None:
    assert import_language(path) == language
