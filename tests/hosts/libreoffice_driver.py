"""Run by LibreOffice's Python (not the test's): type a workbook into Calc, recalculate, report.

Reads a JSON job on standard input and writes a JSON report on standard output, in ONE headless
LibreOffice session with the given user profile (where the add-in was installed):

job: {"soffice": PATH, "profile": URL, "xlsx": PATH to save the typed workbook as .xlsx,
      "sheets": [{"name": ..., "cells": {"A1": value | ["date", "YYYY-MM-DD"] | "=FORMULA"},
                  "arrays": {"E1:F3": "=FORMULA"}}],            # formulas with ';' separators
      "functions": [NAME, ...]}                                  # whose Wizard entries to report
report: {"values": {"Sheet!A1": number | text | {"error": "#N/A"}},  # every formula cell
         "descriptions": {NAME: {"description", "category", "arguments": [[name, help, optional]]}}}

or, to open existing workbooks instead (each loaded hidden, recalculated with calculateAll()):
job: {"soffice": PATH, "profile": URL, "open": [{"path": PATH, "cells": ["Sheet!A1", ...], "reenter": bool,
                                                 "conditions": ["Sheet!A1", ...], "save": PATH}]}
report: {"opened": {PATH: {"values": {"Sheet!A1": number | text | {"error": "#N/A"}},   # the cells asked for
                           "reentered": {...},     # with "reenter": after typing every formula in again
                           "conditions": {"Sheet!A1": {"validation": TEXT, "conditional": [TEXT, ...]}}}}}
  "conditions": the formulas of the cells' data validation and conditional formats as Calc read them;
  "save": where to save the recalculated workbook again as .xlsx (Calc's "Calc Office Open XML")
"""

import datetime as dt
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "xlrating", "hosts"))

import libreoffice_session  # stdlib + uno only; found beside the add-in's runtime
from com.sun.star.beans import PropertyValue

# Calc's error numbers (FormulaError) as the Excel error codes Calc shows for them.
ERRORS = {521: "#NULL!", 532: "#DIV/0!", 519: "#VALUE!", 524: "#REF!", 525: "#NAME?", 503: "#NUM!",
          32767: "#N/A"}
FORMULA_RESULT_STRING = 2  # com.sun.star.sheet.FormulaResult
CELL_FORMULA = 16  # com.sun.star.sheet.CellFlags.FORMULA
EPOCH = dt.date(1899, 12, 30)


def cell_value(cell):
    error = cell.getError()
    if error:
        return {"error": ERRORS.get(error, f"Err:{error}")}
    if cell.FormulaResultType2 == FORMULA_RESULT_STRING:
        return cell.getString()
    return cell.getValue()


def type_sheet(sheet, spec, formula_cells):
    for address, value in spec.get("cells", {}).items():
        cell = sheet.getCellRangeByName(address)
        if isinstance(value, list) and value[0] == "date":
            cell.setValue((dt.date.fromisoformat(value[1]) - EPOCH).days)
        elif isinstance(value, bool):
            cell.setValue(1 if value else 0)
        elif isinstance(value, (int, float)):
            cell.setValue(value)
        elif isinstance(value, str) and value.startswith("="):
            cell.setFormula(value)
            formula_cells.append((spec["name"], address, address))
        else:
            cell.setString(value)
    for area, formula in spec.get("arrays", {}).items():
        block = sheet.getCellRangeByName(area)
        block.setArrayFormula(formula)
        addr = block.getRangeAddress()
        for row in range(addr.StartRow, addr.EndRow + 1):
            for col in range(addr.StartColumn, addr.EndColumn + 1):
                name = sheet.getCellByPosition(col, row).AbsoluteName.split(".")[-1].replace("$", "")
                formula_cells.append((spec["name"], name, area))


def descriptions(context, names):
    manager = context.ServiceManager.createInstanceWithContext("com.sun.star.sheet.FunctionDescriptions", context)
    found = {}
    for i in range(manager.getCount()):
        props = {p.Name: p.Value for p in manager.getByIndex(i)}
        if props["Name"] in names:
            found[props["Name"]] = {
                "description": props["Description"], "category": props["Category"],
                "arguments": [[a.Name, a.Description, bool(a.IsOptional)] for a in props["Arguments"]]}
    return found


