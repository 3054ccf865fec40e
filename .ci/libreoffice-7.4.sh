#!/usr/bin/env bash
# LibreOffice 7.4 (Debian bookworm's own release) unpacked into a private prefix, next to the
# current LibreOffice the system has installed, for the tests of `xlrating libreoffice prepare`
# (tests/hosts/test_libreoffice_prepare.py look for PREFIX/program/soffice, or $XLRATING_LIBREOFFICE_74).
#
#   .ci/libreoffice-7.4.sh [PREFIX]        default: /opt/libreoffice-7.4
#
# The packages come from Debian (apt-get download, the 7.4 version apt-cache shows for bookworm)
# and are unpacked with dpkg -x: nothing is installed, the system's LibreOffice stays as it is.
# Debian builds LibreOffice for /usr/lib/libreoffice and /etc/libreoffice, so the bootstrap files
# that name those folders are pointed at the prefix, and two wrappers set the library path:
# program/soffice (the office) and program/python (the system python3 with 7.4's uno module, the
# Python `xlrating libreoffice install` finds next to soffice). Idempotent: a prefix whose soffice
# reports 7.4 is left alone.
set -euo pipefail

PREFIX=${1:-/opt/libreoffice-7.4}
ROOT="$PREFIX/root"
PROGRAM="$ROOT/usr/lib/libreoffice/program"
LIBDIR="$ROOT/usr/lib/x86_64-linux-gnu"

if [ -x "$PREFIX/program/soffice" ] && "$PREFIX/program/soffice" --headless --version 2>/dev/null | grep -q '^LibreOffice 7\.4\.'; then
  echo "LibreOffice 7.4 already in $PREFIX"
  exit 0
fi

# The bookworm 7.4 release of LibreOffice (the newest 7.4 apt knows, e.g. 4:7.4.7-1+deb12u14).
VERSION=$(apt-cache madison libreoffice-calc-nogui | awk '$3 ~ /^4:7\.4\./ {print $3; exit}')
if [ -z "$VERSION" ]; then
  echo "libreoffice-7.4.sh: apt knows no LibreOffice 7.4 (libreoffice-calc-nogui 4:7.4.*); run apt-get update" >&2
  exit 1
fi
# What Calc with the Python bridge needs beyond the system's libraries: LibreOffice's own packages
# at that version, and the libraries of bookworm that 7.4 links and 25.2 replaced.
PACKAGES=(libreoffice-calc-nogui libreoffice-core-nogui libreoffice-common libreoffice-base-core
          libreoffice-style-colibre ure uno-libs-private libuno-cppu3 libuno-cppuhelpergcc3-3
          libuno-purpenvhelpergcc3-3 libuno-sal3 libuno-salhelpergcc3-3 python3-uno)
EXTRA=(liborcus-0.17-0 liborcus-parser-0.17-0 lp-solve)

DEBS=$(mktemp -d)
trap 'rm -rf "$DEBS"' EXIT
(cd "$DEBS" && apt-get download -q "${PACKAGES[@]/%/=$VERSION}" "${EXTRA[@]}")

rm -rf "$ROOT"
mkdir -p "$ROOT"
for deb in "$DEBS"/*.deb; do
  dpkg -x "$deb" "$ROOT"
done

SHARE="$ROOT/usr/lib/libreoffice/share"
# Debian's postinst copies the configuration to /etc/libreoffice/registry and links it from share/:
# here the prefix gets its own copy; the other links into /var become empty folders.
rm -f "$SHARE/registry" "$SHARE/prereg/bundled" "$SHARE/uno_packages/cache"
cp -r "$SHARE/.registry" "$SHARE/registry"
mkdir -p "$SHARE/prereg/bundled" "$SHARE/uno_packages/cache"
sed -i -e 's#^BRAND_BASE_DIR=file:///usr/lib/libreoffice$#BRAND_BASE_DIR=${ORIGIN}/..#' \
       -e 's#file:///etc/libreoffice/registry#${BRAND_BASE_DIR}/share/registry#g' "$PROGRAM/fundamentalrc"
sed -i 's#^FHS_CONFIG_FILE=file:///etc/libreoffice/sofficerc$#FHS_CONFIG_FILE=${ORIGIN}/../../../../etc/libreoffice/sofficerc#' \
    "$PROGRAM/sofficerc"
if grep -q 'file:///usr/lib/libreoffice\|file:///etc/libreoffice' "$PROGRAM/fundamentalrc" "$PROGRAM/sofficerc"; then
  echo "libreoffice-7.4.sh: the bootstrap files still name /usr/lib or /etc (the package changed?)" >&2
  exit 1
fi

# 7.4's uno.py beside its pyuno (LibreOffice's embedded Python looks in program/ first), naming
# this prefix instead of /usr/lib/libreoffice.
sed "s#/usr/lib/libreoffice/program#$PROGRAM#g" "$ROOT/usr/lib/python3/dist-packages/uno.py" > "$PROGRAM/uno.py"
cp "$ROOT/usr/lib/python3/dist-packages/unohelper.py" "$PROGRAM/unohelper.py"

LIBRARY_PATH="$PROGRAM:$LIBDIR"
sed -i "2i export LD_LIBRARY_PATH=\"$LIBRARY_PATH\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}\"" "$PROGRAM/soffice"
cat > "$PROGRAM/python" <<EOF
#!/bin/sh
# LibreOffice 7.4's Python: the system python3 with this LibreOffice's uno module.
export LD_LIBRARY_PATH="$LIBRARY_PATH\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
export PYTHONPATH="$PROGRAM\${PYTHONPATH:+:\$PYTHONPATH}"
exec /usr/bin/python3 "\$@"
EOF
chmod 755 "$PROGRAM/python"
ln -sfn "$PROGRAM" "$PREFIX/program"

"$PREFIX/program/soffice" --headless --version
"$PREFIX/program/python" -c "import uno; print('uno', uno.__file__)"
