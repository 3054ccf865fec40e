"""xlrating's functions in LibreOffice Calc: the UNO component of the xlrating extension.

GENERATED from xlrating/functions.py by `xlrating templates` - do not edit; changes are lost.

Calc calls the methods below (declared in XRatingFunctions.idl) with the cells' values; each passes them
to xlrating.hosts.libreoffice_cells, which calls the function table and returns the cells to show.
The names, descriptions and argument help of the Function Wizard are the table's, as data here, so
the Wizard shows them even when xlrating cannot be imported (every cell is then #VALUE!, with the
reason on LibreOffice's standard error).
"""

import os
import struct
import sys

import unohelper
from com.sun.star.lang import Locale, XServiceInfo, XServiceName
from com.sun.star.sheet import LocalizedName, XAddIn, XCompatibilityNames
from org.xlrating import XRatingFunctions

SERVICE_NAME = 'xlrating'
IMPLEMENTATION_NAME = 'org.xlrating.libreoffice.Functions'
SERVICES = ("com.sun.star.sheet.AddIn", SERVICE_NAME)
CATEGORY = 'xlrating'

# The xlrating this extension carries comes first, so it matches the interface above.
_CARRIED = os.path.join(os.path.dirname(os.path.abspath(globals().get("__file__", ""))), "pythonpath")
if os.path.isdir(_CARRIED) and sys.path[:1] != [_CARRIED]:
    sys.path.insert(0, _CARRIED)

# name -> (description, ((argument, argument help), ...)), in the function table's order
FUNCTIONS = {
    'DIPPOUCH_PERCENTILE': (
        'Percentile of a placement: (N + 0.5 - place) / N * 100.',
        (
            ('players', 'declared number of players N'),
            ('place', 'placement, 1 is best'),
        ),
    ),
    'DIPPOUCH_VALUE': (
        'Tournament value in percent: N/7+2 (one round) or N/3.5+2, capped at 15; WC 20.',
        (
            ('players', 'declared number of players N'),
            ('rounds', 'number of rounds played'),
            ('world_championship', 'TRUE for a World Championship (value 20)'),
            ('year', 'event year; events before 2001 are worth 0'),
        ),
    ),
    'DIPPOUCH_NEW_RATING': (
        'Rating after one event: rating + value/100 * (percentile - rating).',
        (
            ('rating', 'rating before the event (40 for a new player)'),
            ('percentile', 'percentile of the placement'),
            ('value', 'tournament value in percent'),
        ),
    ),
    'DIPPOUCH_RATINGS': (
        'Leaderboard after replaying all events in date order: player, rating, events.',
        (
            ('results', 'results table with header: event, date, players, rounds, player, place [, world_championship]'),
            ('ties', 'tie policy: "best" (default) or "average"'),
        ),
    ),
    'DCI_WIN_PROBABILITY': (
        'Expected score p = 1 / (1 + 10^((opponent - rating) / 400)).',
        (
            ('rating', "the player's rating"),
            ('opponent', "the opponent's rating"),
            ('method', '"formula" (default) or "table" (FIDE Table 8.1(b))'),
        ),
    ),
    'DCI_DELTA': (
        'Rating change K * (W - p); the opponent changes by the negative.',
        (
            ('rating', "the player's rating"),
            ('opponent', "the opponent's rating"),
            ('result', '1 / 0.5 / 0 or "W" / "D" / "L", from the player\'s side'),
            ('k', 'K-value (a number or a tier name); default 16'),
        ),
    ),
    'DCI_K': (
        'K-value of an event tier: 8, 16, 24, 32, 40 or 48.',
        (
            ('event_tier', 'tier name: casual, regular, competitive, professional, grand prix, pro tour'),
        ),
    ),
    'DCI_RATINGS': (
        'Ratings after replaying all matches in order (from 1600): player, rating, matches.',
        (
            ('matches', 'match table with header: date, round, player, opponent, result [, event, k or tier, category]'),
            ('category', 'the category to list when the matches hold several'),
            ('method', '"formula" (default) or "table"'),
        ),
    ),
    'MERS_BASE_RANK': (
        'Base rank of a placement: (N - place) / (N - 1) * 1000.',
        (
            ('players', 'declared number of players N (at least 2)'),
            ('place', 'placement, 1 is best'),
            ('rounding', '"none" (default), "round" or "truncate"'),
        ),
    ),
    'MERS_WEIGHT': (
        '2018-rules tournament weight from days, players, countries and qualification.',
        (
            ('days', 'number of days'),
            ('players', 'number of players'),
            ('countries', 'number of countries'),
            ('qualification', 'TRUE if qualification was required'),
        ),
    ),
    'MERS_RANKING': (
        "One player's MERS total; #N/A when fewer than 2 results count.",
        (
            ('base_ranks', "the player's base ranks"),
            ('weights', 'tournament weights, same size'),
            ('dates', 'tournament dates (last day), same size'),
            ('as_of', 'ranking date; default: the latest result date'),
            ('rules', '"2005", "2010" or "2018"; default: the era in force on as_of'),
        ),
    ),
    'MERS_RANKINGS': (
        'Leaderboard of ranked players, best first: player, total, counted.',
        (
            ('results', 'results table with header: tournament, date, players, weight, player, place [, ruleset, effective_date, base_rank]'),
            ('as_of', 'ranking date; default: the latest result date'),
            ('rules', '"2005", "2010" or "2018"; default: the era in force on as_of'),
            ('ruleset', 'MCR or Riichi, when the results hold both'),
            ('ties', '"best" (default) or "average"'),
        ),
    ),
}


