"""Placement rules: whole numbers 1..N, competition ranking for ties (1, 2, 2, 4), no other gaps or
repeats, one row per declared player, and positions in the order of the score columns."""

from __future__ import annotations

from ema_sheets import ROWS, block_with, codes, only, validate


def _places(*places):
    rows = [list(r) for r in ROWS]
    for row, place in zip(rows, places):
        row[0] = place
    return rows


def _tied_scores(rows, *indexes):
    for i in indexes:
        rows[i][5], rows[i][6] = rows[indexes[0]][5], rows[indexes[0]][6]
    return rows


def test_ties_in_competition_ranking_are_accepted(make_sheet):
    assert validate(make_sheet(rows=_tied_scores(_places(1, 2, 2, 4), 1, 2))).findings == []
    assert validate(make_sheet(rows=_tied_scores(_places(1, 1, 1, 4), 0, 1, 2))).findings == []


def test_rows_in_any_order_are_fine(make_sheet):
    rows = [list(r) for r in reversed(ROWS)]
    assert validate(make_sheet(rows=rows)).findings == []


def test_a_place_that_is_not_a_whole_number_is_an_error(make_sheet):
    for bad in (2.5, "2=", "T2", None, True):
        result = validate(make_sheet(rows=_places(1, bad, 3, 4)))
        assert only(result, "PLACE_NOT_WHOLE").cell == "A15"


def test_a_place_given_as_text_digits_is_read(make_sheet):
    assert validate(make_sheet(rows=_places("1", "2", "3", "4"))).findings == []


def test_a_place_outside_one_to_n_is_an_error(make_sheet):
    assert only(validate(make_sheet(rows=_places(1, 2, 3, 5))), "PLACE_OUT_OF_RANGE").cell == "A17"
    assert only(validate(make_sheet(rows=_places(0, 1, 2, 3))), "PLACE_OUT_OF_RANGE").cell == "A14"


def test_a_gap_without_a_tie_is_an_error_reported_once(make_sheet):
    block = block_with({"Players": 5})
    rows = [list(r) for r in ROWS] + [[6, "04060061", "Petit", "Zoe", "FRA", 1, -200]]
    rows[3][0] = 5  # 1, 2, 3, 5, 6: only the jump to 5 is wrong
    result = validate(make_sheet(rows=rows, block=block))
    finding = only(result, "PLACE_GAP")
    assert finding.cell == "A17" and "expected 4" in finding.message


def test_a_tie_not_followed_by_a_skipped_place_is_an_error(make_sheet):
    result = validate(make_sheet(rows=_tied_scores(_places(1, 2, 2, 3), 1, 2)))
    finding = only(result, "PLACE_TIE_NOT_SKIPPED")
    assert finding.cell == "A17" and "expects 4" in finding.message


def test_row_count_must_equal_the_declared_players(make_sheet):
    result = validate(make_sheet(block=block_with({"Players": 5})))
    finding = only(result, "ROW_COUNT_MISMATCH")
    assert finding.cell == "B8" and "4 player rows" in finding.message


def test_positions_must_follow_table_points(make_sheet):
    rows = [list(r) for r in ROWS]
    rows[2][5] = 11  # third place with more table points than second
    finding = only(validate(make_sheet(rows=rows)), "PLACE_SCORE_ORDER")
    assert finding.cell == "F16"


def test_equal_table_points_are_ordered_by_score(make_sheet):
    rows = [list(r) for r in ROWS]
    rows[2][5], rows[2][6] = 10, 60  # same table points as second, better score
    assert only(validate(make_sheet(rows=rows)), "PLACE_SCORE_ORDER").cell == "G16"
    rows[2][6] = 40
    assert validate(make_sheet(rows=rows)).findings == []


def test_a_score_that_is_not_a_number_is_an_error(make_sheet):
    rows = [list(r) for r in ROWS]
    rows[1][6] = "fifty"
    assert "SCORE_NOT_NUMBER" in codes(validate(make_sheet(rows=rows)))
