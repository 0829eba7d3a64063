"""Drives qrseal-desktop the way a person would, through AT-SPI, for the tests of Tests/Desktop.

Run under Tests/Desktop/run.sh, which provides the X display (Xvfb), the D-Bus session and the
accessibility bus. The main pieces:

    class PageTests(DesktopTest):          # a temp HOME, XDG folders and inbox for each test
        def test_x(self):
            with self.app("--page", "compose", "--style", "dark") as app:
                entry = app.find(role="text", name="Message")
                app.type_into(entry, "hello")
                app.click(app.find(role="push button", name="Save…"))
                app.file_chooser_accept(self.path("note.png"))
                app.wait_until(lambda: os.path.exists(self.path("note.png")), what="note.png saved")
                app.screenshot("compose-dark")

Roles are AT-SPI role names as pyatspi spells them ("push button", "toggle button", "text",
"page tab", "label", "list item", "dialog", "frame" ...). Names match exactly, or by a
compiled regular expression, or by a function of the name.
"""

import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
import unittest

import pyatspi

import y4m  # noqa: F401  (for the scan tests: harness.y4m)
from y4m import Y4MWriter, blank_frame, compose_frame, frame_from_image  # noqa: F401

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
APP = os.environ.get("QRSEAL_DESKTOP", os.path.join(ROOT, ".build/debug/qrseal-desktop"))
CLI = os.environ.get("QRSEAL", os.path.join(ROOT, ".build/debug/qrseal"))
SCREENSHOTS = os.environ.get("QRSEAL_SCREENSHOTS", os.path.join(ROOT, ".build/desktop-screenshots"))
# Seconds a find or a wait gives the app by default; the machine is shared and slow.
TIMEOUT = float(os.environ.get("QRSEAL_DESKTOP_TIMEOUT", "30"))


class HarnessError(AssertionError):
    """A widget not found, a wait that timed out, an app that died: fails the test."""


# ---------------------------------------------------------------------------------------
# Looking at the accessibility tree


def role_of(acc):
    try:
        return acc.getRoleName()
    except Exception:
        return "?"


def name_of(acc):
    try:
        return acc.name or ""
    except Exception:
        return ""


def states_of(acc):
    """The state names of a node: {"focused", "checked", "sensitive", ...}."""
    try:
        return {pyatspi.stateToString(s) for s in acc.getState().getStates()}
    except Exception:
        return set()


def actions_of(acc):
    try:
        action = acc.queryAction()
        return [action.getName(i) for i in range(action.nActions)]
    except Exception:
        return []


def children_of(acc):
    try:
        return [c for c in acc if c is not None]
    except Exception:
        return []


def _matches(value, wanted):
    if wanted is None:
        return True
    if isinstance(wanted, re.Pattern):
        return wanted.search(value) is not None
    if callable(wanted):
        return bool(wanted(value))
    return value == wanted


def walk(acc, depth=0, limit=60):
    """Every node under acc (acc included), depth first."""
    yield acc, depth
    if depth >= limit:
        return
    for child in children_of(acc):
        yield from walk(child, depth + 1, limit)


def describe(acc, limit=400):
    """The tree under acc as indented `role 'name' [states]` lines, for failure messages."""
    lines = []
    for node, depth in walk(acc):
        role = role_of(node)
        name = name_of(node)
        if role in ("filler", "panel") and not name:
            continue
        interesting = sorted(states_of(node) & {"focused", "checked", "pressed", "selected",
                                                 "editable", "showing"})
        if "sensitive" not in states_of(node):
            interesting.append("insensitive")
        lines.append("%s%s %r%s" % ("  " * min(depth, 20), role, name,
                                    " [" + ", ".join(interesting) + "]" if interesting else ""))
        if len(lines) >= limit:
            lines.append("…")
            break
    return "\n".join(lines)


def text_of(acc):
    """What a node shows: its Text interface's whole text, else its name."""
    try:
        text = acc.queryText()
        return text.getText(0, text.characterCount)
    except Exception:
        return name_of(acc)