def read_cells(doc, keys):
    values = {}
    for key in keys:
        sheet_name, address = key.split("!")
        values[key] = cell_value(doc.Sheets.getByName(sheet_name).getCellRangeByName(address))
    return values


def read_conditions(doc, keys):
    """The formulas of each cell's data validation and conditional formats, as Calc holds them."""
    found = {}
    for key in keys:
        sheet_name, address = key.split("!")
        cell = doc.Sheets.getByName(sheet_name).getCellRangeByName(address)
        entries = cell.ConditionalFormat
        found[key] = {"validation": cell.Validation.getFormula1(),
                      "conditional": [entries.getByIndex(i).getFormula1() for i in range(entries.getCount())]}
    return found


def save_xlsx(doc, path):
    prop = PropertyValue()
    prop.Name, prop.Value = "FilterName", "Calc Office Open XML"
    doc.storeToURL(libreoffice_session.uno.systemPathToFileUrl(os.path.abspath(path)), (prop,))


def reenter_formulas(doc):
    """Type every (non-array) formula in again through the API, as a user re-entering each cell would:
    Calc then parses the names afresh (those its file import left unresolved included)."""
    for index in range(doc.Sheets.getCount()):
        found = doc.Sheets.getByIndex(index).queryContentCells(CELL_FORMULA)
        cells = found.getCells().createEnumeration()
        while cells.hasMoreElements():
            cell = cells.nextElement()
            if not cell.getArrayFormula():
                cell.setFormula(cell.getFormula())


def open_workbooks(desktop, files):
    """Load each workbook hidden, recalculate it, and read the cells asked for."""
    opened = {}
    for spec in files:
        url = libreoffice_session.uno.systemPathToFileUrl(os.path.abspath(spec["path"]))
        doc = desktop.loadComponentFromURL(url, "_blank", 0, libreoffice_session.hidden())
        if doc is None:
            raise RuntimeError(f"LibreOffice could not open {spec['path']}")
        try:
            doc.calculateAll()
            opened[spec["path"]] = {"values": read_cells(doc, spec["cells"])}
            if spec.get("conditions"):
                opened[spec["path"]]["conditions"] = read_conditions(doc, spec["conditions"])
            if spec.get("save"):
                save_xlsx(doc, spec["save"])
            if spec.get("reenter"):
                reenter_formulas(doc)
                doc.calculateAll()
                opened[spec["path"]]["reentered"] = read_cells(doc, spec["cells"])
        finally:
            doc.close(True)
    return opened


def main():
    job = json.load(sys.stdin)
    if "open" in job:
        process, context = libreoffice_session.start_office(job["soffice"], job["profile"])
        try:
            desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
            report = {"opened": open_workbooks(desktop, job["open"])}
        finally:
            libreoffice_session.stop_office(process, context)
        json.dump(report, sys.stdout)
        return
    process, context = libreoffice_session.start_office(job["soffice"], job["profile"])
    try:
        desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
        doc = desktop.loadComponentFromURL("private:factory/scalc", "_blank", 0, libreoffice_session.hidden())
        sheets = doc.Sheets
        formula_cells = []
        for index, spec in enumerate(job["sheets"]):
            if index >= sheets.getCount():
                sheets.insertNewByName(spec["name"], index)
            else:
                sheets.getByIndex(index).setName(spec["name"])
            type_sheet(sheets.getByName(spec["name"]), spec, formula_cells)
        doc.calculateAll()
        values = {}
        for sheet_name, address, _area in formula_cells:
            values[f"{sheet_name}!{address}"] = cell_value(sheets.getByName(sheet_name)
                                                                 .getCellRangeByName(address))
        report = {"values": values, "descriptions": descriptions(context, set(job["functions"]))}
        if job.get("xlsx"):
            save_xlsx(doc, job["xlsx"])
        doc.close(True)
    finally:
        libreoffice_session.stop_office(process, context)
    json.dump(report, sys.stdout)


if __name__ == "__main__":
    main()
