"""The kernel has one door (lexiko.kernel) and one table of what it plays (RULE_FIELDS).

Nothing in the package but lexiko/kernel.py imports the extension lexiko._kernel, in
any form (import, from-import, relative, importlib). Every field of Rules is in the
table: passed to the kernel (a change of it changes what the kernel is given), not
needed (a change of it changes nothing the kernel is given) or unsupported (a value
other than its default makes the play-outs and the RL core refuse, with its message).
"""

from __future__ import annotations

import ast
import dataclasses

import pytest
from test_layers import PACKAGE, _module_name, imports

from lexiko import kernel
from lexiko.bots import playout
from lexiko.rules import Rules

EXTENSION = "lexiko._kernel"


def _is_extension(name: str) -> bool:
    return name == EXTENSION or name.startswith(EXTENSION + ".")


def extension_imports(source: str, module: str, is_package: bool = False) -> list[int]:
    """Lines of ``source`` (the text of ``module``) that import the extension: import
    statements anywhere (:func:`test_layers.imports`), and calls of ``import_module`` or
    ``__import__`` with its name."""
    lines = [line for line, name in imports(source, module, is_package) if _is_extension(name)]
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant):
            func = node.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            value = node.args[0].value
            if name in ("import_module", "__import__") and isinstance(value, str) and _is_extension(value):
                lines.append(node.lineno)
    return sorted(set(lines))


@pytest.mark.parametrize(
    "source",
    [
        "import lexiko._kernel",
        "import lexiko._kernel as k",
        "from lexiko._kernel import generate",
        "from lexiko import _kernel",
        "from lexiko import kwg, _kernel",
        "from .. import _kernel",
        "from .._kernel import playout",
        "def f():\n    from lexiko._kernel import rack_leaves",
        "import importlib\nimportlib.import_module('lexiko._kernel')",
        "__import__('lexiko._kernel')",
    ],
)
def test_the_checker_finds_every_form_of_import(source: str) -> None:
    assert extension_imports(source, "lexiko.bots.playout") != []


@pytest.mark.parametrize(
    "source",
    ["from lexiko import kernel", "import lexiko.kernel", "from . import kernel", "from .kernel import generate"],
)
def test_the_checker_lets_the_door_be_imported(source: str) -> None:
    assert extension_imports(source, "lexiko.movegen") == []


