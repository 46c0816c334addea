"""The directive parser, the Python ast scanner and the geometry evaluator on real and hostile input."""

from __future__ import annotations

import pytest

from leverguard.levers.text import cppexpr, cpp, pyscan
from leverguard.levers.classify import geometry
from leverguard.levers.model.lever import gate_sites


def gates(src: bytes) -> dict[str, list[tuple[int, str, str, bool]]]:
    found = gate_sites(cpp.scan("k.cu", src))
    return {m: [(g.line, g.kind, g.usage, g.has_else) for g in sites] for m, sites in found.items()}


def test_branch_spans_of_if_elif_else() -> None:
    src = b"#if defined(MPK_A) && MPK_B >= 2\na;\n#elif !defined MPK_C\nc;\nc2;\n#else\ne;\n#endif\n"
    (cond,) = cpp.scan("k.cu", src).conditionals
    assert [(b.kind, b.line, b.start, b.end) for b in cond.branches] == [
        ("if", 1, 2, 2), ("elif", 3, 4, 5), ("else", 6, 7, 7)]
    assert cond.endif == 8
    assert gates(src) == {"MPK_A": [(1, "if", "defined", True)], "MPK_B": [(1, "if", "value", True)],
                          "MPK_C": [(3, "elif", "defined", True)]}


def test_on_and_off_bodies_follow_negation() -> None:
    src = b"#ifndef MPK_X\nlegacy();\n#else\nfast();\n#endif\n"
    (site,) = gate_sites(cpp.scan("k.cu", src))["MPK_X"]
    assert site.on == (4, 4) and site.off == (2, 2)


def test_line_continuation_and_comments_in_directives() -> None:
    src = b"#if defined(MPK_A) && \\\n    defined(MPK_B) /* MPK_IN_COMMENT */ // MPK_TOO\nx;\n#endif\n"
    assert set(gates(src)) == {"MPK_A", "MPK_B"}


def test_macros_in_comments_and_strings_are_not_gates() -> None:
    src = (b'// #if MPK_LINE_COMMENT\n/* #ifdef MPK_BLOCK\n#endif */\n'
           b'const char* s = "#if MPK_STRING";\nchar c = \'#\';\n#ifdef MPK_REAL\n#endif\n')
    assert set(gates(src)) == {"MPK_REAL"}


def test_if_zero_blocks_hold_no_gates() -> None:
    src = b"#if 0\n#ifdef MPK_DEAD\n#endif\n#error don't parse me\n#elif MPK_LIVE\n#endif\n#if 1\n#elif MPK_NEVER\n#endif\n"
    found = cpp.scan("k.cu", src)
    assert set(gates(src)) == {"MPK_LIVE"}
    assert found.warnings == ()


def test_crlf_line_ends_keep_line_numbers() -> None:
    src = b"int a;\r\n#ifdef MPK_CRLF\r\nx;\r\n#else\r\ny;\r\n#endif\r\n"
    assert gates(src) == {"MPK_CRLF": [(2, "ifdef", "defined", True)]}


def test_unbalanced_and_unterminated_conditionals_warn() -> None:
    found = cpp.scan("k.cu", b"#endif\n#ifdef MPK_OPEN\nx;\n")
    assert any("k.cu:1: #endif without #if" in w for w in found.warnings)
    assert any("k.cu:2: #if without #endif" in w for w in found.warnings)
    assert "MPK_OPEN" in gate_sites(found)


def test_non_utf8_bytes_warn_and_still_parse() -> None:
    found = cpp.scan("k.cu", b"// caf\xe9\n#ifdef MPK_LATIN\n#endif\n")
    assert any("not UTF-8" in w for w in found.warnings)
    assert "MPK_LATIN" in gate_sites(found)


def test_malformed_expression_warns_and_reads_tokens() -> None:
    found = cpp.scan("k.cu", b"#if (MPK_BROKEN &&\n#endif\n")
    assert any("cannot parse #if" in w for w in found.warnings)
    assert "MPK_BROKEN" in gate_sites(found)


@pytest.mark.parametrize("text, known, value", [
    ("defined(A) && B >= 2", {"A": 1, "B": 3}, 1),
    ("defined(A) && B >= 2", {"A": None}, 0),
    ("!defined A || X", {"A": None}, 1),
    ("X || Y", {}, None),
    ("0x10 == 16 && 1'000 == 1000", {}, 1),
    ("A ? 2 : 3", {"A": None}, 3),
    ("1 / 0", {}, None),
])
def test_expression_evaluation(text: str, known: dict[str, int | None], value: int | None) -> None:
    assert cppexpr.evaluate(cppexpr.parse(text), known) == value


def test_expression_errors() -> None:
    for bad in ("(A", "defined(", "A $ B", "A B"):
        with pytest.raises(cppexpr.ExprError):
            cppexpr.parse(bad)


