Attribute VB_Name = "xlrating_udfs"
' xlrating's Excel functions for Excel on Windows, through xlwings.
' GENERATED from xlrating/functions.py by `xlrating templates` - do not edit; changes are lost.
'
' Needs: Python with xlrating installed, the xlwings add-in, and in the VBA editor
' Tools > References > "xlwings" ticked (XLPy.CallUDF lives there). Import this file with
' File > Import File... and do NOT also click xlwings' "Import Functions" (same names twice).
' Run RegisterXlratingFunctions once to get descriptions in Insert Function.
Option Explicit

' False: a failed cell holds the real Excel error (#VALUE!, #NUM!, #N/A), so IFERROR/ISNA work.
' True: the cell shows the error code and the reason as text, e.g. "#NUM! place: expected ...".
Public Const ShowErrorReasons As Boolean = False

Private Const UDF_MODULE As String = "xlrating.hosts.xlwings_udfs"

' xlrating's Python functions return a failed cell as its error code plus the reason as text,
' because an xlwings UDF cannot return an Excel error value. Turn it into the real error here.
Private Function XlratingCell(ByVal value As Variant) As Variant
    XlratingCell = value
    If ShowErrorReasons Or VarType(value) <> vbString Then Exit Function
    If value = "#NULL!" Or Left$(value, 7) = "#NULL! " Then XlratingCell = CVErr(2000): Exit Function
    If value = "#DIV/0!" Or Left$(value, 8) = "#DIV/0! " Then XlratingCell = CVErr(2007): Exit Function
    If value = "#VALUE!" Or Left$(value, 8) = "#VALUE! " Then XlratingCell = CVErr(2015): Exit Function
    If value = "#REF!" Or Left$(value, 6) = "#REF! " Then XlratingCell = CVErr(2023): Exit Function
    If value = "#NAME?" Or Left$(value, 7) = "#NAME? " Then XlratingCell = CVErr(2029): Exit Function
    If value = "#NUM!" Or Left$(value, 6) = "#NUM! " Then XlratingCell = CVErr(2036): Exit Function
    If value = "#N/A" Or Left$(value, 5) = "#N/A " Then XlratingCell = CVErr(2042): Exit Function
End Function

Private Function XlratingResult(ByVal result As Variant) As Variant
    Dim i As Long, j As Long
    If Not IsArray(result) Then
        XlratingResult = XlratingCell(result)
        Exit Function
    End If
    For i = LBound(result, 1) To UBound(result, 1)
        For j = LBound(result, 2) To UBound(result, 2)
            result(i, j) = XlratingCell(result(i, j))
        Next j
    Next i
    If LBound(result, 1) = UBound(result, 1) And LBound(result, 2) = UBound(result, 2) Then
        XlratingResult = result(LBound(result, 1), LBound(result, 2))  ' one cell: no array
    Else
        XlratingResult = result
    End If
End Function

Private Function XlratingFailed(ByVal description As String) As Variant
    If ShowErrorReasons Then
        XlratingFailed = "#VALUE! " & Left$(description, 240)
    Else
        XlratingFailed = CVErr(2015)  ' #VALUE!: Python or xlwings could not be reached
    End If
End Function

