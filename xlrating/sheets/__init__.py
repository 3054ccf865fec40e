"""Submitted workbooks and tables: reading them, validating them, and the workbooks xlrating writes.

- :mod:`.read`: every accepted format (.xlsx/.xlsm, .xls, .ods, .csv) read into one grid of cells,
  through the checks of :mod:`xlrating.gate`;
- :mod:`.validate`: the findings catalogue, the validators of the EMA results sheet (:mod:`.validate.ema`)
  and of the Dip Pouch and DCI tables, reports and annotated copies;
- :mod:`.templates`: the workbook templates and the hosts' generated files;
- :mod:`.examples`: builders of EMA results sheets in the layouts submitters use, for the bundled
  examples and the tests.
"""
