"""Validation of submitted files: every problem a finding at its cell, all of them in one pass.

The catalogue of findings (:mod:`.findings`), text and JSON reports (:mod:`.report`), the annotated
copy (:mod:`.annotate`); which system a file is for (:mod:`.detect`); the EMA results sheet's
validator (:mod:`.ema`) and the Dip Pouch and DCI tables' (:mod:`.tables`, :mod:`.dippouch`,
:mod:`.dci`, their events :mod:`.events`); the optional player registry (:mod:`.registry`)."""
