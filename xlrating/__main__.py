from xlrating.cli import entry

entry()
