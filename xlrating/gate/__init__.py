"""The gate: every untrusted file passes here before anything reads it.

Safe opening within size limits (:mod:`.safe_open`), the checks of a zip package and its parts
against zip bombs and hostile XML (:mod:`.package_guard`, :mod:`.part_scan`, :mod:`.part_quick`,
:mod:`.part_refusal`), the limits themselves (:mod:`.limits`), what kind of file some bytes are
(:mod:`.file_kinds`), and text that a spreadsheet would run as a formula (:mod:`.csv_safety`).

Used by the submitted sheets' readers (:mod:`xlrating.sheets`) and the formula engine
(:mod:`xlrating.engine`) alike; it imports neither.
"""
