"""LibreOffice headless as a peer engine: recalculate a workbook on load and export its values.

Used by the differential tests and the benchmark, never by ``convert``. LibreOffice normally
trusts the cached values of an .xlsx; a private user profile sets Calc's "recalculation on file
load" to *always* (``OOXMLRecalcMode`` = 0 in ``org.openoffice.Office.Calc/Formula/Load``) so
every formula is computed by LibreOffice itself.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PROFILE_SETTINGS = """<?xml version="1.0" encoding="UTF-8"?>
<oor:items xmlns:oor="http://openoffice.org/2001/registry" xmlns:xs="http://www.w3.org/2001/XMLSchema"
 xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="OOXMLRecalcMode" oor:op="fuse">
<value>0</value></prop></item>
<item oor:path="/org.openoffice.Office.Calc/Formula/Load"><prop oor:name="ODFRecalcMode" oor:op="fuse">
<value>0</value></prop></item>
</oor:items>
"""


def soffice() -> str | None:
    return shutil.which("soffice")


def make_profile(folder: Path, recalculate: bool = True) -> Path:
    """A LibreOffice user profile that recalculates every formula on load (or, with
    ``recalculate=False``, never: it then shows the cached values as Excel would)."""
    user = folder / "user"
    user.mkdir(parents=True, exist_ok=True)
    mode = "0" if recalculate else "1"
    settings = PROFILE_SETTINGS.replace("<value>0</value>", f"<value>{mode}</value>")
    (user / "registrymodifications.xcu").write_text(settings, encoding="utf-8")
    return folder


def convert(source: Path, out_dir: Path, profile: Path, fmt: str = "xlsx", timeout: float = 300) -> Path:
    """Open ``source`` in LibreOffice (recalculating) and save it as ``fmt`` in ``out_dir``."""
    executable = soffice()
    if executable is None:
        raise RuntimeError("LibreOffice (soffice) is not installed")
    out_dir.mkdir(parents=True, exist_ok=True)
    command = [executable, f"-env:UserInstallation={profile.resolve().as_uri()}", "--headless", "--norestore",
               "--convert-to", fmt, "--outdir", str(out_dir), str(source)]
    completed = subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False)
    target = out_dir / (source.stem + "." + fmt.split(":")[0])
    if completed.returncode != 0 or not target.exists():
        raise RuntimeError(f"LibreOffice could not convert {source.name}: {completed.stderr.strip()[:300]}")
    return target