def _failed(name, exc):
    print("xlrating: %s: cannot load xlrating (%s: %s)" % (name, type(exc).__name__, exc), file=sys.stderr)
    # #VALUE! as Calc reads it: a NaN carrying Calc's error number 519
    return ((struct.unpack("<d", struct.pack("<Q", 0x7FF8000000000000 | 519))[0],),)


def _evaluate(name, args):
    try:
        from xlrating.hosts.libreoffice_cells import evaluate
    except Exception as exc:
        return _failed(name, exc)
    return evaluate(name, args)


def _argument(name, index, part):
    arguments = FUNCTIONS.get(name, ("", ()))[1]
    return arguments[index][part] if 0 <= index < len(arguments) else ""

class XlratingFunctions(unohelper.Base, XRatingFunctions, XAddIn, XCompatibilityNames, XServiceName,
                        XServiceInfo):
    """The add-in: one method per function of xlrating's function table."""

    def DIPPOUCH_PERCENTILE(self, players, place):
        return _evaluate('DIPPOUCH_PERCENTILE', (players, place))

    def DIPPOUCH_VALUE(self, players, rounds, world_championship, year):
        return _evaluate('DIPPOUCH_VALUE', (players, rounds, world_championship, year))

    def DIPPOUCH_NEW_RATING(self, rating, percentile, value):
        return _evaluate('DIPPOUCH_NEW_RATING', (rating, percentile, value))

    def DIPPOUCH_RATINGS(self, results, ties):
        return _evaluate('DIPPOUCH_RATINGS', (results, ties))

    def DCI_WIN_PROBABILITY(self, rating, opponent, method):
        return _evaluate('DCI_WIN_PROBABILITY', (rating, opponent, method))

    def DCI_DELTA(self, rating, opponent, result, k):
        return _evaluate('DCI_DELTA', (rating, opponent, result, k))

    def DCI_K(self, event_tier):
        return _evaluate('DCI_K', (event_tier,))

    def DCI_RATINGS(self, matches, category, method):
        return _evaluate('DCI_RATINGS', (matches, category, method))

    def MERS_BASE_RANK(self, players, place, rounding):
        return _evaluate('MERS_BASE_RANK', (players, place, rounding))

    def MERS_WEIGHT(self, days, players, countries, qualification):
        return _evaluate('MERS_WEIGHT', (days, players, countries, qualification))

    def MERS_RANKING(self, base_ranks, weights, dates, as_of, rules):
        return _evaluate('MERS_RANKING', (base_ranks, weights, dates, as_of, rules))

    def MERS_RANKINGS(self, results, as_of, rules, ruleset, ties):
        return _evaluate('MERS_RANKINGS', (results, as_of, rules, ruleset, ties))

    # --- XAddIn: what the Function Wizard shows ---
    def __init__(self, ctx=None):
        self.ctx = ctx
        self.locale = Locale("en", "US", "")

    def getProgrammaticFuntionName(self, display_name):  # sic: the UNO method is spelt so
        return display_name if display_name in FUNCTIONS else ""

    def getDisplayFunctionName(self, name):
        return name

    def getFunctionDescription(self, name):
        return FUNCTIONS.get(name, ("",))[0]

    def getDisplayArgumentName(self, name, index):
        return _argument(name, index, 0)

    def getArgumentDescription(self, name, index):
        return _argument(name, index, 1)

    def getProgrammaticCategoryName(self, name):
        return CATEGORY

    def getDisplayCategoryName(self, name):
        return CATEGORY

    def getLocale(self):
        return self.locale

    def setLocale(self, locale):
        self.locale = locale

    # --- XCompatibilityNames: the name Excel stores (written to .xlsx where Calc maps it) ---
    def getCompatibilityNames(self, name):
        return (LocalizedName(Locale("en", "US", ""), name),) if name in FUNCTIONS else ()

    # --- XServiceName, XServiceInfo ---
    def getServiceName(self):
        return SERVICE_NAME

    def getImplementationName(self):
        return IMPLEMENTATION_NAME

    def supportsService(self, name):
        return name in SERVICES

    def getSupportedServiceNames(self):
        return SERVICES


g_ImplementationHelper = unohelper.ImplementationHelper()
g_ImplementationHelper.addImplementation(XlratingFunctions, IMPLEMENTATION_NAME, SERVICES)
