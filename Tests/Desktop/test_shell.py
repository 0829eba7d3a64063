"""The window around the pages: it opens, its four pages are reached by keyboard through
switcher buttons that have names, each page in light and dark style is saved as a screenshot
(.build/desktop-screenshots/PAGE-STYLE.png), and the command line behaves as the CLI's."""

import os
import subprocess
import unittest

import harness
from harness import DesktopTest, HarnessError, states_of

PAGES = [("scan", "Scan"), ("inbox", "Inbox"), ("compose", "Compose"), ("keys", "Keys")]


def mean_brightness(path):
    out = subprocess.run(["convert", path, "-colorspace", "gray", "-format", "%[fx:mean]", "info:"],
                         capture_output=True, text=True).stdout
    return float(out)


class ShellTests(DesktopTest):
    def test_window_opens_with_the_four_pages(self):
        with self.app() as app:
            self.assertEqual(app.window.name, "qrseal")
            tabs = [tab.name for tab in app.find_all(role="page tab")]
            self.assertEqual(tabs, [title for _, title in PAGES])
            self.assertEqual(app.current_page(), "Scan")
            # Closing the window ends the app, with status 0.
            self.assertEqual(app.close(), 0, app.log())

    def test_pages_are_reached_by_keyboard(self):
        with self.app() as app:
            app.find(role="page tab", name="Scan")
            for _, title in PAGES[1:] + PAGES[:1]:
                tab = app.page_tab(title)
                # Tab (then shift+Tab) until the page's switcher button has the focus, as a
                # person without a mouse would.
                for key in ["Tab"] * 12 + ["shift+Tab"] * 24:
                    if "focused" in states_of(tab):
                        break
                    app.press_key(key)
                app.wait_until(lambda: "focused" in states_of(tab),
                               what="the keyboard focus on the %s switcher button" % title)
                app.press_key("space")
                app.wait_until(lambda: app.current_page() == title, what="the %s page shown" % title)

    def scene(self):
        """Frames for the scan page's screenshots: a link's code and a card of text."""
        code = self.path("link.png")
        self.qrseal("encode", "-o", code, "https://example.org/qrseal")
        card = harness.y4m.text_card(self.path("card.png"), "Meet at the north gate at 10:30")
        return harness.compose_frame(1280, 720, [(code, 120, 150, 420), (card, 680, 280, None)])

    def test_every_page_in_light_and_dark(self):
        brightness = {}
        frame = self.scene()
        for page, title in PAGES:
            for style in ("light", "dark"):
                # The scan page is shown scanning a stream, as a person would see it.
                stream = ["--stream", "-"] if page == "scan" else []
                with self.app("--page", page, "--style", style, *stream,
                              stdin="pipe" if stream else None) as app:
                    app.wait_until(lambda: app.current_page() == title, what="the %s page" % title)
                    if stream:
                        app.feed(harness.y4m.chunks(1280, 720, [(frame, 600)]), fps=30, close=False)
                        try:
                            app.find(role="list item", timeout=15)
                        except HarnessError:
                            pass  # the scan tests check what is read; this is a picture
                    path = app.screenshot("%s-%s" % (page, style))
                    self.assertTrue(os.path.getsize(path) > 0)
                    brightness[page, style] = mean_brightness(path)
        for page, _ in PAGES:
            self.assertGreater(brightness[page, "light"], brightness[page, "dark"] + 0.2,
                               "the %s page is not darker in dark style: %r" % (page, brightness))

    def test_help_and_usage_errors(self):
        help = self.run_app("--help")
        self.assertEqual(help.returncode, 0, help.stderr)
        self.assertIn("usage: qrseal-desktop", help.stdout)
        for option in ("--stream", "--device", "--inbox", "--style", "--page"):
            self.assertIn(option, help.stdout)
        bad = self.run_app("--no-such-option")
        self.assertEqual(bad.returncode, 64)
        self.assertIn("--no-such-option", bad.stderr)
        self.assertTrue(bad.stderr.startswith("qrseal-desktop: error: "), bad.stderr)
        self.assertEqual(bad.stdout, "")
        for args, named in ((["--style", "sepia"], "sepia"), (["--page", "nowhere"], "nowhere"),
                            (["--stream"], "--stream")):
            result = self.run_app(*args)
            self.assertEqual(result.returncode, 64, "%s: %s" % (args, result.stderr))
            self.assertIn(named, result.stderr)


if __name__ == "__main__":
    unittest.main()
