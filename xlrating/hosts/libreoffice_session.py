"""Add or remove an extension through a headless LibreOffice: run by LibreOffice's own Python.

``unopkg`` refuses to run as root without ``--shared`` (which would install for every user of the
machine), so for root ``xlrating libreoffice install`` starts LibreOffice headless on a private
pipe, with the chosen user profile, and asks its ExtensionManager to add the extension to the
"user" repository: what ``unopkg add`` does. This file imports only the standard library and
LibreOffice's ``uno`` module, because it runs in the Python that has them (on Linux the system
Python with python3-uno; on Windows and macOS the Python LibreOffice bundles), never in xlrating's.

    python3 libreoffice_session.py add SOFFICE PROFILE_URL|- FILE.oxt
    python3 libreoffice_session.py remove SOFFICE PROFILE_URL|- IDENTIFIER

Prints one line saying what was done; exits 0, or 1 with the office's message on standard error.
"""

import os
import subprocess
import sys
import time

import uno
import unohelper
from com.sun.star.beans import PropertyValue
from com.sun.star.task import XInteractionHandler
from com.sun.star.ucb import XCommandEnvironment, XProgressHandler

CONNECT_TIMEOUT = 90.0


class Approving(unohelper.Base, XCommandEnvironment, XInteractionHandler, XProgressHandler):
    """Answers the ExtensionManager's questions as ``unopkg add --force`` would: go ahead (replace an
    older version of the same extension, accept its licence)."""

    def getInteractionHandler(self):
        return self

    def getProgressHandler(self):
        return self

    def handle(self, request):
        approve = uno.getTypeByName("com.sun.star.task.XInteractionApprove")
        for continuation in request.getContinuations():
            if continuation.queryInterface(approve):
                continuation.select()
                return

    def push(self, status):
        pass

    def update(self, status):
        pass

    def pop(self):
        pass


def start_office(soffice, profile_url):
    """Start a headless LibreOffice listening on a private pipe; return (process, component context)."""
    pipe = f"xlrating{os.getpid()}_{int(time.time() * 1000) % 100000}"
    command = [soffice, "--headless", "--invisible", "--norestore", "--nologo", "--nodefault",
               f"--accept=pipe,name={pipe};urp;"]
    if profile_url:
        command.insert(1, "-env:UserInstallation=" + profile_url)
    process = subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext("com.sun.star.bridge.UnoUrlResolver", local)
    deadline = time.monotonic() + CONNECT_TIMEOUT
    while True:
        try:
            return process, resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except Exception:  # noqa: BLE001 - NoConnectException until the office listens
            if process.poll() is not None or time.monotonic() > deadline:
                stop_office(process, None)
                raise RuntimeError(f"LibreOffice ({soffice}) did not start") from None
            time.sleep(0.2)


def stop_office(process, context):
    """Close the office started by :func:`start_office` (and wait for it to exit)."""
    if context is not None:
        try:
            desktop = context.ServiceManager.createInstanceWithContext("com.sun.star.frame.Desktop", context)
            desktop.terminate()
        except Exception:  # noqa: BLE001, S110 - the bridge is disposed as the office exits
            pass
    try:
        process.wait(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def hidden():
    """Load properties for a document no one sees."""
    prop = PropertyValue()
    prop.Name, prop.Value = "Hidden", True
    return (prop,)


def main(argv):
    if len(argv) != 4 or argv[0] not in ("add", "remove"):
        print(__doc__, file=sys.stderr)
        return 2
    action, soffice, profile_url, target = argv
    process, context = start_office(soffice, None if profile_url == "-" else profile_url)
    try:
        manager = context.getValueByName("/singletons/com.sun.star.deployment.ExtensionManager")
        if action == "add":
            extension = manager.addExtension(uno.systemPathToFileUrl(os.path.abspath(target)), (), "user", None,
                                             Approving())
            print(f"added {extension.getIdentifier().Value}")
        else:
            found = [e for e in manager.getDeployedExtensions("user", None, Approving())
                     if e.getIdentifier().Value == target]
            if not found:
                print(f"{target} is not installed")
                return 0
            manager.removeExtension(target, found[0].getName(), "user", None, Approving())
            print(f"removed {target}")
        return 0
    except Exception as exc:  # noqa: BLE001 - any UNO exception is LibreOffice refusing
        print(f"{type(exc).__name__}: {getattr(exc, 'Message', '') or exc}", file=sys.stderr)
        return 1
    finally:
        stop_office(process, context)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
