"""Generator of the LibreOffice Calc add-in: every function of the table, as a Calc extension (.oxt).

A Calc add-in is a UNO component offering the service ``com.sun.star.sheet.AddIn``: Calc inspects
its own interface for the functions, asks ``XAddIn`` for the names, descriptions and argument help
shown in the Function Wizard, and calls the methods with the cells' values. The extension holds:

- ``XRatingFunctions.idl``: the add-in's interface, one method per function. LibreOffice reads a
  type library given as UNO IDL text directly (``unoidl::loadProvider`` takes a ``.idl`` file), so
  no SDK compiler is needed and the file stays reviewable text;
- ``xlrating_functions.py``: the Python component: the names and docs of the function table as
  data, each method passing its arguments to :mod:`xlrating.hosts.libreoffice_cells`;
- ``pythonpath/xlrating/``: the numpy-free parts of xlrating the functions need (the function table
  and the rating core), copied from this installation, so the add-in does not depend on where
  xlrating is installed (LibreOffice puts an extension's ``pythonpath`` on ``sys.path``);
- ``description.xml`` and ``META-INF/manifest.xml``.

Argument types follow Calc's rules (``ScUnoAddInCollection``): only ``any`` arguments may be omitted,
so optional arguments are ``any``; required ones are ``sequence<sequence<any>>``, which takes a
single value as well as a range or an inline array (a scalar argument given a range returns one
value per cell). Every function returns ``sequence<sequence<any>>``: a table spills over the cells
of an array formula, a single value is a 1x1 array Calc shows in the cell.

Names. The service name is ``xlrating``, so Calc stores a function as ``XLRATING.MERS_BASE_RANK``
when it cannot map it (ODF files; .xlsx from LibreOffice versions that do not map add-in
compatibility names), a spelling ``xlrating convert`` reads; ``XCompatibilityNames`` gives the plain
name, which LibreOffice versions that map compatibility names write to .xlsx, as Excel stores an
xlwings function.

The text files are committed under ``libreoffice/`` (``xlrating templates`` rewrites them; a test
checks they equal this generator's output); ``xlrating libreoffice build`` zips them with the
carried modules into ``xlrating.oxt``.
"""

from __future__ import annotations

import re
import sys
import zipfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from xlrating import __version__
from xlrating.functions import FUNCTIONS, ExcelFunction

EXTENSION_ID = "org.xlrating.functions"
SERVICE_NAME = "xlrating"  # Calc's stored name of a function: SERVICE_NAME.FUNCTION
IMPLEMENTATION_NAME = "org.xlrating.libreoffice.Functions"
IDL_MODULE = ("org", "xlrating")
INTERFACE = "XRatingFunctions"
CATEGORY = "xlrating"
TYPE_LIBRARY = "XRatingFunctions.idl"
COMPONENT = "xlrating_functions.py"
OXT_NAME = "xlrating.oxt"

REQUIRED_TYPE = "sequence< sequence< any > >"
OPTIONAL_TYPE = "any"
RETURN_TYPE = "sequence< sequence< any > >"

# The parts of the package the add-in carries (relative to the xlrating package folder).
CARRIED = ("__init__.py", "functions.py", "excel_errors.py", "core", "hosts/__init__.py", "hosts/libreoffice_cells.py")
CARRIED_SUFFIXES = (".py", ".csv")

# Words UNO IDL reserves (unoidl's scanner); an argument named like one would not compile.
IDL_KEYWORDS = frozenset((
    "FALSE", "False", "TRUE", "True", "any", "attribute", "boolean", "bound", "byte", "char", "const", "constants",
    "constrained", "double", "enum", "exception", "float", "get", "hyper", "in", "inout", "interface", "long",
    "maybeambiguous", "maybedefault", "maybevoid", "module", "optional", "out", "property", "published", "raises",
    "readonly", "removable", "sequence", "service", "set", "short", "singleton", "string", "struct", "transient",
    "type", "typedef", "unsigned", "void"))