# ---------------------------------------------------------------------------------------
# Input, as a person gives it (through AT-SPI's device event controller, which uses XTest)


KEYSYMS = {
    "Tab": 0xFF09, "Return": 0xFF0D, "Enter": 0xFF0D, "Escape": 0xFF1B, "BackSpace": 0xFF08,
    "Delete": 0xFFFF, "Home": 0xFF50, "Left": 0xFF51, "Up": 0xFF52, "Right": 0xFF53,
    "Down": 0xFF54, "Page_Up": 0xFF55, "Page_Down": 0xFF56, "End": 0xFF57, "space": 0x20,
    "F1": 0xFFBE, "F2": 0xFFBF, "F10": 0xFFC7, "F11": 0xFFC8,
    "Shift": 0xFFE1, "Control": 0xFFE3, "Alt": 0xFFE9, "Super": 0xFFEB,
}


def keysym(key):
    if key in KEYSYMS:
        return KEYSYMS[key]
    if len(key) == 1:
        code = ord(key)
        return code if 0x20 <= code <= 0x7E or 0xA0 <= code <= 0xFF else 0x01000000 + code
    raise HarnessError("unknown key %r (known: %s, or one character)" % (key, ", ".join(sorted(KEYSYMS))))


MODIFIER_KEYSYMS = {"ctrl": "Control_L", "control": "Control_L", "shift": "Shift_L",
                    "alt": "Alt_L", "super": "Super_L"}
_keycodes = {}


def keycode(name):
    """The X keycode of a keysym name on the test display (from `xmodmap -pke`)."""
    if not _keycodes:
        try:
            out = subprocess.run(["xmodmap", "-pke"], capture_output=True, text=True).stdout
        except FileNotFoundError:
            out = ""
        for line in out.splitlines():
            m = re.match(r"keycode\s+(\d+)\s*=\s*(.*)", line)
            if m:
                for sym in m.group(2).split():
                    _keycodes.setdefault(sym, int(m.group(1)))
        # Xvfb's default (evdev) keymap, when xmodmap is missing.
        for sym, code in (("Control_L", 37), ("Shift_L", 50), ("Alt_L", 64), ("Super_L", 133)):
            _keycodes.setdefault(sym, code)
    if name not in _keycodes:
        raise HarnessError("no keycode for %s on this display" % name)
    return _keycodes[name]


def press_key(combo, pause=0.05):
    """Presses and releases a key or a combination: "Tab", "Return", "ctrl+l", "shift+Tab",
    "alt+2", "a"."""
    parts = combo.split("+") if combo != "+" else ["+"]
    held = []
    for modifier in parts[:-1]:
        if modifier.lower() not in MODIFIER_KEYSYMS:
            raise HarnessError("unknown modifier %r in %r" % (modifier, combo))
        held.append(keycode(MODIFIER_KEYSYMS[modifier.lower()]))
    key = keysym(parts[-1])
    for code in held:
        pyatspi.Registry.generateKeyboardEvent(code, None, pyatspi.KEY_PRESS)
    pyatspi.Registry.generateKeyboardEvent(key, None, pyatspi.KEY_SYM)
    for code in reversed(held):
        pyatspi.Registry.generateKeyboardEvent(code, None, pyatspi.KEY_RELEASE)
    time.sleep(pause)


def type_text(text, pause=0.01):
    """Types text key by key into whatever has the focus."""
    for ch in text:
        if ch == "\n":
            pyatspi.Registry.generateKeyboardEvent(KEYSYMS["Return"], None, pyatspi.KEY_SYM)
        else:
            pyatspi.Registry.generateKeyboardEvent(0, ch, pyatspi.KEY_STRING)
        time.sleep(pause)


# ---------------------------------------------------------------------------------------
# Waiting


