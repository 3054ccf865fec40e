"""Hosts that present the function table to a spreadsheet: xlwings UDFs, VBA wrappers, the headless engine."""