# An identifier unoidl accepts: upper case first (then single underscores allowed) or lower case
# first without underscores; so arguments are camelCase in the IDL (Calc shows getDisplayArgumentName).
IDL_IDENTIFIER = re.compile(r"[A-Z](?:_?[A-Za-z0-9])*|[a-z][A-Za-z0-9]*")

_GENERATED = "GENERATED from xlrating/functions.py by `xlrating templates` - do not edit; changes are lost."


def idl_argument(name: str) -> str:
    """An argument's name in the IDL: ``world_championship`` -> ``worldChampionship``."""
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)


def _check_names(functions: Sequence[ExcelFunction]) -> None:
    for function in functions:
        for name in (function.name, *(idl_argument(a.name) for a in function.arguments)):
            if name in IDL_KEYWORDS or not IDL_IDENTIFIER.fullmatch(name):
                raise ValueError(f"{function.name}: {name!r} cannot be a UNO IDL identifier")


def render_idl(functions: Iterable[ExcelFunction] = FUNCTIONS) -> str:
    """The add-in's interface as UNO IDL: one method per function, in the table's order."""
    functions = tuple(functions)
    _check_names(functions)
    lines = [f"// xlrating's functions for LibreOffice Calc: the add-in's interface. {_GENERATED}", ""]
    lines.append(" ".join(f"module {m} {{" for m in IDL_MODULE))
    lines.append("")
    lines.append(f"interface {INTERFACE} : com::sun::star::uno::XInterface")
    lines.append("{")
    for function in functions:
        params = ",\n        ".join(
            f"[in] {OPTIONAL_TYPE if a.optional else REQUIRED_TYPE} {idl_argument(a.name)}"
            for a in function.arguments)
        lines.append(f"    /** {function.signature}: {_idl_comment(function.doc)} */")
        lines.append(f"    {RETURN_TYPE} {function.name}(\n        {params});")
        lines.append("")
    lines[-1:] = ["};", "", " ".join("};" for _ in IDL_MODULE), ""]
    return "\n".join(lines)


def _idl_comment(text: str) -> str:
    return text.replace("*/", "* /")


def _py(text: str) -> str:
    """A Python string literal (repr keeps it exact and escaped)."""
    return repr(text)


_COMPONENT_HEADER = '''\
"""xlrating's functions in LibreOffice Calc: the UNO component of the xlrating extension.

{generated}

Calc calls the methods below (declared in {type_library}) with the cells' values; each passes them
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
from {idl_module} import {interface}

SERVICE_NAME = {service}
IMPLEMENTATION_NAME = {implementation}
SERVICES = ("com.sun.star.sheet.AddIn", SERVICE_NAME)
CATEGORY = {category}

# The xlrating this extension carries comes first, so it matches the interface above.
_CARRIED = os.path.join(os.path.dirname(os.path.abspath(globals().get("__file__", ""))), "pythonpath")
if os.path.isdir(_CARRIED) and sys.path[:1] != [_CARRIED]:
    sys.path.insert(0, _CARRIED)

'''

_COMPONENT_RUNTIME = '''

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

'''

_COMPONENT_ADDIN = '''
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
'''


def _metadata(functions: Sequence[ExcelFunction]) -> str:
    lines = ["# name -> (description, ((argument, argument help), ...)), in the function table's order",
             "FUNCTIONS = {"]
    for function in functions:
        lines.append(f"    {_py(function.name)}: (")
        lines.append(f"        {_py(function.doc)},")
        lines.append("        (")
        for a in function.arguments:
            lines.append(f"            ({_py(a.name)}, {_py(a.doc)}),")
        lines.append("        ),")
        lines.append("    ),")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _method(function: ExcelFunction) -> str:
    names = [a.name for a in function.arguments]
    args = ", ".join(names) + ("," if len(names) == 1 else "")
    return (f"    def {function.name}(self, {', '.join(names)}):\n"
            f"        return _evaluate({_py(function.name)}, ({args}))\n")


