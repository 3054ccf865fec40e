"""EMA results sheets built by code in the layouts real submitters use (:mod:`.builders`), and the
bundled example submissions made with them (:mod:`.submissions`)."""
