"""Tournament block rules: ruleset, real dates with end >= start, days, players, countries, MERS
weight or its 2018 components, qualification flag."""

from __future__ import annotations

import datetime as dt

from ema_sheets import DROP, block_with, codes, only, validate


def _check(make_sheet, changes):
    return validate(make_sheet(block=block_with(changes)))


def test_riichi_and_ruleset_spellings_are_accepted(make_sheet):
    for spelling, ruleset in (("riichi", "Riichi"), ("Chinese Official", "MCR"), ("RCR", "Riichi")):
        result = _check(make_sheet, {"Ruleset": spelling})
        assert result.findings == [] and result.submission.tournament.ruleset == ruleset


def test_a_ruleset_other_than_mcr_or_riichi_is_an_error(make_sheet):
    assert only(_check(make_sheet, {"Ruleset": "Hong Kong"}), "RULESET_INVALID").cell == "B2"


def test_a_missing_required_field_is_an_error(make_sheet):
    finding = only(_check(make_sheet, {"Ruleset": DROP}), "TOURNAMENT_FIELD_MISSING")
    assert "'Ruleset'" in finding.message


def test_an_empty_required_value_is_reported_at_its_cell(make_sheet):
    assert only(_check(make_sheet, {"Tournament name": None}), "TOURNAMENT_VALUE_EMPTY").cell == "B1"


def test_dates_must_be_real(make_sheet):
    finding = only(_check(make_sheet, {"End date": "2024-02-30"}), "DATE_INVALID")
    assert finding.cell == "B6"
    assert only(_check(make_sheet, {"Start date": "soon"}), "DATE_INVALID").cell == "B5"


def test_european_and_iso_date_texts_are_read(make_sheet):
    result = _check(make_sheet, {"Start date": "02.03.2024", "End date": "2024-03-03"})
    assert result.findings == [] and result.submission.tournament.start_date == dt.date(2024, 3, 2)


def test_end_before_start_is_an_error(make_sheet):
    result = _check(make_sheet, {"End date": dt.date(2024, 3, 1), "Days": 1, "MERS weight": 1})
    assert only(result, "END_BEFORE_START").cell == "B6"


def test_days_must_be_a_whole_number_and_match_the_dates(make_sheet):
    assert only(_check(make_sheet, {"Days": "two"}), "WHOLE_NUMBER_INVALID").cell == "B7"
    result = _check(make_sheet, {"Days": 3, "MERS weight": 3})
    assert codes(result) == ["DAYS_MISMATCH"] and result.valid


def test_players_must_be_a_whole_number_of_at_least_two(make_sheet):
    assert "WHOLE_NUMBER_INVALID" in codes(_check(make_sheet, {"Players": 1}))
    assert "WHOLE_NUMBER_INVALID" in codes(_check(make_sheet, {"Players": 4.5}))


def test_declared_countries_must_match_the_table(make_sheet):
    finding = only(_check(make_sheet, {"Countries": 2}), "COUNTRIES_MISMATCH")
    assert finding.severity == "warning" and "FRA, GER, NED" in finding.message


def test_the_weight_must_be_a_positive_number(make_sheet):
    assert only(_check(make_sheet, {"MERS weight": 0}), "WEIGHT_INVALID").cell == "B10"
    assert only(_check(make_sheet, {"MERS weight": "high"}), "WEIGHT_INVALID").cell == "B10"


def test_the_2018_components_stand_in_for_a_missing_weight(make_sheet):
    result = _check(make_sheet, {"MERS weight": DROP, "Qualification required": "Yes"})
    assert result.findings == []
    assert result.submission.tournament.mers_weight == 3.0  # 2 days + qualification


def test_neither_weight_nor_components_is_an_error(make_sheet):
    assert "WEIGHT_MISSING" in codes(_check(make_sheet, {"MERS weight": DROP, "Countries": DROP}))


def test_a_weight_that_disagrees_with_the_2018_components_is_a_warning(make_sheet):
    finding = only(_check(make_sheet, {"MERS weight": 5}), "WEIGHT_MISMATCH")
    assert finding.severity == "warning"


def test_pre_2018_weights_are_not_compared_with_components(make_sheet):
    old = {"Start date": dt.date(2016, 3, 2), "End date": dt.date(2016, 3, 3), "MERS weight": 5}
    assert _check(make_sheet, old).findings == []


def test_the_qualification_flag_must_be_yes_or_no(make_sheet):
    assert only(_check(make_sheet, {"Qualification required": "maybe"}), "QUALIFICATION_INVALID").cell == "B11"
