"""The web app's rule options for the Lexulous-style preset: the bonus tiers follow the
preset in the form, a client may send them as text, and every value is checked."""

from __future__ import annotations

import pytest

from lexiko.rules import LEXULOUS
from lexiko.web.options import (
    OptionError,
    preset_names,
    rule_schema,
    rules_from_json,
    rules_from_request,
    rules_to_json,
)


def test_the_lexulous_preset_is_offered_and_its_tiers_follow_it() -> None:
    assert "lexulous" in preset_names()
    names = {f["name"] for f in rule_schema()}
    assert "bonus_tiers" not in names and {"bingo_bonus", "bingo_tiles", "layout"} <= names
    assert "lexulous15" in next(f for f in rule_schema() if f["name"] == "layout")["choices"]
    r = rules_from_request("lexulous", {}, players=2)
    assert r == LEXULOUS
    assert rules_from_json(rules_to_json(r)) == r  # the database keeps the tiers as pairs


def test_a_client_may_send_bonus_tiers_as_text_or_pairs() -> None:
    r = rules_from_request("lexulous", {"bonus_tiers": "8:60"}, players=2)
    assert (r.bonus(7), r.bonus(8)) == (40, 60)
    r = rules_from_request("casual", {"bonus_tiers": [[8, 75]], "rack_size": 8}, players=2)
    assert (r.bonus(7), r.bonus(8)) == (50, 75)


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"bonus_tiers": "8:fifty"}, "bonus_tiers must be tiles:bonus pairs such as 8:50, not '8:fifty'"),
        ({"bonus_tiers": "20:50"}, "bonus_tiers may give up to 1000 points for up to 15 tiles"),
        ({"bonus_tiers": "8:5000"}, "bonus_tiers may give up to 1000 points for up to 15 tiles"),
        (
            {"bingo_tiles": 8},
            "bonus_tiers must each be for more than bingo_tiles (8) tiles, no two for the same number",
        ),
    ],
)
def test_bad_bonus_tiers_are_refused_with_a_message(options: dict[str, object], message: str) -> None:
    with pytest.raises(OptionError) as e:
        rules_from_request("lexulous", options, players=2)
    assert str(e.value) == message