PY = b'''import os
from os import environ
flags = ["-O3", "-DMPK_ALWAYS=1"]
if os.environ.get("MPK_FUSED", "0") == "1":
    flags.append("-DMPK_FUSED")
use_rope = os.getenv("MPK_ROPE_ENV")
if use_rope:
    flags += [f"-DMPK_ROPE={use_rope}"]
if world_size == 8 and num_workers > 2:
    flags.append("-DMPK_BIG")
else:
    flags.append("-DMPK_SMALL")
router = world_size < 8 and "-DMPK_ROUTER"
seen = "MPK_X" in os.environ
y = environ["MPK_Y"]
doc = "not flags: --DMPK_NO a-DMPK_NO2 MPK_PLAIN"
# "-DMPK_COMMENT" in a comment is not code
'''


def test_python_injections_and_conditions() -> None:
    found = pyscan.scan("b.py", PY)
    got = {i.macro: (i.line, i.condition, i.guard, i.env) for i in found.injections}
    assert got == {
        "MPK_ALWAYS": (3, "unconditional", None, ()),
        "MPK_FUSED": (5, "env", 'os.environ.get("MPK_FUSED", "0") == "1"', ("MPK_FUSED",)),
        "MPK_ROPE": (8, "env", "use_rope", ("MPK_ROPE_ENV",)),
        "MPK_BIG": (10, "guard", "world_size == 8 and num_workers > 2", ()),
        "MPK_SMALL": (12, "guard", "not (world_size == 8 and num_workers > 2)", ()),
        "MPK_ROUTER": (13, "guard", "world_size < 8", ()),
    }
    assert {(r.var, r.how) for r in found.reads} == {
        ("MPK_FUSED", "get"), ("MPK_ROPE_ENV", "getenv"), ("MPK_X", "in"), ("MPK_Y", "subscript")}


def test_python_syntax_error_is_a_warning() -> None:
    found = pyscan.scan("bad.py", b"def broken(:\n")
    assert found.injections == () and "bad.py:1: cannot parse Python" in found.warnings[0]


@pytest.mark.parametrize("text, value", [
    ("world_size == 8", True), ("world_size < 8", False), ("cfg.world_size >= 8 and num_gpus == 8", True),
    ("world_size == 8 and num_workers > 2", None), ("world_size != 8 and num_workers > 2", False),
    ("not (world_size == 8)", False), ("world_size in (4, 8)", True), ("__import__('os')", None), ("(", None),
])
def test_geometry_guards(text: str, value: bool | None) -> None:
    assert geometry.evaluate(text, {"world_size": 8, "num_gpus": 8}) is value


def test_python_non_utf8_warns_and_still_scans() -> None:
    found = pyscan.scan("latin.py", b"# caf\xe9\nFLAGS = ['-DMPK_LATIN']\n")
    assert [i.macro for i in found.injections] == ["MPK_LATIN"]
    assert found.warnings == ("latin.py: not UTF-8 (byte 5): read as Latin-1",)


def test_pathological_conditions_do_not_crash() -> None:
    deep = b"#if " + b"(" * 3000 + b"MPK_DEEP" + b")" * 3000 + b"\n#endif\n#if 1 << 100000000\n#endif\n"
    found = cpp.scan("k.cu", deep)
    assert any("cannot parse #if" in w for w in found.warnings)
    assert "MPK_DEEP" in gate_sites(found)
    assert cppexpr.evaluate(cppexpr.parse("1 << 100000000"), {}) is None
    deep_py = b"x = " + b"-" * 100000 + b"1\n"
    assert pyscan.scan("deep.py", deep_py).warnings


def test_function_definitions_calls_and_mentions() -> None:
    from leverguard.levers.text import cfuncs, ctext

    text = ctext.clean(
        "static inline int helper(int a) { return a; }\n"
        "__global__ void\nwide_kernel(float* x) { x[0] = helper(1); }\n"
        "void host(float* x) {\n  wide_kernel<<<1, 32>>>(x);  // helper(2) in a comment\n"
        "  int y = 2 * helper(3);\n}\n"
        "void proto(int);\n#define CALL(x) helper(x)\n#if defined(helper)\n#endif\n")
    assert [(f.name, f.line, f.qualifiers) for f in cfuncs.definitions(text)] == [
        ("helper", 1, "static inline"), ("wide_kernel", 3, "__global__")]
    assert cfuncs.calls(text) == [("helper", 3), ("wide_kernel", 5), ("helper", 6), ("helper", 9)]
    assert cfuncs.mentions(text, "helper") == [3, 6, 9]
    assert cfuncs.mentions(text, "proto") == [] and cfuncs.mentions(text, "host") == []
