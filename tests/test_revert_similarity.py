"""The written lines' trigram columns find exactly the lines a set-by-set trigram Jaccard finds."""

from __future__ import annotations

import random

from leverguard.revert.hunks import REWORDED_SIMILARITY, _Columns, _trigrams


def _by_sets(query: set[bytes], lines: list[set[bytes]]) -> list[int]:
    return [k for k, other in enumerate(lines)
            if (n := len(query & other)) >= REWORDED_SIMILARITY * (len(query) + len(other) - n)]


def test_columns_agree_with_set_intersections_line_by_line() -> None:
    rng = random.Random(7)
    alphabet = b"abcdef(),; x01"

    def line() -> bytes:
        return bytes(rng.choice(alphabet) for _ in range(rng.randint(8, 70)))

    for _ in range(60):
        lines = [_trigrams((line(),)) for _ in range(rng.randint(1, 150))]
        columns = _Columns(lines)
        for _ in range(15):
            query = rng.choice(lines) if rng.random() < 0.5 else _trigrams((line(),))
            assert list(columns.similar(query)) == _by_sets(query, lines)


def test_similarity_boundary_is_inclusive() -> None:
    # two trigram sets built to share exactly half their trigrams' union, then one fewer
    shared = [b"%03d" % i for i in range(10)]
    exactly_half = [set(shared + [b"a%02d" % i for i in range(5)]), set(shared + [b"b%02d" % i for i in range(5)])]
    assert len(exactly_half[0] & exactly_half[1]) / len(exactly_half[0] | exactly_half[1]) == REWORDED_SIMILARITY
    assert list(_Columns([exactly_half[1]]).similar(exactly_half[0])) == [0]
    under = [set(shared[:9] + [b"a%02d" % i for i in range(6)]), set(shared[:9] + [b"b%02d" % i for i in range(6)])]
    assert len(under[0] & under[1]) / len(under[0] | under[1]) < REWORDED_SIMILARITY
    assert list(_Columns([under[1]]).similar(under[0])) == []
