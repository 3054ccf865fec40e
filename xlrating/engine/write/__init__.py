"""Fresh cached values back into the package, streamed (:mod:`.writer`, :mod:`.zip_stream`), or the
values alone as CSV or JSON."""