@pytest.mark.slow
def test_only_the_door_imports_the_extension() -> None:
    found: dict[str, list[int]] = {}
    for path in sorted(p for p in PACKAGE.rglob("*.py") if "__pycache__" not in p.parts):
        lines = extension_imports(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
        if lines:
            found[str(path.relative_to(PACKAGE))] = lines
    assert list(found) == ["kernel.py"], found  # the door itself is found: the walk sees imports


# -- what the kernel plays ----------------------------------------------------------------

#: a value other than the default of each unsupported field, and what unsupported() says
UNSUPPORTED = {
    "variant": ({"variant": "clabbers"}, "the clabbers variant"),
    "teams": ({"teams": True, "max_players": 4}, "teams"),
    "max_exchanges_per_player": ({"max_exchanges_per_player": 3}, "exchange limits"),
    "exchange_min_same_letter": ({"exchange_min_same_letter": 3}, "exchange limits"),
    "target_score": ({"target_score": 100}, "a target score"),
    "time_minutes": ({"time_minutes": 25}, "clocks"),
    "match_minutes": ({"match_minutes": 30}, "clocks"),
}

#: a value other than the default of each passed field
PASSED = {
    "tiles": {"tiles": "super-english"},
    "layout": {"layout": "lexulous15"},
    "rack_size": {"rack_size": 8},
    "draw_for_first": {"draw_for_first": False},
    "bingo_bonus": {"bingo_bonus": 35},
    "bingo_tiles": {"bingo_tiles": 6},
    "bonus_tiers": {"bonus_tiers": ((8, 75),)},
    "first_play_min_tiles": {"first_play_min_tiles": 1},
    "exchange_min_bag": {"exchange_min_bag": 1},
    "exchange_is_scoreless": {"exchange_is_scoreless": False},
    "scoreless_turn_limit": {"scoreless_turn_limit": 4},
    "scoreless_passes_only": {"scoreless_passes_only": True},
    "end_rack_rule": {"end_rack_rule": "double"},
}

#: a value other than the default of each field the kernel does not need
NOT_NEEDED = {
    "name": {"name": "club"},
    "lexicon": {"lexicon": "SOWPODS"},
    "min_players": {"min_players": 3},
    "max_players": {"max_players": 2},
    "tiebreak": {"tiebreak": "before-adjustment"},
    "challenge_rule": {"challenge_rule": "void"},
    "challenge_penalty_to": {"challenge_penalty_to": "challenger"},
    "challenge_points": {"challenge_points": 10},
    "time_increment": {"time_increment": 5.0},
    "max_overtime": {"max_overtime": 1.0},
    "overtime_penalty": {"overtime_penalty": 5},
    "duplicate_seconds": {"duplicate_seconds": 60.0},
    "duplicate_min_vowels": {"duplicate_min_vowels": 1},
    "duplicate_min_consonants": {"duplicate_min_consonants": 1},
    "duplicate_rule_rounds": {"duplicate_rule_rounds": 5},
    "duplicate_solo_bonus": {"duplicate_solo_bonus": 10},
}


def _uses(use: str) -> list[str]:
    return [f.name for f in kernel.RULE_FIELDS if f.use == use]


def test_every_field_of_rules_is_in_the_table_once_in_its_order() -> None:
    names = [f.name for f in dataclasses.fields(Rules)]
    table = [f.name for f in kernel.RULE_FIELDS]
    assert [n for n in names if n not in table] == []  # a new field of Rules must be placed
    assert table == names
    assert {f.use for f in kernel.RULE_FIELDS} == {"passed", "not needed", "unsupported"}
    assert all(f.note for f in kernel.RULE_FIELDS)


def test_the_samples_cover_each_group_of_the_table() -> None:
    assert sorted(UNSUPPORTED) == sorted(_uses("unsupported"))
    assert sorted(PASSED) == sorted(_uses("passed"))
    assert sorted(NOT_NEEDED) == sorted(_uses("not needed"))


def _given(rules: Rules) -> tuple[kernel.PlayRules, kernel.LayoutData]:
    """What the kernel is given of ``rules``."""
    return kernel.PlayRules.of(rules, rules.tile_set), kernel.LayoutData.of(rules.board_layout)


@pytest.mark.skipif(not kernel.available(), reason="lexiko._kernel is not built")
@pytest.mark.parametrize("name", sorted(UNSUPPORTED))
def test_a_value_of_an_unsupported_field_is_refused_with_its_reason(name: str) -> None:
    changes, why = UNSUPPORTED[name]
    rules = Rules(**changes)
    assert getattr(rules, name) != getattr(Rules(), name)
    assert kernel.unsupported_rules(rules) == why
    assert playout.unsupported(rules, 2) == why
    core = pytest.importorskip("lexiko.rl.core")
    assert core.unsupported(rules.replace(challenge_rule="void"), 2, None) == why


@pytest.mark.skipif(not kernel.available(), reason="lexiko._kernel is not built")
def test_the_variants_are_named_in_the_reason() -> None:
    assert playout.unsupported(Rules(variant="duplicate"), 2) == "the duplicate variant"


@pytest.mark.parametrize("name", sorted(PASSED))
def test_a_passed_field_changes_what_the_kernel_is_given(name: str) -> None:
    rules = Rules(**PASSED[name])
    assert getattr(rules, name) != getattr(Rules(), name)
    assert kernel.unsupported_rules(rules) is None
    assert _given(rules) != _given(Rules())


@pytest.mark.parametrize("name", sorted(NOT_NEEDED))
def test_a_field_not_needed_changes_nothing_the_kernel_is_given(name: str) -> None:
    rules = Rules(**NOT_NEEDED[name])
    assert getattr(rules, name) != getattr(Rules(), name)
    assert kernel.unsupported_rules(rules) is None
    assert _given(rules) == _given(Rules())


def test_passed_fields_beyond_the_kernels_limits_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    big = Rules(layout="super21", tiles="super-english", rack_size=16)
    assert kernel.unsupported_rules(big) == "racks of more than 15 tiles"
    assert kernel.unsupported_rules(big.replace(rack_size=15)) is None
    monkeypatch.setattr(kernel, "MAX_SIZE", 20)
    assert kernel.unsupported_rules(big.replace(rack_size=7)) == "a board larger than the kernel's"


@pytest.mark.skipif(not kernel.available(), reason="lexiko._kernel is not built")
def test_the_callers_keep_their_own_conditions() -> None:
    from lexiko.leaves import LeaveTable

    assert playout.unsupported(Rules(), 9) == "9 players"
    unreadable = LeaveTable(values={(5,) * 11: 1.0})
    assert playout.unsupported(Rules(), 2, [unreadable]) == "a leave table the kernel cannot read"
    core = pytest.importorskip("lexiko.rl.core")
    assert core.unsupported(Rules(), 2, None) == "challenges"
    assert core.unsupported(Rules(challenge_rule="void"), 2, None) is None
