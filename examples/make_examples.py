"""Regenerate the bundled example EMA result submissions in this folder.

    python examples/make_examples.py

The generator lives in ``xlrating.sheets.examples.submissions`` (the demo uses it too); a test
checks that the committed .xlsx files hold exactly what it writes.
"""

from pathlib import Path

from xlrating.sheets.examples.submissions import write_examples

if __name__ == "__main__":
    for path in write_examples(Path(__file__).parent):
        print(path)
