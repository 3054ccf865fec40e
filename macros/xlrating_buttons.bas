Attribute VB_Name = "xlrating_buttons"
' Buttons for EMA results workbooks: each macro runs Python through xlwings' RunPython.
' Needs: Python with xlrating installed, the xlwings add-in, and in the VBA editor
' Tools > References > "xlwings" ticked. Import with File > Import File..., then assign a macro
' to a button or shape (right-click > Assign Macro...). Results go to the sheet "xlrating report".
' The store is $XLRATING_DB if set, otherwise xlrating.db in the workbook's folder.
Option Explicit

' Check this workbook as it is on screen (unsaved edits included); one line per problem.
Public Sub XlratingValidate()
    RunPython "import xlrating.hosts.xlwings_macros as m; m.validate_active()"
End Sub

' Save this workbook, validate the saved file and, if it has no errors, store its results.
Public Sub XlratingIngest()
    RunPython "import xlrating.hosts.xlwings_macros as m; m.ingest_active()"
End Sub

' The MERS ranking of every ruleset in the store, as of today (2005 rules; see docs/rating-rules.md).
Public Sub XlratingRanking()
    RunPython "import xlrating.hosts.xlwings_macros as m; m.recalculate_ratings()"
End Sub

' Recompute every formula, xlrating's functions included, in all open workbooks.
Public Sub XlratingRecalculate()
    Application.CalculateFull
End Sub
