"""Finding LibreOffice and its Python bridge; adding and removing the add-in in a user profile.

``unopkg`` (next to ``soffice``) adds the extension to the user's profile, or to the profile given
(``-env:UserInstallation=``, a private one in tests). As root, where ``unopkg`` refuses, the same is
done by :mod:`xlrating.hosts.libreoffice_session` in LibreOffice's own Python. The add-in needs that
Python bridge: Debian/Ubuntu package it as python3-uno; LibreOffice's installers for Windows and
macOS include it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from xlrating.hosts import libreoffice

SESSION_SCRIPT = Path(__file__).with_name("libreoffice_session.py")
TIMEOUT = 300

# Where the installers put LibreOffice when soffice is not on the PATH.
KNOWN_PROGRAMS = (
    Path("/usr/lib/libreoffice/program/soffice"),
    Path("/opt/libreoffice/program/soffice"),
    Path("/Applications/LibreOffice.app/Contents/MacOS/soffice"),
    Path(os.environ.get("PROGRAMFILES", r"C:\Program Files")) / "LibreOffice" / "program" / "soffice.exe",
)


class OfficeMissing(Exception):
    """LibreOffice, or the Python bridge the add-in needs, is not installed (the message says which)."""


class OfficeFailed(Exception):
    """LibreOffice refused to add or remove the extension (the message is LibreOffice's)."""


@dataclass(frozen=True)
class Office:
    """A LibreOffice installation: its programs and, when found, the Python that has its ``uno``."""

    soffice: Path
    unopkg: Path
    python: str | None

    @property
    def program_dir(self) -> Path:
        return self.soffice.parent


def _executable(folder: Path, name: str) -> Path | None:
    for candidate in (folder / name, folder / f"{name}.exe", folder / f"{name}.bin"):
        if candidate.is_file():
            return candidate
    return None


def find_soffice(soffice: str | None = None) -> Path:
    """The ``soffice`` program (symbolic links resolved): the one given, on the PATH, or installed."""
    if soffice:
        found = shutil.which(soffice)
        if found is None:
            raise OfficeMissing(f"{soffice}: no such program")
        return Path(found).resolve()
    for name in ("soffice", "libreoffice"):
        found = shutil.which(name)
        if found:
            return Path(found).resolve()
    for candidate in KNOWN_PROGRAMS:
        if candidate.is_file():
            return candidate
    raise OfficeMissing("LibreOffice is not installed (no soffice on the PATH); install it from "
                        "https://www.libreoffice.org or your package manager (Debian/Ubuntu: libreoffice-calc)")


def has_python_bridge(program_dir: Path) -> bool:
    """Whether LibreOffice can run Python components: its Python loader is installed."""
    return any((folder / "pythonloader.py").is_file() for folder in (program_dir, program_dir.parent / "Resources"))


def _imports(python: str, module: str) -> bool:
    try:
        completed = subprocess.run([python, "-c", f"import {module}"], capture_output=True, timeout=60, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return completed.returncode == 0


def office_python(program_dir: Path) -> str | None:
    """The Python LibreOffice runs (the one whose ``import uno`` works): bundled on Windows and
    macOS, the system ``python3`` on Linux distributions."""
    candidates = [program_dir / "python", program_dir / "python.exe", program_dir.parent / "Resources" / "python"]
    found = [str(c) for c in candidates if c.is_file()]
    found += [p for p in ("/usr/bin/python3", shutil.which("python3"), sys.executable) if p and Path(p).is_file()]
    seen: set[str] = set()
    for python in found:
        if python not in seen and _imports(python, "uno"):
            return python
        seen.add(python)
    return None


def find_office(soffice: str | None = None) -> Office:
    """LibreOffice with its Python bridge, or :class:`OfficeMissing` saying what to install."""
    program = find_soffice(soffice)
    unopkg = _executable(program.parent, "unopkg")
    if unopkg is None:
        raise OfficeMissing(f"LibreOffice's unopkg is not next to {program}")
    if not has_python_bridge(program.parent):
        raise OfficeMissing("LibreOffice's Python bridge is not installed (no pythonloader.py in "
                            f"{program.parent}); on Debian/Ubuntu: apt-get install python3-uno")
    return Office(program, unopkg, office_python(program.parent))


def profile_url(profile: Path | None) -> str | None:
    """The ``UserInstallation`` URL of a profile folder (None: the user's own profile)."""
    return profile.resolve().as_uri() if profile is not None else None


def _is_root() -> bool:
    return hasattr(os, "geteuid") and os.geteuid() == 0


def office_environment(office: Office) -> dict[str, str]:
    """The environment LibreOffice runs in: this one, with the folder of LibreOffice's own Python
    first on the PATH and no ``PYTHONHOME``.

    LibreOffice's embedded Python (which loads the add-in) finds its standard library from the
    first ``python3`` on the PATH. Run from an activated virtualenv, or under another Python that
    comes first, that is another Python's library (3.11.7's for LibreOffice's 3.11.2, say), and
    LibreOffice fails as it starts the add-in ("C++ code threw St9bad_alloc"). ``PYTHONHOME`` would
    point it at another Python's library the same way."""
    env = {name: value for name, value in os.environ.items() if name != "PYTHONHOME"}
    if office.python is not None:
        first = str(Path(office.python).parent)
        rest = [folder for folder in env.get("PATH", "").split(os.pathsep) if folder and folder != first]
        env["PATH"] = os.pathsep.join([first, *rest])
    return env


def _run(command: list[str], env: dict[str, str] | None = None) -> str:
    try:
        completed = subprocess.run(command, capture_output=True, text=True, timeout=TIMEOUT, check=False,
                                   env=env)
    except subprocess.TimeoutExpired:
        raise OfficeFailed(f"{Path(command[0]).name} did not finish within {TIMEOUT} s") from None
    output = (completed.stdout + completed.stderr).strip()
    if completed.returncode != 0:
        raise OfficeFailed(output or f"{Path(command[0]).name} failed (exit status {completed.returncode})")
    return output


def _through_session(office: Office, action: str, profile: Path | None, target: str) -> str:
    if office.python is None:
        raise OfficeMissing("no Python with LibreOffice's uno module found (on Debian/Ubuntu: apt-get install "
                            "python3-uno)")
    return _run([office.python, str(SESSION_SCRIPT), action, str(office.soffice), profile_url(profile) or "-",
                 target], office_environment(office))


def _unopkg(office: Office, profile: Path | None, *args: str) -> str:
    command = [str(office.unopkg), *args]
    url = profile_url(profile)
    if url:
        command.append(f"-env:UserInstallation={url}")
    return _run(command, office_environment(office))


def import_warning(office: Office) -> str | None:
    """Why the functions would fail in this LibreOffice's Python (None when they will not): it
    imports and calls the modules the add-in carries, as the add-in would. numpy is not needed
    (without it the leaderboards replay records one by one: the replay modules, :mod:`xlrating.core.mers.replay` and its siblings)."""
    if office.python is None:
        return None
    check = ("import sys; sys.path.insert(0, sys.argv[1]); from xlrating.functions import call; "
             "assert call('DIPPOUCH_PERCENTILE', [65, 8]) > 88")
    with tempfile.TemporaryDirectory(prefix="xlrating-check-") as folder:
        for name, file in libreoffice.carried_files().items():
            target = Path(folder) / Path(name).relative_to("pythonpath")
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(file, target)
        try:
            completed = subprocess.run([office.python, "-c", check, folder], capture_output=True, text=True,
                                       timeout=60, check=False, env=office_environment(office))
        except (OSError, subprocess.TimeoutExpired) as exc:
            return f"could not run LibreOffice's Python ({office.python}): {exc}"
    if completed.returncode == 0:
        return None
    reason = (completed.stderr.strip().splitlines() or [f"exit status {completed.returncode}"])[-1]
    return (f"LibreOffice's Python ({office.python}) cannot run xlrating's functions ({reason}): every cell "
            "will show #VALUE!")




def install(office: Office, profile: Path | None = None) -> str:
    """Build the extension and add it to the user profile (replacing an older version)."""
    if profile is not None:
        profile.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="xlrating-oxt-") as folder:
        oxt = libreoffice.build_oxt(Path(folder) / libreoffice.OXT_NAME)
        if _is_root():
            return _through_session(office, "add", profile, str(oxt))
        return _unopkg(office, profile, "add", "--force", "--suppress-license", str(oxt))


def uninstall(office: Office, profile: Path | None = None) -> str:
    """Remove the extension from the user profile."""
    if _is_root():
        return _through_session(office, "remove", profile, libreoffice.EXTENSION_ID)
    try:
        return _unopkg(office, profile, "remove", libreoffice.EXTENSION_ID)
    except OfficeFailed as exc:
        if "no such extension" not in str(exc).lower():
            raise
        return f"{libreoffice.EXTENSION_ID} is not installed"