' Descriptions, argument help and the category shown by Insert Function (Excel 2010 and later).
Public Sub RegisterXlratingFunctions()
    Application.MacroOptions Macro:="DIPPOUCH_PERCENTILE", Description:="Percentile of a placement: (N + 0.5 - place) / N * 100.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "players: declared number of players N", _
        "place: placement, 1 is best")
    Application.MacroOptions Macro:="DIPPOUCH_VALUE", Description:="Tournament value in percent: N/7+2 (one round) or N/3.5+2, capped at 15; WC 20.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "players: declared number of players N", _
        "rounds: number of rounds played", _
        "world_championship: TRUE for a World Championship (value 20)", _
        "year: event year; events before 2001 are worth 0")
    Application.MacroOptions Macro:="DIPPOUCH_NEW_RATING", Description:="Rating after one event: rating + value/100 * (percentile - rating).", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "rating: rating before the event (40 for a new player)", _
        "percentile: percentile of the placement", _
        "value: tournament value in percent")
    Application.MacroOptions Macro:="DIPPOUCH_RATINGS", Description:="Leaderboard after replaying all events in date order: player, rating, events.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "results: results table with header: event, date, players, rounds, player, place [, world_championship]", _
        "ties: tie policy: ""best"" (default) or ""average""")
    Application.MacroOptions Macro:="DCI_WIN_PROBABILITY", Description:="Expected score p = 1 / (1 + 10^((opponent - rating) / 400)).", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "rating: the player's rating", _
        "opponent: the opponent's rating", _
        "method: ""formula"" (default) or ""table"" (FIDE Table 8.1(b))")
    Application.MacroOptions Macro:="DCI_DELTA", Description:="Rating change K * (W - p); the opponent changes by the negative.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "rating: the player's rating", _
        "opponent: the opponent's rating", _
        "result: 1 / 0.5 / 0 or ""W"" / ""D"" / ""L"", from the player's side", _
        "k: K-value (a number or a tier name); default 16")
    Application.MacroOptions Macro:="DCI_K", Description:="K-value of an event tier: 8, 16, 24, 32, 40 or 48.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "event_tier: tier name: casual, regular, competitive, professional, grand prix, pro tour")
    Application.MacroOptions Macro:="DCI_RATINGS", Description:="Ratings after replaying all matches in order (from 1600): player, rating, matches.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "matches: match table with header: date, round, player, opponent, result [, event, k or tier, category]", _
        "category: the category to list when the matches hold several", _
        "method: ""formula"" (default) or ""table""")
    Application.MacroOptions Macro:="MERS_BASE_RANK", Description:="Base rank of a placement: (N - place) / (N - 1) * 1000.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "players: declared number of players N (at least 2)", _
        "place: placement, 1 is best", _
        "rounding: ""none"" (default), ""round"" or ""truncate""")
    Application.MacroOptions Macro:="MERS_WEIGHT", Description:="2018-rules tournament weight from days, players, countries and qualification.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "days: number of days", _
        "players: number of players", _
        "countries: number of countries", _
        "qualification: TRUE if qualification was required")
    Application.MacroOptions Macro:="MERS_RANKING", Description:="One player's MERS total; #N/A when fewer than 2 results count.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "base_ranks: the player's base ranks", _
        "weights: tournament weights, same size", _
        "dates: tournament dates (last day), same size", _
        "as_of: ranking date; default: the latest result date", _
        "rules: ""2005"", ""2010"" or ""2018""; default: the era in force on as_of")
    Application.MacroOptions Macro:="MERS_RANKINGS", Description:="Leaderboard of ranked players, best first: player, total, counted.", Category:="xlrating", _
        ArgumentDescriptions:=Array( _
        "results: results table with header: tournament, date, players, weight, player, place [, ruleset, effective_date, base_rank]", _
        "as_of: ranking date; default: the latest result date", _
        "rules: ""2005"", ""2010"" or ""2018""; default: the era in force on as_of", _
        "ruleset: MCR or Riichi, when the results hold both", _
        "ties: ""best"" (default) or ""average""")
End Sub

' DIPPOUCH_PERCENTILE(players, place) - Dip Pouch
' Percentile of a placement: (N + 0.5 - place) / N * 100.
' players: declared number of players N
' place: placement, 1 is best
Public Function DIPPOUCH_PERCENTILE(players, place)
Attribute DIPPOUCH_PERCENTILE.VB_Description = "Percentile of a placement: (N + 0.5 - place) / N * 100."
    On Error GoTo failed
    DIPPOUCH_PERCENTILE = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DIPPOUCH_PERCENTILE", Array(players, place), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DIPPOUCH_PERCENTILE = XlratingFailed(Err.Description)
End Function

