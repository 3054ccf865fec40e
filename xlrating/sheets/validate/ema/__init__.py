"""The EMA results reporting sheet: its layout found (:mod:`.layout`), the tournament block
(:mod:`.tournament`), the player rows (:mod:`.players`) and placements (:mod:`.places`) checked, and
what a valid sheet says (:mod:`.submission`); :func:`.sheet.validate_grids` runs them in one pass."""