def render_component(functions: Iterable[ExcelFunction] = FUNCTIONS) -> str:
    """The Python UNO component: metadata of every function and one method per function."""
    functions = tuple(functions)
    _check_names(functions)
    header = _COMPONENT_HEADER.format(
        generated=_GENERATED, type_library=TYPE_LIBRARY, idl_module=".".join(IDL_MODULE), interface=INTERFACE,
        service=_py(SERVICE_NAME), implementation=_py(IMPLEMENTATION_NAME), category=_py(CATEGORY))
    declaration = (f"class XlratingFunctions(unohelper.Base, {INTERFACE}, XAddIn, XCompatibilityNames, XServiceName,\n"
                   f"                        XServiceInfo):\n"
                   f'    """The add-in: one method per function of xlrating\'s function table."""\n\n')
    body = [header, _metadata(functions), _COMPONENT_RUNTIME, declaration]
    body.append("\n".join(_method(f) for f in functions))
    body.append(_COMPONENT_ADDIN)
    return "".join(body)


def render_manifest() -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- {_GENERATED} -->
<manifest:manifest xmlns:manifest="http://openoffice.org/2001/manifest">
  <manifest:file-entry manifest:media-type="application/vnd.sun.star.uno-typelibrary;type=RDB"
                       manifest:full-path="{TYPE_LIBRARY}"/>
  <manifest:file-entry manifest:media-type="application/vnd.sun.star.uno-component;type=Python"
                       manifest:full-path="{COMPONENT}"/>
</manifest:manifest>
"""


def render_description(version: str = __version__) -> str:
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<!-- {_GENERATED} -->
<description xmlns="http://openoffice.org/extensions/description/2006"
             xmlns:xlink="http://www.w3.org/1999/xlink">
  <identifier value="{EXTENSION_ID}"/>
  <version value="{version}"/>
  <display-name>
    <name lang="en">xlrating: tournament rating functions (Dip Pouch, DCI, MERS)</name>
  </display-name>
  <platform value="all"/>
</description>
"""


def sources(functions: Iterable[ExcelFunction] = FUNCTIONS) -> dict[str, bytes]:
    """The extension's generated text files (committed under ``libreoffice/``), by path inside it."""
    functions = tuple(functions)
    return {
        "description.xml": render_description().encode("utf-8"),
        "META-INF/manifest.xml": render_manifest().encode("utf-8"),
        TYPE_LIBRARY: render_idl(functions).encode("utf-8"),
        COMPONENT: render_component(functions).encode("utf-8"),
    }


def carried_files(package: Path | None = None) -> dict[str, Path]:
    """The xlrating modules the extension carries: path inside the .oxt -> file of this installation."""
    root = package or Path(__file__).resolve().parents[1]
    files: dict[str, Path] = {}
    for entry in CARRIED:
        path = root / entry
        found = sorted(p for p in path.rglob("*") if p.suffix in CARRIED_SUFFIXES) if path.is_dir() else [path]
        for file in found:
            if "__pycache__" not in file.parts:
                files["pythonpath/xlrating/" + file.relative_to(root).as_posix()] = file
    return files


def build_oxt(target: str | Path) -> Path:
    """Write the extension (generated sources plus the carried modules) to ``target``."""
    path = Path(target)
    path.parent.mkdir(parents=True, exist_ok=True)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as oxt:
        for name, data in sources().items():
            oxt.writestr(name, data)
        for name, file in carried_files().items():
            oxt.write(file, name)
    return path


def write_sources(folder: str | Path) -> list[Path]:
    """Write the generated text files into ``folder`` (the committed ``libreoffice/``)."""
    written = []
    for name, data in sources().items():
        path = Path(folder) / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: Sequence[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else list(argv)
    for path in write_sources(args[0] if args else "libreoffice"):
        print(path)
    return 0


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
