"""``xlrating serve``: the web intake over the results store.

Organisers check a results sheet in the browser and submit it; the ranking officer accepts or
rejects submissions; everyone reads the rankings (HTML and JSON). See :mod:`xlrating.web.app`.
"""