def wait_until(predicate, timeout=None, what="the condition", interval=0.1, detail=None):
    """Calls predicate until it answers something true (which is returned) or timeout seconds
    pass; then fails naming `what`, with `detail()` when given (the tree, say)."""
    timeout = TIMEOUT if timeout is None else timeout
    deadline = time.monotonic() + timeout
    last_error = None
    while True:
        try:
            value = predicate()
            if value:
                return value
        except HarnessError:
            raise
        except Exception as error:  # the tree changes under us: nodes go away mid-walk
            last_error = error
        if time.monotonic() >= deadline:
            message = "timed out after %.1f s waiting for %s" % (timeout, what)
            if last_error is not None:
                message += " (last error: %r)" % (last_error,)
            if detail is not None:
                try:
                    message += "\n" + detail()
                except Exception as error:
                    message += "\n(no detail: %r)" % (error,)
            raise HarnessError(message)
        time.sleep(interval)


# ---------------------------------------------------------------------------------------
# The X windows, for screenshots and clicks at a place


def x_windows():
    """Top-level X windows as (id, title, x, y, width, height), from xwininfo."""
    out = subprocess.run(["xwininfo", "-root", "-children"], capture_output=True, text=True).stdout
    windows = []
    for line in out.splitlines():
        m = re.match(r'\s*(0x[0-9a-f]+) "(.*)": \(.*\)\s+(\d+)x(\d+)\+(-?\d+)\+(-?\d+)\s+\+(-?\d+)\+(-?\d+)', line)
        if m:
            wid, title, w, h, _, _, ax, ay = m.groups()
            windows.append((wid, title, int(ax), int(ay), int(w), int(h)))
    return windows


def window_on_screen(window):
    """Where a top-level window's content is on the screen, (x, y, width, height): the largest
    mapped X window with its title, less the margin GTK keeps around a client-side decorated
    window for its shadow (the X window is larger than the frame by that much on each side).
    GTK 4 knows no screen coordinates on X11: its window coordinates start at that corner."""
    title = name_of(window)
    candidates = [w for w in x_windows() if w[1] == title and w[4] > 1 and w[5] > 1]
    if not candidates:
        return None
    _, _, x, y, width, height = max(candidates, key=lambda w: w[4] * w[5])
    try:
        ext = window.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        if 0 < ext.width <= width and 0 < ext.height <= height:
            x += (width - ext.width) // 2
            y += (height - ext.height) // 2
            width, height = ext.width, ext.height
    except Exception:
        pass
    return x, y, width, height


def capture(path, geometry=None):
    """Saves the screen (or the WxH+X+Y part of it) as a PNG, with ImageMagick's import."""
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    command = ["import", "-silent", "-window", "root"]
    if geometry:
        command += ["-crop", geometry, "+repage"]
    result = subprocess.run(command + [path], capture_output=True, text=True)
    if result.returncode != 0:
        raise HarnessError("import could not capture the screen: %s" % result.stderr.strip())
    return path


# ---------------------------------------------------------------------------------------
# The app