' DIPPOUCH_VALUE(players, rounds, [world_championship], [year]) - Dip Pouch
' Tournament value in percent: N/7+2 (one round) or N/3.5+2, capped at 15; WC 20.
' players: declared number of players N
' rounds: number of rounds played
' world_championship (optional): TRUE for a World Championship (value 20)
' year (optional): event year; events before 2001 are worth 0
Public Function DIPPOUCH_VALUE(players, rounds, Optional world_championship, Optional year)
Attribute DIPPOUCH_VALUE.VB_Description = "Tournament value in percent: N/7+2 (one round) or N/3.5+2, capped at 15; WC 20."
    On Error GoTo failed
    DIPPOUCH_VALUE = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DIPPOUCH_VALUE", Array(players, rounds, world_championship, year), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DIPPOUCH_VALUE = XlratingFailed(Err.Description)
End Function

' DIPPOUCH_NEW_RATING(rating, percentile, value) - Dip Pouch
' Rating after one event: rating + value/100 * (percentile - rating).
' rating: rating before the event (40 for a new player)
' percentile: percentile of the placement
' value: tournament value in percent
Public Function DIPPOUCH_NEW_RATING(rating, percentile, value)
Attribute DIPPOUCH_NEW_RATING.VB_Description = "Rating after one event: rating + value/100 * (percentile - rating)."
    On Error GoTo failed
    DIPPOUCH_NEW_RATING = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DIPPOUCH_NEW_RATING", Array(rating, percentile, value), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DIPPOUCH_NEW_RATING = XlratingFailed(Err.Description)
End Function

' DIPPOUCH_RATINGS(results, [ties]) - Dip Pouch
' Leaderboard after replaying all events in date order: player, rating, events.
' results: results table with header: event, date, players, rounds, player, place [, world_championship]
' ties (optional): tie policy: "best" (default) or "average"
Public Function DIPPOUCH_RATINGS(results, Optional ties)
Attribute DIPPOUCH_RATINGS.VB_Description = "Leaderboard after replaying all events in date order: player, rating, events."
    On Error GoTo failed
    DIPPOUCH_RATINGS = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DIPPOUCH_RATINGS", Array(results, ties), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DIPPOUCH_RATINGS = XlratingFailed(Err.Description)
End Function

' DCI_WIN_PROBABILITY(rating, opponent, [method]) - DCI
' Expected score p = 1 / (1 + 10^((opponent - rating) / 400)).
' rating: the player's rating
' opponent: the opponent's rating
' method (optional): "formula" (default) or "table" (FIDE Table 8.1(b))
Public Function DCI_WIN_PROBABILITY(rating, opponent, Optional method)
Attribute DCI_WIN_PROBABILITY.VB_Description = "Expected score p = 1 / (1 + 10^((opponent - rating) / 400))."
    On Error GoTo failed
    DCI_WIN_PROBABILITY = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DCI_WIN_PROBABILITY", Array(rating, opponent, method), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DCI_WIN_PROBABILITY = XlratingFailed(Err.Description)
End Function

' DCI_DELTA(rating, opponent, result, [k]) - DCI
' Rating change K * (W - p); the opponent changes by the negative.
' rating: the player's rating
' opponent: the opponent's rating
' result: 1 / 0.5 / 0 or "W" / "D" / "L", from the player's side
' k (optional): K-value (a number or a tier name); default 16
Public Function DCI_DELTA(rating, opponent, result, Optional k)
Attribute DCI_DELTA.VB_Description = "Rating change K * (W - p); the opponent changes by the negative."
    On Error GoTo failed
    DCI_DELTA = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DCI_DELTA", Array(rating, opponent, result, k), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DCI_DELTA = XlratingFailed(Err.Description)
End Function

' DCI_K(event_tier) - DCI
' K-value of an event tier: 8, 16, 24, 32, 40 or 48.
' event_tier: tier name: casual, regular, competitive, professional, grand prix, pro tour
Public Function DCI_K(event_tier)
Attribute DCI_K.VB_Description = "K-value of an event tier: 8, 16, 24, 32, 40 or 48."
    On Error GoTo failed
    DCI_K = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DCI_K", Array(event_tier), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DCI_K = XlratingFailed(Err.Description)
End Function

