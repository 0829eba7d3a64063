"""The scan page as a person uses it: a stream holding a sealed code and a link is read, both
outlined and listed; the sealed one opens with its passphrase, and the inbox then shows its
text while the inbox file keeps it sealed; a message in parts shows its progress and opens
once whole; text is read when asked; and without a camera the page says what to do."""

import base64
import json
import os
import random
import re
import sqlite3
import subprocess
import sys
import threading
import time

import pyatspi

import harness
from harness import DesktopTest, name_of

# Offers a text on the clipboard until killed, as another GTK app that copied it would.
OFFER_CLIPBOARD = """
import sys, gi
gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gtk, Gdk, GLib
Gtk.init()
Gdk.Display.get_default().get_clipboard().set(sys.argv[1])
print("ready", flush=True)
GLib.MainLoop().run()
"""

PASSPHRASE = "tide tables at dawn"
SECRET = "the boat leaves from pier 4 at six"


class ScanTests(DesktopTest):
    def trace(self):
        """The outline-added events the app wrote (QRSEAL_DESKTOP_TRACE)."""
        try:
            with open(self.path("trace.jsonl")) as f:
                return [json.loads(line) for line in f if line.strip()]
        except FileNotFoundError:
            return []

    def rows(self, app):
        read = app.find(role="list", name="Read")
        return [name_of(row) for row in app.find_all(role="list item", under=read)]

    def button(self, app, label, under=None):
        def named(name):
            return name.replace("_", "") in (label, label + " " + label)
        return app.find(role="push button", name=named, under=under, showing=under is None)

    def wait_open(self, app):
        """Until the stream is open: its size shows, or already the guidance the page gives
        when a frame holds nothing it can read (which replaces the size)."""
        app.find(role="label", name=re.compile("^1280×720$|^Nothing read yet"), timeout=30)

    def open_with_passphrase(self, app, dialog):
        """From a sealed message's actions: the passphrase dialog; a mistyped passphrase opens
        nothing and is asked again, saying why; the right one, typed and entered, shows the
        message's text."""
        app.click(self.button(app, "Open with passphrase…", under=dialog))
        dialog = app.dialog(name=re.compile("Open sealed message"))
        entry = app.find(name="Passphrase", under=dialog, predicate=lambda n: "editable" in harness.states_of(n))
        app.type_into(entry, "wrong " + PASSPHRASE, keys=True)
        app.press_key("Return")
        why = app.find(role="label", name=re.compile("^Wrong key or passphrase"), timeout=90)
        self.assertFalse(app.find_all(predicate=lambda n: SECRET in app.text_of(n)))
        dialog = app.window_of(why)
        entry = app.find(name="Passphrase", under=dialog, predicate=lambda n: "editable" in harness.states_of(n))
        app.type_into(entry, PASSPHRASE, keys=True)
        app.press_key("Return")
        app.find(name="Content", predicate=lambda n: SECRET in app.text_of(n), timeout=90)

    def test_a_sealed_code_and_a_link_are_outlined_listed_and_the_sealed_one_opens(self):
        with open(self.path("pass.txt"), "w") as f:
            f.write(PASSPHRASE)
        self.qrseal("encode", "-o", self.path("link.png"), "https://example.org/harbour")
        self.qrseal("encode", "--seal", "--passphrase-file", self.path("pass.txt"), "-o", self.path("sealed.png"), SECRET)
        frame = harness.compose_frame(1280, 720, [(self.path("link.png"), 100, 180, 360),
                                                  (self.path("sealed.png"), 700, 150, 440)])
        with self.app("--stream", "-", stdin="pipe", env={"QRSEAL_DESKTOP_TRACE": self.path("trace.jsonl")}) as app:
            app.feed(harness.y4m.chunks(1280, 720, [(frame, 3000)]), fps=30, close=False)
            app.wait_until(lambda: len(self.rows(app)) == 2, what="both codes listed")
            rows = self.rows(app)
            self.assertTrue(any(r.startswith("Link, ") and "https://example.org/harbour" in r for r in rows), rows)
            sealed = [r for r in rows if r.startswith("Sealed message")]
            self.assertEqual(len(sealed), 1, rows)
            self.assertNotIn(SECRET, " ".join(rows))
            app.wait_until(lambda: len({e["id"] for e in self.trace() if e["event"] == "outline-added"}) >= 2,
                           what="both codes outlined")
            # A screen reader hears how many are outlined, and where to act on them.
            area = app.find(name="Outlines of what is read")
            app.wait_until(lambda: area.description.startswith("In view: 2 codes, 0 text blocks; each is in the list Read."),
                           what="the outlines described")
            app.screenshot("scan-sealed-and-link")

            # The sealed one: its actions, then the passphrase.
            app.click(app.find(role="list item", name=re.compile("^Sealed message")))
            dialog = app.dialog()
            self.open_with_passphrase(app, dialog)
            app.press_key("Escape")
            app.wait_until(lambda: any(r.startswith("Opened message") for r in self.rows(app)),
                           what="the list saying the message is opened")

            # The inbox shows the opened text.
            app.show_page("Inbox")
            row = app.find(role="list item", name=re.compile("^Sealed message"))
            try:
                row.parent.querySelection().selectChild(row.getIndexInParent())
            except Exception:
                app.click(row, mouse=True)
            app.find(name="Content", predicate=lambda n: SECRET in app.text_of(n), timeout=30)

        # Kept once each, and the sealed one sealed at rest.
        out = self.qrseal("inbox", "list", "--json", "--limit", "0").stdout.decode()
        items = [json.loads(line) for line in out.splitlines() if line.strip()]
        self.assertEqual(sorted(item["kind"] for item in items), ["sealed", "url"], items)
        db = sqlite3.connect(self.env["QRSEAL_INBOX"])
        for (text, data) in db.execute("SELECT text, bytes FROM items"):
            self.assertNotIn(SECRET, text or "")
            self.assertNotIn(SECRET.encode(), data or b"")
        db.close()

    def test_a_message_in_parts_shows_its_progress_and_opens_when_whole(self):
        message = "; ".join("line %d of a note too long for one code" % i for i in range(60))
        self.qrseal("encode", "--max-version", "4", "-o", self.path("parts.png"), message)
        parts = sorted(p for p in os.listdir(self.dir) if p.startswith("parts-"))
        self.assertGreater(len(parts), 3, parts)
        # Every third part never shown: the erasure code makes up for them.
        shown = [p for i, p in enumerate(parts) if i % 3 != 2]
        segments = [(harness.frame_from_image(self.path(p), 1280, 720), 12) for p in shown]
        seen = threading.Event()

        def stream():
            # The first part alone until its progress has been seen (however slow the machine),
            # then the others, over and over.
            while not seen.is_set():
                yield segments[0]
            yield from segments[1:] + segments * 5
        with self.app("--stream", "-", stdin="pipe") as app:
            app.feed(harness.y4m.chunks(1280, 720, stream()), fps=30, close=False)
            progress = app.find(role="label", name=re.compile(r"^Message [0-9A-F]+: 1 of \d+ parts$"),
                                timeout=60)
            seen.set()
            self.assertRegex(name_of(progress), r"of \d+ parts")
            app.find(name="Content", predicate=lambda n: message in app.text_of(n), timeout=120)
            app.screenshot("scan-parts-complete")
        out = self.qrseal("inbox", "list", "--json", "--limit", "0").stdout.decode()
        texts = [json.loads(line).get("text") for line in out.splitlines() if line.strip()]
        self.assertIn(message, texts)

    def test_text_is_read_when_asked(self):
        card = harness.y4m.text_card(self.path("card.png"), "Meet at the north gate at 10:30", pointsize=40)
        frame = harness.compose_frame(1280, 720, [(card, 300, 250, None)])
        with self.app("--stream", "-", stdin="pipe") as app:
            app.feed(harness.y4m.chunks(1280, 720, [(frame, 3000)]), fps=30, close=False)
            self.wait_open(app)
            self.assertEqual(self.rows(app), [], "text read before it was asked for")
            app.click(app.find(role="push button", name="Read text"))
            app.wait_until(lambda: any("north gate" in r for r in self.rows(app)), timeout=90,
                           what="the card's text listed")

    def test_a_kind_of_code_switched_off_is_not_read_until_switched_on(self):
        self.qrseal("encode", "-o", self.path("link.png"), "https://example.org/kinds")
        frame = harness.compose_frame(1280, 720, [(self.path("link.png"), 400, 150, 400)])
        with self.app("--stream", "-", stdin="pipe") as app:
            app.click(app.find(role="push button", name="Kinds of code"))
            qr = app.find(role="check box", name=re.compile("^QR, Micro QR and rMQR"))
            app.click(qr)
            app.wait_until(lambda: "checked" not in harness.states_of(qr), what="QR codes switched off")
            app.press_key("Escape")
            app.feed(harness.y4m.chunks(1280, 720, [(frame, 3000)]), fps=30, close=False)
            self.wait_open(app)
            app.wait_until(lambda: app.find_all(role="label", name=re.compile("^Nothing read yet")) != [],
                           timeout=30, what="the page saying nothing is read")
            self.assertEqual(self.rows(app), [])
            app.click(app.find(role="push button", name="Kinds of code"))
            app.click(app.find(role="check box", name=re.compile("^QR, Micro QR and rMQR")))
            app.press_key("Escape")
            app.wait_until(lambda: any("example.org/kinds" in r for r in self.rows(app)), timeout=30,
                           what="the code read once QR codes are on again")

    def test_a_pasted_sealed_message_opens_with_its_passphrase(self):
        with open(self.path("pass.txt"), "w") as f:
            f.write(PASSPHRASE)
        self.qrseal("encode", "--seal", "--passphrase-file", self.path("pass.txt"), "-o", self.path("sealed.png"), SECRET)
        out = self.qrseal("scan", "--json", "--no-store", self.path("sealed.png"), check=False).stdout.decode()
        symbols = [json.loads(line) for line in out.splitlines() if '"bytes_base64"' in line]
        sealed_text = [base64.b64decode(symbol["bytes_base64"]).decode() for symbol in symbols]
        self.assertTrue(len(sealed_text) == 1 and sealed_text[0].startswith("QRSEAL"), out)
        with self.app("--device", self.path("no-camera")) as app:
            offer = subprocess.Popen(["/usr/bin/python3", "-c", OFFER_CLIPBOARD, sealed_text[0]],
                                     env=self.env, stdout=subprocess.PIPE)
            self.addCleanup(offer.kill)
            self.assertEqual(offer.stdout.readline().strip(), b"ready")
            app.click(app.find(role="push button", name="Paste a picture or text"))
            dialog = app.dialog()
            self.open_with_passphrase(app, dialog)
        out = self.qrseal("inbox", "list", "--json").stdout.decode()
        self.assertEqual([json.loads(line)["kind"] for line in out.splitlines() if line.strip()], ["sealed"])

    def test_a_region_drawn_on_the_preview_is_all_that_is_read(self):
        self.qrseal("encode", "-o", self.path("left.png"), "left of the page")
        self.qrseal("encode", "-o", self.path("right.png"), "right of the page")
        frame = harness.compose_frame(1280, 720, [(self.path("left.png"), 80, 160, 400),
                                                  (self.path("right.png"), 760, 160, 400)])
        with self.app("--stream", "-", stdin="pipe") as app:
            # A bare wall until the region is drawn (however long a loaded machine takes to
            # draw it), then the two codes.
            wall = harness.blank_frame(1280, 720)
            drawn = threading.Event()

            def segments():
                while not drawn.is_set():
                    yield wall, 1
                yield frame, 3000
            app.feed(harness.y4m.chunks(1280, 720, segments()), fps=30, close=False)
            self.wait_open(app)
            app.click(app.find(role="push button", name="Draw a region to scan"))
            area = app.find(name="Outlines of what is read")
            ext = area.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
            ox, oy, _, _ = harness.window_on_screen(app.window_of(area))
            # Over the left half of the preview only.
            x0, y0 = ox + ext.x + 4, oy + ext.y + 4
            x1, y1 = ox + ext.x + ext.width * 45 // 100, oy + ext.y + ext.height - 4
            pyatspi.Registry.generateMouseEvent(x0, y0, "b1p")
            for i in range(1, 11):
                pyatspi.Registry.generateMouseEvent(x0 + (x1 - x0) * i // 10, y0 + (y1 - y0) * i // 10, "abs")
                time.sleep(0.03)
            pyatspi.Registry.generateMouseEvent(x1, y1, "b1r")
            app.wait_until(lambda: "Only what is inside the region drawn is read" in area.description,
                           timeout=30, what="the region drawn")
            drawn.set()
            app.screenshot("scan-region")
            try:
                app.wait_until(lambda: any("left of the page" in r for r in self.rows(app)), timeout=90,
                               what="the code inside the region read")
            except Exception:
                app.screenshot("scan-region-end")
                raise
            time.sleep(3)
            rows = self.rows(app)
        self.assertFalse(any("right of the page" in r for r in rows), rows)

    def test_an_image_file_dropped_on_the_page_is_read(self):
        """A file dragged from another window (as from a file manager) and dropped on the scan
        page, with the mouse: its code is outlined and listed, even with no camera."""
        self.qrseal("encode", "-o", self.path("dropped.png"), "https://example.org/dropped")
        source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "drag_source.py")
        with self.app("--device", self.path("no-such-camera")) as app:
            app.find(role="label", name=re.compile("^Cannot read|^No camera"), timeout=30)
            target = harness.window_on_screen(app.window)
            with harness.App([source, self.path("dropped.png")], env=self.env, binary=sys.executable) as drag:
                label = drag.find(role="label", name="Drag me")
                sx, sy, _, _ = harness.window_on_screen(drag.window)
                ext = label.queryComponent().getExtents(pyatspi.WINDOW_COORDS)
                x0, y0 = sx + ext.x + ext.width // 2, sy + ext.y + ext.height // 2
                # Onto the middle of the scan page, well away from the small source window.
                x1, y1 = target[0] + target[2] * 2 // 3, target[1] + target[3] * 2 // 3
                pyatspi.Registry.generateMouseEvent(x0, y0, "abs")
                time.sleep(0.2)
                pyatspi.Registry.generateMouseEvent(x0, y0, "b1p")
                for i in range(1, 21):
                    pyatspi.Registry.generateMouseEvent(x0 + (x1 - x0) * i // 20, y0 + (y1 - y0) * i // 20, "abs")
                    time.sleep(0.05)
                time.sleep(0.5)
                pyatspi.Registry.generateMouseEvent(x1, y1, "b1r")
                app.wait_until(lambda: any("https://example.org/dropped" in r for r in self.rows(app)), timeout=60,
                               what="the dropped image's code listed")

    def test_a_pdf_sheet_of_parts_opened_from_the_file_chooser_rebuilds_its_message(self):
        """A printable PDF sheet of a message in parts, two codes a page, opened through "Open
        an image": every page is read, the parts come together, and the message opens."""
        # More than one code holds (random bytes in base64, which compression cannot fold),
        # so it is split: 12 parts of version 15 at most, two a page, six pages.
        message = base64.b64encode(bytes(random.Random(7).randrange(256) for _ in range(2700))).decode()
        self.qrseal("encode", "--max-version", "15", "--per-page", "2", "-o", self.path("sheet.pdf"), message)
        with self.app("--device", self.path("no-such-camera")) as app:
            app.find(role="label", name=re.compile("^Cannot read|^No camera"), timeout=30)
            app.click(app.find(role="push button", name="Open an image"))
            app.file_chooser_accept(self.path("sheet.pdf"))
            app.find(name="Content", predicate=lambda n: message in app.text_of(n), timeout=120)
            rows = self.rows(app)
            self.assertTrue(any(r.startswith("Message") for r in rows), rows)
        out = self.qrseal("inbox", "list", "--json", "--limit", "0").stdout.decode()
        texts = [json.loads(line).get("text") for line in out.splitlines() if line.strip()]
        self.assertIn(message, texts)

    def test_a_wifi_code_joins_its_network_through_networkmanager(self):
        """A Wi-Fi code's "Join network" hands the network to NetworkManager over D-Bus (here a
        stand-in on the test's bus that records what it is asked): the SSID, WPA with its
        password. Without NetworkManager the page says it cannot join, and nothing breaks."""
        self.qrseal("encode", "-o", self.path("wifi.png"), "WIFI:T:WPA;S:Harbour Cafe;P:correct horse;;")
        frame = harness.compose_frame(1280, 720, [(self.path("wifi.png"), 400, 150, 400)])
        env = {"DBUS_SYSTEM_BUS_ADDRESS": os.environ["DBUS_SESSION_BUS_ADDRESS"]}
        asked = self.path("asked.json")
        fake = subprocess.Popen([sys.executable, os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                              "fake_networkmanager.py"), asked],
                                env=dict(self.env, **env), stdout=subprocess.PIPE, text=True)
        self.addCleanup(lambda: (fake.poll() is None and fake.kill(), fake.wait()))
        self.assertEqual(fake.stdout.readline().strip(), "ready")
        with self.app("--stream", "-", stdin="pipe", env=env) as app:
            app.feed(harness.y4m.chunks(1280, 720, [(frame, 3000)]), fps=30, close=False)
            app.wait_until(lambda: any(r.startswith("Wi-Fi network") for r in self.rows(app)), what="the network listed")
            self.assertFalse(any("correct horse" in r for r in self.rows(app)), "the password is listed")

            def join():
                app.click(app.find(role="list item", name=re.compile("^Wi-Fi network")))
                app.click(self.button(app, "Join network", under=app.dialog()))
            join()
            app.find(role="label", name="Joining Harbour Cafe…", timeout=30)
            app.wait_until(lambda: os.path.exists(asked), what="NetworkManager asked to join")
            with open(asked) as f:
                settings = json.load(f)
            self.assertEqual(settings["connection"]["type"], "802-11-wireless")
            self.assertEqual(bytes(settings["802-11-wireless"]["ssid"]), b"Harbour Cafe")
            self.assertEqual(settings["802-11-wireless-security"], {"key-mgmt": "wpa-psk", "psk": "correct horse"})

            # NetworkManager gone: said, and the page goes on.
            fake.kill()
            fake.wait()
            join()
            app.find(role="label", name=re.compile("^Cannot join Harbour Cafe: "), timeout=60)
            self.assertIn("Harbour Cafe", " ".join(self.rows(app)))
        self.assertNotIn("correct horse", app.log())

    def test_without_a_camera_the_page_says_what_to_do(self):
        with self.app("--device", self.path("no-such-camera")) as app:
            app.find(role="label", name=re.compile("^Cannot read|^No camera"), timeout=30)
        with self.app() as app:
            if not any(name.startswith("video") for name in os.listdir("/dev")):
                app.find(name="No camera", timeout=30)
                self.button(app, "Open an image…")
