"""Reference data of the engine (Excel function names)."""
