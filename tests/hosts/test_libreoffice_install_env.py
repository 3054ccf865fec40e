"""``xlrating libreoffice install`` from an activated virtualenv (issue 38): LibreOffice's embedded
Python takes its standard library from the first ``python3`` on the PATH, so LibreOffice runs with
its own Python's folder first; run with a virtualenv's first it died with "C++ code threw
St9bad_alloc"."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from xlrating.hosts.libreoffice_install import Office, find_office, office_environment


def test_libreoffice_runs_with_its_own_python_first_on_the_path(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PATH", os.pathsep.join(["/home/me/project/.venv/bin", "/usr/bin", "/bin"]))
    monkeypatch.setenv("PYTHONHOME", "/home/me/.pyenv/versions/3.12.1")
    office = Office(Path("/usr/lib/libreoffice/program/soffice"), Path("/usr/lib/libreoffice/program/unopkg"),
                    "/usr/bin/python3")
    env = office_environment(office)
    assert env["PATH"].split(os.pathsep) == ["/usr/bin", "/home/me/project/.venv/bin", "/bin"]
    assert "PYTHONHOME" not in env


@pytest.mark.libreoffice
@pytest.mark.skipif(shutil.which("soffice") is None, reason="LibreOffice (soffice) is not installed")
def test_install_works_with_another_python_first_on_the_path(tmp_path: Path) -> None:
    office = find_office()
    if office.python is None:
        pytest.skip(f"LibreOffice's Python (with uno) not found for {office.soffice}: install python3-uno")
    this_python = Path(sys.executable).resolve()
    if this_python == Path(office.python).resolve():
        pytest.skip("the tests run in LibreOffice's own Python: there is no other Python to put first")
    venv = tmp_path / "venv"  # a virtualenv of the Python running the tests, activated
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python3").symlink_to(this_python)
    (venv / "pyvenv.cfg").write_text(f"home = {this_python.parent}\ninclude-system-site-packages = false\n")
    env = {**os.environ, "VIRTUAL_ENV": str(venv),
           "PATH": os.pathsep.join([str(venv / "bin"), os.environ.get("PATH", "")])}
    profile = tmp_path / "profile"
    done = subprocess.run([sys.executable, "-m", "xlrating", "libreoffice", "install", "--profile", str(profile)],
                          env=env, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert "installed the xlrating add-in" in done.stdout
    assert "bad_alloc" not in done.stdout + done.stderr
    assert list((profile / "user" / "uno_packages").rglob("description.xml")), "the extension is not in the profile"