class App:
    """qrseal-desktop running under the test display, found on the accessibility bus.

        with App(["--page", "inbox"], env=env) as app: ...

    `stdin` is a file object, bytes (written then closed) or "pipe" (app.stdin is then a pipe
    the test writes frames to, for --stream -). The app's standard error is kept and shown
    when a test fails (`app.log()`)."""

    def __init__(self, args=(), env=None, stdin=None, binary=None, timeout=None, cwd=None):
        self.args = list(args)
        self.env = dict(os.environ if env is None else env)
        self.binary = binary or APP
        self.timeout = TIMEOUT if timeout is None else timeout
        self.cwd = cwd
        self._stdin = stdin
        self.process = None
        self.stdin = None
        self.root = None
        self._log = tempfile.TemporaryFile()

    # -- lifetime

    def __enter__(self):
        self.start()
        return self

    def __exit__(self, kind, value, traceback):
        if value is not None and isinstance(value, AssertionError) and self.process is not None:
            print("\n--- %s's output:\n%s---" % (os.path.basename(self.binary), self.log()), file=sys.stderr)
        self.close()
        return False

    def start(self):
        stdin = subprocess.DEVNULL
        feed = None
        if self._stdin == "pipe" or isinstance(self._stdin, (bytes, bytearray)):
            stdin = subprocess.PIPE
            feed = self._stdin if self._stdin != "pipe" else None
        elif self._stdin is not None:
            stdin = self._stdin
        self.started = time.monotonic()
        self.process = subprocess.Popen([self.binary] + self.args, env=self.env, stdin=stdin,
                                        stdout=self._log, stderr=self._log, cwd=self.cwd,
                                        start_new_session=True)
        if stdin == subprocess.PIPE:
            self.stdin = self.process.stdin
            if feed is not None:
                try:
                    self.stdin.write(feed)
                    self.stdin.close()
                except BrokenPipeError:
                    pass
        self.root = wait_until(self._find_application, self.timeout,
                               "qrseal-desktop (pid %d) on the accessibility bus" % self.process.pid,
                               detail=self._bus_listing)
        self.window = self.find(role="frame", timeout=self.timeout)
        return self

    def _find_application(self):
        if self.process.poll() is not None:
            raise HarnessError("qrseal-desktop exited with status %d before its window showed:\n%s"
                               % (self.process.returncode, self.log()))
        desktop = pyatspi.Registry.getDesktop(0)
        for app in children_of(desktop):
            try:
                if app.get_process_id() == self.process.pid:
                    return app
            except Exception:
                continue
        return None

    def _bus_listing(self):
        desktop = pyatspi.Registry.getDesktop(0)
        return "applications on the bus: %s" % [name_of(a) for a in children_of(desktop)]

    def close(self, timeout=10):
        """Closes the window as a person would (its "window.close" action), then SIGTERM,
        then SIGKILL, for what is left. Answers the exit status."""
        if self.process is None:
            return None
        if self.stdin is not None and not self.stdin.closed:
            try:
                self.stdin.close()
            except Exception:
                pass
        if self.process.poll() is None and getattr(self, "window", None) is not None:
            try:
                actions = actions_of(self.window)
                if "window.close" in actions:
                    self.window.queryAction().doAction(actions.index("window.close"))
                    self.process.wait(timeout=3)
            except Exception:
                pass
        if self.process.poll() is None:
            try:
                self.process.send_signal(signal.SIGTERM)
                self.process.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait()
        return self.process.returncode

    def alive(self):
        return self.process is not None and self.process.poll() is None

    def feed(self, source, fps=None, close=True):
        """Writes a YUV4MPEG2 stream to the app's standard input (started with stdin="pipe") on
        a thread: `source` is bytes, a file path, or an iterable of bytes chunks (a header, then
        "FRAME\\n" + planes …). With fps, chunks after the first are paced at fps a second, as a
        camera delivers them. Answers the thread; `close` closes the pipe at the end (the
        stream ends)."""
        if self.stdin is None:
            raise HarnessError("start the app with stdin=\"pipe\" to feed it a stream")
        if isinstance(source, (bytes, bytearray)):
            chunks = [bytes(source)]
        elif isinstance(source, str):
            chunks = _file_chunks(source)
        else:
            chunks = source

        def write():
            started = time.monotonic()
            try:
                for index, chunk in enumerate(chunks):
                    if fps and index > 0:
                        delay = started + (index - 1) / fps - time.monotonic()
                        if delay > 0:
                            time.sleep(delay)
                    self.stdin.write(chunk)
                    self.stdin.flush()
                if close:
                    self.stdin.close()
            except (BrokenPipeError, ValueError, OSError):
                pass
        thread = threading.Thread(target=write, daemon=True)
        thread.start()
        return thread

    def log(self):
        """What the app has written to its standard output and error so far."""
        self._log.seek(0)
        return self._log.read().decode("utf-8", "replace")

    # -- finding widgets

    def tree(self, under=None):
        """The accessibility tree of the app (or under a node), as text."""
        return describe(under or self.root)

    def _candidates(self, role, name, under, predicate, showing):
        found = []
        roots = [under] if under is not None else children_of(self.root)
        for top in roots:
            for node, _ in walk(top):
                if role is not None and role_of(node) != role:
                    continue
                if not _matches(name_of(node), name):
                    continue
                if showing and not self.is_shown(node):
                    continue
                if predicate is not None and not predicate(node):
                    continue
                found.append(node)
        return found

    def find_all(self, role=None, name=None, under=None, predicate=None, showing=False):
        """Every node with this role and name now (no waiting)."""
        self._check_alive()
        return self._candidates(role, name, under, predicate, showing)

    def find(self, role=None, name=None, under=None, predicate=None, showing=False, timeout=None,
             index=0):
        """The first node (or the index-th) with this role and name, waiting for it to appear;
        fails with what the window holds instead. `showing`: only nodes on a page shown now."""
        def look():
            self._check_alive()
            nodes = self._candidates(role, name, under, predicate, showing)
            return nodes[index] if len(nodes) > index else None
        what = "a %s named %r" % (role or "node", name.pattern if isinstance(name, re.Pattern) else name)
        return wait_until(look, timeout if timeout is not None else self.timeout, what,
                          detail=lambda: "what there is:\n" + self.tree(under))

    def find_gone(self, role=None, name=None, under=None, timeout=None):
        """Waits until no node with this role and name is left."""
        wait_until(lambda: not self.find_all(role, name, under), timeout,
                   "no %s named %r" % (role or "node", name), detail=lambda: self.tree(under))

    def wait_until(self, predicate, timeout=None, what="the condition"):
        def check():
            self._check_alive()
            return predicate()
        return wait_until(check, timeout, what, detail=lambda: "the window:\n" + self.tree())

    def _check_alive(self):
        if self.process is not None and self.process.poll() is not None:
            raise HarnessError("qrseal-desktop exited with status %d:\n%s" % (self.process.returncode, self.log()))

    def is_shown(self, node):
        """Whether node is on screen now: it and its ancestors visible with a non-empty extent
        (GTK 4.8 leaves `showing` off most nodes, and keeps the hidden pages of a stack in
        the tree)."""
        try:
            ext = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            if ext.width <= 0 or ext.height <= 0:
                return False
        except Exception:
            pass
        current = node
        while current is not None and role_of(current) != "application":
            if "visible" not in states_of(current):
                return False
            try:
                ext = current.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                if ext.width == 0 and ext.height == 0 and role_of(current) not in ("frame", "dialog", "window"):
                    return False
            except Exception:
                pass
            try:
                current = current.parent
            except Exception:
                break
        return True

    # -- acting

    def click(self, node, mouse=False):
        """Clicks a widget: its AT-SPI action "click" (or "activate", "press", "toggle"), as a
        screen reader would; with mouse=True, or when it has none, a real left click at its
        centre."""
        if not mouse:
            actions = actions_of(node)
            for wanted in ("click", "activate", "press", "toggle", "default.activate"):
                if wanted in actions:
                    node.queryAction().doAction(actions.index(wanted))
                    time.sleep(0.05)
                    return
        x, y = self.centre(node)
        pyatspi.Registry.generateMouseEvent(x, y, "b1c")
        time.sleep(0.05)

    def centre(self, node):
        """The screen point at the centre of a widget."""
        ext = node.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
        window = self.window_of(node)
        origin = window_on_screen(window) if window is not None else None
        if origin is None:
            raise HarnessError("cannot place %s %r on the screen (no X window titled %r)"
                               % (role_of(node), name_of(node), name_of(window)))
        return origin[0] + ext.x + ext.width // 2, origin[1] + ext.y + ext.height // 2

    def window_of(self, node):
        """The top-level window (a child of the application) that holds node."""
        current = node
        while current is not None:
            try:
                parent = current.parent
            except Exception:
                return None
            if parent is None or role_of(parent) == "application":
                return current
            current = parent
        return None

    def focus(self, node):
        try:
            if node.queryComponent().grabFocus():
                return True
        except Exception:
            pass
        self.click(node, mouse=True)
        return True

    def focused(self):
        """The node with the keyboard focus, or None."""
        nodes = self.find_all(predicate=lambda n: "focused" in states_of(n))
        return nodes[-1] if nodes else None

    def type_into(self, entry, text, replace=True, keys=False):
        """Puts text into an entry: through its EditableText interface when it has one (and
        keys=False), else by focusing it and typing it key by key. replace: clears it first."""
        if not keys:
            try:
                editable = entry.queryEditableText()
                if replace:
                    editable.setTextContents(text)
                else:
                    editable.insertText(len(text_of(entry)), text, len(text))
                if text_of(entry).endswith(text):
                    return
            except NotImplementedError:
                pass
            except Exception:
                pass
        self.focus(entry)
        if replace:
            press_key("ctrl+a")
            press_key("BackSpace")
        type_text(text)

    def press_key(self, combo):
        self._check_alive()
        press_key(combo)

    def type_text(self, text):
        self._check_alive()
        type_text(text)

    def text_of(self, node):
        return text_of(node)

    def states(self, node):
        return states_of(node)

    # -- pages and dialogs

    def page_tab(self, title):
        """The view switcher's button for a page ("Scan", "Inbox", "Compose", "Keys")."""
        return self.find(role="page tab", name=title)

    def current_page(self):
        """The title of the page the switcher shows as selected."""
        for tab in self.find_all(role="page tab"):
            if "selected" in states_of(tab) or "pressed" in states_of(tab) or "checked" in states_of(tab):
                return name_of(tab)
        return None

    def show_page(self, title):
        self.click(self.page_tab(title))
        self.wait_until(lambda: self.current_page() == title, what="the %s page" % title)

    def dialog(self, name=None, timeout=None):
        """A dialog or other top-level window of the app besides the main one."""
        def look():
            self._check_alive()
            for top in children_of(self.root):
                if top is self.window or _same(top, self.window):
                    continue
                # GTK 4.8 gives its file chooser dialog the role "filler".
                if _matches(name_of(top), name):
                    return top
            return None
        return wait_until(look, timeout, "a dialog named %r" % (name,),
                          detail=lambda: "top-level windows: %s" % [(role_of(t), name_of(t)) for t in children_of(self.root)])

    def file_chooser_accept(self, path, accept=None, timeout=None):
        """Answers the GTK file chooser the app opened (GTK_USE_PORTAL=0, so GTK's own dialog):
        types the path into its location entry (or the name entry, to save) and presses its
        accept button ("Open", "Save", …, or the one named by `accept`)."""
        dialog = self.dialog(timeout=timeout)
        time.sleep(0.3)
        entry = None
        entries = [n for n in self._candidates("text", None, dialog, None, False)
                   if "editable" in states_of(n) and self.is_shown(n)]
        if not entries:
            # Open mode: ctrl+L shows the location entry.
            self.focus(dialog)
            press_key("ctrl+l")
            entries = wait_until(lambda: [n for n in self._candidates("text", None, dialog, None, False)
                                          if "editable" in states_of(n) and self.is_shown(n)],
                                 timeout, "the file chooser's location entry",
                                 detail=lambda: describe(dialog))
        entry = entries[0]
        self.focus(entry)
        self.type_into(entry, path)
        time.sleep(0.2)
        if accept is None:
            buttons = [n for n in self._candidates("push button", None, dialog, None, False)
                       if re.sub("_", "", name_of(n)) in ("Open", "Save", "Select", "Import", "Export",
                                                           "Choose", "Accept", "OK")]
        else:
            buttons = self._candidates("push button", accept, dialog, None, False)
        if buttons:
            self.click(buttons[0])
        else:
            press_key("Return")
        # Saving over a file asks to replace it.
        time.sleep(0.3)
        for top in children_of(self.root):
            if role_of(top) in ("dialog", "alert") and not _same(top, dialog):
                replace = self._candidates("push button", re.compile("Replace"), top, None, False)
                if replace:
                    self.click(replace[0])
        self.wait_until(lambda: not any(_same(t, dialog) for t in children_of(self.root)),
                        timeout, "the file chooser to close")

    def file_chooser_cancel(self, timeout=None):
        dialog = self.dialog(timeout=timeout)
        buttons = self._candidates("push button", re.compile("Cancel"), dialog, None, False)
        if buttons:
            self.click(buttons[0])
        else:
            press_key("Escape")
        self.wait_until(lambda: not any(_same(t, dialog) for t in children_of(self.root)),
                        timeout, "the file chooser to close")

    # -- pictures

    def screenshot(self, name_or_path, window=None):
        """Saves the app's window (or a dialog) as a PNG: a bare name goes to
        .build/desktop-screenshots/NAME.png. Answers the path."""
        path = name_or_path if os.sep in name_or_path else os.path.join(SCREENSHOTS, name_or_path + ".png")
        if not path.endswith(".png"):
            path += ".png"
        window = window or self.window
        time.sleep(0.3)  # let the frame clock draw what was just changed
        place = window_on_screen(window)
        geometry = "%dx%d+%d+%d" % (place[2], place[3], place[0], place[1]) if place else None
        return capture(path, geometry)


