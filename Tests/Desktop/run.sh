#!/usr/bin/env bash
# The desktop app's UI tests: a real window under Xvfb, a private D-Bus session with the
# accessibility bus, driven through AT-SPI (Tests/Desktop/README.md).
#   Tests/Desktop/run.sh [Tests/Desktop/test_X.py[:Class.test_name] …]
# Runs every Tests/Desktop/test_*.py when given none. The binaries come from QRSEAL_DESKTOP
# and QRSEAL (default .build/debug/qrseal-desktop and .build/debug/qrseal); screenshots go to
# .build/desktop-screenshots/. Exit status 0 when every test passes, 1 otherwise, 2 when the
# display or the buses cannot be started.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
absolute() { case $1 in /*) echo "$1" ;; *) echo "$PWD/$1" ;; esac; }
export QRSEAL_DESKTOP=$(absolute "${QRSEAL_DESKTOP:-$root/.build/debug/qrseal-desktop}")
export QRSEAL=$(absolute "${QRSEAL:-$root/.build/debug/qrseal}")
export QRSEAL_SCREENSHOTS=$(absolute "${QRSEAL_SCREENSHOTS:-$root/.build/desktop-screenshots}")
# Debian's python3, which has python3-pyatspi (a pyenv or venv python3 on the PATH has not).
python=${PYTHON:-/usr/bin/python3}

fail() { echo "desktop tests: $*" >&2; exit 2; }
[ -x "$QRSEAL_DESKTOP" ] || fail "no app at $QRSEAL_DESKTOP (swift build --product qrseal-desktop, or set QRSEAL_DESKTOP)"
[ -x "$QRSEAL" ] || fail "no qrseal at $QRSEAL (swift build --product qrseal, or set QRSEAL)"
for tool in Xvfb dbus-run-session "$python"; do
    command -v "$tool" >/dev/null || fail "$tool is missing: make setup installs it"
done
"$python" -c 'import pyatspi' 2>/dev/null || fail "$python has no pyatspi: make setup installs python3-pyatspi"
[ -x /usr/libexec/at-spi-bus-launcher ] || fail "at-spi-bus-launcher is missing: make setup installs at-spi2-core"

work=$(mktemp -d "${TMPDIR:-/tmp}/qrseal-desktop-tests.XXXXXX")
xvfb=
cleanup() {
    if [ -n "$xvfb" ]; then kill "$xvfb" 2>/dev/null || true; wait "$xvfb" 2>/dev/null || true; fi
    rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# Xvfb on the first free display, which it writes to the file once it accepts clients; it
# listens on its local socket only.
Xvfb -displayfd 3 -screen 0 1280x800x24 -nolisten tcp 3>"$work/display" \
    >"$work/xvfb.log" 2>&1 &
xvfb=$!
for _ in $(seq 100); do
    [ -s "$work/display" ] && break
    kill -0 "$xvfb" 2>/dev/null || { cat "$work/xvfb.log" >&2; fail "Xvfb did not start"; }
    sleep 0.1
done
[ -s "$work/display" ] || fail "Xvfb gave no display in 10 s"
export DISPLAY=:$(head -1 "$work/display")

# A clean session: nothing from the caller's desktop, home or buses leaks into the tests.
mkdir -p "$work/home" "$work/runtime"
chmod 0700 "$work/runtime"
unset NO_AT_BRIDGE DBUS_SESSION_BUS_ADDRESS AT_SPI_BUS_ADDRESS WAYLAND_DISPLAY QRSEAL_INBOX \
    QRSEAL_PASSPHRASE XAUTHORITY XDG_CONFIG_HOME XDG_DATA_HOME XDG_CACHE_HOME XDG_STATE_HOME GTK_THEME
export HOME=$work/home XDG_RUNTIME_DIR=$work/runtime
export GDK_BACKEND=x11 GTK_A11Y=atspi GTK_USE_PORTAL=0 GSETTINGS_BACKEND=memory
export GSK_RENDERER=${GSK_RENDERER:-cairo} LIBGL_ALWAYS_SOFTWARE=1 LANG=C.UTF-8 LC_ALL=C.UTF-8
export PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$here${PYTHONPATH:+:$PYTHONPATH}
mkdir -p "$QRSEAL_SCREENSHOTS"

cd "$root"
echo "desktop tests: display $DISPLAY, app $QRSEAL_DESKTOP" >&2
set +e
dbus-run-session -- "$python" "$here/runner.py" "$@"
status=$?
set -e
exit $status