' DCI_RATINGS(matches, [category], [method]) - DCI
' Ratings after replaying all matches in order (from 1600): player, rating, matches.
' matches: match table with header: date, round, player, opponent, result [, event, k or tier, category]
' category (optional): the category to list when the matches hold several
' method (optional): "formula" (default) or "table"
Public Function DCI_RATINGS(matches, Optional category, Optional method)
Attribute DCI_RATINGS.VB_Description = "Ratings after replaying all matches in order (from 1600): player, rating, matches."
    On Error GoTo failed
    DCI_RATINGS = XlratingResult(XLPy.CallUDF(UDF_MODULE, "DCI_RATINGS", Array(matches, category, method), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    DCI_RATINGS = XlratingFailed(Err.Description)
End Function

' MERS_BASE_RANK(players, place, [rounding]) - MERS
' Base rank of a placement: (N - place) / (N - 1) * 1000.
' players: declared number of players N (at least 2)
' place: placement, 1 is best
' rounding (optional): "none" (default), "round" or "truncate"
Public Function MERS_BASE_RANK(players, place, Optional rounding)
Attribute MERS_BASE_RANK.VB_Description = "Base rank of a placement: (N - place) / (N - 1) * 1000."
    On Error GoTo failed
    MERS_BASE_RANK = XlratingResult(XLPy.CallUDF(UDF_MODULE, "MERS_BASE_RANK", Array(players, place, rounding), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    MERS_BASE_RANK = XlratingFailed(Err.Description)
End Function

' MERS_WEIGHT(days, players, countries, [qualification]) - MERS
' 2018-rules tournament weight from days, players, countries and qualification.
' days: number of days
' players: number of players
' countries: number of countries
' qualification (optional): TRUE if qualification was required
Public Function MERS_WEIGHT(days, players, countries, Optional qualification)
Attribute MERS_WEIGHT.VB_Description = "2018-rules tournament weight from days, players, countries and qualification."
    On Error GoTo failed
    MERS_WEIGHT = XlratingResult(XLPy.CallUDF(UDF_MODULE, "MERS_WEIGHT", Array(days, players, countries, qualification), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    MERS_WEIGHT = XlratingFailed(Err.Description)
End Function

' MERS_RANKING(base_ranks, weights, dates, [as_of], [rules]) - MERS
' One player's MERS total; #N/A when fewer than 2 results count.
' base_ranks: the player's base ranks
' weights: tournament weights, same size
' dates: tournament dates (last day), same size
' as_of (optional): ranking date; default: the latest result date
' rules (optional): "2005", "2010" or "2018"; default: the era in force on as_of
Public Function MERS_RANKING(base_ranks, weights, dates, Optional as_of, Optional rules)
Attribute MERS_RANKING.VB_Description = "One player's MERS total; #N/A when fewer than 2 results count."
    On Error GoTo failed
    MERS_RANKING = XlratingResult(XLPy.CallUDF(UDF_MODULE, "MERS_RANKING", Array(base_ranks, weights, dates, as_of, rules), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    MERS_RANKING = XlratingFailed(Err.Description)
End Function

' MERS_RANKINGS(results, [as_of], [rules], [ruleset], [ties]) - MERS
' Leaderboard of ranked players, best first: player, total, counted.
' results: results table with header: tournament, date, players, weight, player, place [, ruleset, effective_date, base_rank]
' as_of (optional): ranking date; default: the latest result date
' rules (optional): "2005", "2010" or "2018"; default: the era in force on as_of
' ruleset (optional): MCR or Riichi, when the results hold both
' ties (optional): "best" (default) or "average"
Public Function MERS_RANKINGS(results, Optional as_of, Optional rules, Optional ruleset, Optional ties)
Attribute MERS_RANKINGS.VB_Description = "Leaderboard of ranked players, best first: player, total, counted."
    On Error GoTo failed
    MERS_RANKINGS = XlratingResult(XLPy.CallUDF(UDF_MODULE, "MERS_RANKINGS", Array(results, as_of, rules, ruleset, ties), ThisWorkbook, Application.Caller))
    Exit Function
failed:
    MERS_RANKINGS = XlratingFailed(Err.Description)
End Function
