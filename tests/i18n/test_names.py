"""Names in any script: pinyin-insensitive search and reading-order sorting."""

from __future__ import annotations

import pytest

from league.names import filter_by_name, initials_key, name_matches, search_key, sort_key


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("王芳", "wangfang"),
        ("Wang Fang", "wangfang"),
        ("wang-fang", "wangfang"),
        ("WANGFANG", "wangfang"),
        ("José Núñez", "josenunez"),
        ("Straße", "strasse"),
        ("ＡＢＣ１２", "abc12"),
        ("吕布", "lvbu"),
        ("张三 Zhang", "zhangsanzhang"),
        ("Ирина", "ирина"),
        ("", ""),
    ],
)
def test_search_key(name: str, key: str) -> None:
    assert search_key(name) == key


@pytest.mark.parametrize(
    "query", ["wangfang", "wang fang", "Wang Fang", "WANG-FANG", "王芳", "王", "fang", "wf"]
)
def test_pinyin_insensitive_search_finds_wang_fang(query: str) -> None:
    assert name_matches(query, "王芳", "wang-fang-7")


def test_search_is_accent_and_case_insensitive_and_not_too_eager() -> None:
    assert name_matches("jose nunez", "José Núñez")
    assert name_matches("NÚÑEZ", "José Núñez")
    assert not name_matches("li", "王芳", "wf-1")
    assert not name_matches("wangf ang x", "王芳")
    assert name_matches("", "anyone")  # an empty search finds everyone
    assert initials_key("王芳") == "wf" and initials_key("José Núñez") == "jn"


def test_filter_by_name_keeps_order() -> None:
    people = [("王芳", "wf"), ("李明", "lm"), ("Wang Fang", "wang"), ("José", "jose")]
    found = filter_by_name(people, "wang fang", lambda p: p)
    assert found == [("王芳", "wf"), ("Wang Fang", "wang")]


def test_mixed_scripts_sort_by_reading() -> None:
    names = ["Zoe", "王芳", "Ángel", "bob", "李明", "anna"]
    assert sorted(names, key=sort_key) == ["Ángel", "anna", "bob", "李明", "王芳", "Zoe"]


@pytest.mark.django_db
def test_name_filter_on_a_queryset() -> None:
    from league.models import Player
    from league.names import name_filter

    for name, handle in [("王芳", "wf"), ("李明", "li-ming"), ("José Núñez", "jn"), ("Ann", "ann")]:
        Player.objects.create(display_name=name, handle=handle)
    qs = Player.objects.order_by("handle")

    def found(query: str) -> list[str]:
        return list(
            name_filter(qs, query, "display_name", "handle").values_list("handle", flat=True)
        )

    assert found("wang fang") == ["wf"]
    assert found("WangFang") == ["wf"]
    assert found("nunez") == ["jn"]
    assert found("li") == ["li-ming"]
    assert found("明") == ["li-ming"]
    assert found("") == ["ann", "jn", "li-ming", "wf"]
