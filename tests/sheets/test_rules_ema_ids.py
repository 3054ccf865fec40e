"""EMA ID rules: 8 digits as text, leading zeros kept, known prefix matching the country, once
per tournament, empty or "-" only for players from outside the EMA, optional registry."""

from __future__ import annotations

from ema_sheets import codes, only, rows_with, validate

from xlrating.sheets.validate.registry import load_registry


def test_an_id_stored_as_a_number_that_lost_its_leading_zero_is_an_error_with_the_repair(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(0, {"EMA ID": 4060059}))), "EMA_ID_LOST_LEADING_ZERO")
    assert (finding.severity, finding.cell) == ("error", "B14")
    assert "'04060059'" in finding.message


def test_a_seven_digit_text_id_is_also_a_lost_leading_zero(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(0, {"EMA ID": "4060059"}))), "EMA_ID_LOST_LEADING_ZERO")
    assert "'04060059'" in finding.message


def test_an_eight_digit_id_stored_as_a_number_is_a_warning(make_sheet):
    result = validate(make_sheet(rows=rows_with(2, {"EMA ID": 8000123})))
    assert codes(result) == ["EMA_ID_LOST_LEADING_ZERO"]
    result = validate(make_sheet(rows=rows_with(1, {"EMA ID": 10000001, "Country": "ESP"})))
    finding = only(result, "EMA_ID_NOT_TEXT")
    assert finding.severity == "warning" and result.valid
    assert result.submission.players[1].ema_id == "10000001"


def test_an_id_that_is_not_eight_digits_is_an_error(make_sheet):
    for bad in ("0406-0059", "ABC", "040600591", 123):
        finding = only(validate(make_sheet(rows=rows_with(0, {"EMA ID": bad}))), "EMA_ID_FORMAT")
        assert finding.cell == "B14"


def test_a_negative_or_fractional_number_is_no_id_and_is_an_error(make_sheet):
    for bad in (-4858660, -40600590, 4060059.5):
        result = validate(make_sheet(rows=rows_with(0, {"EMA ID": bad})))
        finding = only(result, "EMA_ID_FORMAT")
        assert (finding.severity, finding.cell) == ("error", "B14") and not result.valid
        assert result.submission.players[0].ema_id is None


def test_an_unknown_country_prefix_is_a_warning(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(0, {"EMA ID": "98060059"}))), "EMA_ID_UNKNOWN_PREFIX")
    assert finding.severity == "warning" and "'98'" in finding.message


def test_a_prefix_that_does_not_match_the_players_country_is_a_warning(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(0, {"Country": "BEL"}))), "EMA_ID_COUNTRY_MISMATCH")
    assert "France" in finding.message and "'BEL'" in finding.message


def test_a_country_written_as_a_name_matches_its_prefix(make_sheet):
    assert validate(make_sheet(rows=rows_with(1, {"Country": "Germany"}))).findings == []


def test_the_same_id_twice_is_an_error_naming_the_first_cell(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(3, {"EMA ID": "04060059"}))), "EMA_ID_DUPLICATE")
    assert finding.cell == "B17" and "B14" in finding.message


def test_players_from_outside_the_ema_may_have_an_empty_or_dash_id(make_sheet):
    rows = rows_with(2, {"EMA ID": "-", "Country": "USA"})
    rows[3][1], rows[3][4] = None, "JPN"
    result = validate(make_sheet(rows=rows, block=None))
    assert codes(result) == ["COUNTRIES_MISMATCH"]  # 4 countries now; no ID findings
    assert [p.ema_id for p in result.submission.players][2:] == [None, None]


def test_a_player_from_an_ema_country_without_id_is_an_error(make_sheet):
    finding = only(validate(make_sheet(rows=rows_with(1, {"EMA ID": "-"}))), "EMA_ID_MISSING")
    assert finding.cell == "B15" and "'GER'" in finding.message


def _registry(tmp_path, text):
    path = tmp_path / "players.csv"
    path.write_text(text, encoding="utf-8")
    return load_registry(path)


REGISTRY = ("ema_id,last_name,first_name\n04060059,DUPONT,Jean\n05010001,Muller,Hans\n"
            "08000123,De Vries,Anna\n04060060,Martin,Luc\n")


def test_with_a_registry_a_clean_sheet_still_has_no_findings(make_sheet, tmp_path):
    assert validate(make_sheet(), _registry(tmp_path, REGISTRY)).findings == []


def test_an_id_missing_from_the_registry_is_an_error(make_sheet, tmp_path):
    registry = _registry(tmp_path, REGISTRY.replace("04060060,Martin,Luc\n", ""))
    finding = only(validate(make_sheet(), registry), "PLAYER_UNKNOWN")
    assert finding.cell == "B17"


def test_a_name_that_does_not_match_the_registry_is_a_warning(make_sheet, tmp_path):
    registry = _registry(tmp_path, "ema_id,name\n04060059,Dupond Jean\n05010001,Müller Hans\n"
                                   "08000123,de vries anna\n04060060,Luc Martin\n")
    finding = only(validate(make_sheet(), registry), "PLAYER_NAME_MISMATCH")
    assert finding.cell == "C14" and "'Dupond Jean'" in finding.message