def _file_chunks(path, size=1 << 20):
    with open(path, "rb") as f:
        while True:
            chunk = f.read(size)
            if not chunk:
                return
            yield chunk


def _same(a, b):
    try:
        return a == b or (a.path == b.path and a.bus_name == b.bus_name)
    except Exception:
        return False


# ---------------------------------------------------------------------------------------
# Tests


class DesktopTest(unittest.TestCase):
    """A test with its own HOME, XDG folders and inbox (QRSEAL_INBOX), shared by the app and
    the CLI it runs, all removed afterwards: nothing touches the user's files."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="qrseal-desktop-test.")
        self.addCleanup(shutil.rmtree, self.dir, True)
        home = self.path("home")
        runtime = self.path("runtime")
        for folder in (home, runtime, self.path("config"), self.path("data"), self.path("cache"),
                       self.path("state")):
            os.makedirs(folder, mode=0o700, exist_ok=True)
        self.env = dict(os.environ)
        self.env.update({
            "HOME": home, "XDG_CONFIG_HOME": self.path("config"), "XDG_DATA_HOME": self.path("data"),
            "XDG_CACHE_HOME": self.path("cache"), "XDG_STATE_HOME": self.path("state"),
            "XDG_RUNTIME_DIR": runtime, "QRSEAL_INBOX": self.path("inbox.sqlite"),
            "GTK_USE_PORTAL": "0", "GTK_A11Y": "atspi",
        })
        self.env.pop("NO_AT_BRIDGE", None)
        self.env.pop("QRSEAL_PASSPHRASE", None)

    def path(self, *parts):
        return os.path.join(self.dir, *parts)

    def app(self, *args, stdin=None, env=None, **kwargs):
        """qrseal-desktop with this test's files (use as a context manager)."""
        merged = dict(self.env)
        merged.update(env or {})
        return App(args, env=merged, stdin=stdin, **kwargs)

    def qrseal(self, *args, input=None, check=True, env=None):
        """Runs the qrseal command with this test's files; answers the CompletedProcess."""
        merged = dict(self.env)
        merged.update(env or {})
        result = subprocess.run([CLI] + list(args), input=input, capture_output=True, env=merged,
                                timeout=120)
        if check and result.returncode != 0:
            self.fail("qrseal %s: status %d\n%s" % (" ".join(args), result.returncode,
                                                     result.stderr.decode("utf-8", "replace")))
        return result

    def run_app(self, *args, timeout=30):
        """qrseal-desktop run to its end (for --help and usage errors): the CompletedProcess."""
        return subprocess.run([APP] + list(args), capture_output=True, env=self.env, timeout=timeout,
                              text=True)
