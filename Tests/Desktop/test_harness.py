"""The harness itself, against a small GTK 4 window of our own (fixture_app.py): finding,
typing, clicking, keys and GTK's file chooser work before any page test relies on them."""

import os
import re
import sys
import unittest

import harness
from harness import App, DesktopTest, HarnessError

FIXTURE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixture_app.py")


class HarnessTests(DesktopTest):
    def fixture(self):
        return App([FIXTURE], env=self.env, binary=sys.executable)

    def test_finds_types_and_clicks(self):
        with self.fixture() as app:
            entry = app.find(role="text", name="Message")
            app.type_into(entry, "typed through AT-SPI")
            app.click(app.find(role="push button", name="Copy"))
            shown = app.find(role="label", name="Shown")
            app.wait_until(lambda: app.text_of(shown) == "shown: typed through AT-SPI", what="the label")

    def test_types_with_keys(self):
        with self.fixture() as app:
            entry = app.find(role="text", name="Message")
            shown = app.find(role="label", name="Shown")
            app.type_into(entry, "Key by key: A-Z & 42!", keys=True)
            app.wait_until(lambda: app.text_of(entry) == "Key by key: A-Z & 42!",
                           what="the typed text (it is %r)" % app.text_of(entry))
            app.press_key("Tab")
            app.wait_until(lambda: "focused" in app.states(app.find(role="push button", name="Copy")),
                           what="the focus on Copy after Tab")
            app.press_key("space")
            app.wait_until(lambda: app.text_of(shown) == "shown: Key by key: A-Z & 42!", what="the label")

    def test_mouse_click(self):
        with self.fixture() as app:
            app.type_into(app.find(role="text", name="Message"), "clicked")
            shown = app.find(role="label", name="Shown")
            app.click(app.find(role="push button", name="Copy"), mouse=True)
            app.wait_until(lambda: app.text_of(shown) == "shown: clicked", what="the label")

    def test_file_chooser_saves_and_opens(self):
        target = self.path("saved note.txt")
        with self.fixture() as app:
            app.type_into(app.find(role="text", name="Message"), "kept in a file")
            app.click(app.find(role="push button", name="Save…"))
            app.file_chooser_accept(target)
            app.wait_until(lambda: os.path.exists(target), what="the saved file")
            with open(target) as f:
                self.assertEqual(f.read(), "kept in a file")
            app.type_into(app.find(role="text", name="Message"), "")
            app.click(app.find(role="push button", name="Open…"))
            app.file_chooser_accept(target)
            entry = app.find(role="text", name="Message")
            app.wait_until(lambda: app.text_of(entry) == "kept in a file", what="the opened file's text")

    def test_a_missing_widget_names_what_is_there(self):
        with self.fixture() as app:
            with self.assertRaises(HarnessError) as caught:
                app.find(role="push button", name="No such button", timeout=0.5)
            self.assertIn("push button 'Copy'", str(caught.exception))
            self.assertIn("No such button", str(caught.exception))
            app.find(role="push button", name=re.compile("^Op"))

    def test_screenshot(self):
        with self.fixture() as app:
            path = app.screenshot(self.path("fixture.png"))
            size = harness.subprocess.run(["identify", "-format", "%w %h", path], capture_output=True,
                                          text=True).stdout.split()
            self.assertEqual(size, ["640", "400"])


    def test_y4m_streams_read_back(self):
        # The streams the scan tests feed the app: qrseal reads the code in them.
        png = self.path("link.png")
        self.qrseal("encode", "-o", png, "https://example.org/y4m")
        frame = harness.compose_frame(640, 360, [(png, 40, 40, 240)])
        path = harness.y4m.stream(self.path("s.y4m"), 640, 360,
                                  [(harness.y4m.blank_frame(640, 360), 3), (frame, 6)])
        read = self.qrseal("scan", "--no-store", "--raw", "--stream", path)
        self.assertEqual(read.stdout.decode(), "https://example.org/y4m\n")
        chunks = list(harness.y4m.chunks(640, 360, [(harness.y4m.blank_frame(640, 360), 3), (frame, 6)]))
        self.assertEqual(len(chunks), 10)
        with open(path, "rb") as f:
            self.assertEqual(b"".join(chunks), f.read())


if __name__ == "__main__":
    unittest.main()
