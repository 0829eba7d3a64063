"""The compose page: a note sealed with a passphrase is saved as a PNG that `qrseal scan`
opens with the passphrase and that zbarimg reads as the same symbol; the two passphrase
fields must agree; a large file is previewed as its parts; light and dark screenshots."""

import json
import os
import re
import subprocess
import unittest

from harness import DesktopTest


def having(text):
    """A name holding text (GTK 4.8 names a button by its label and its mnemonic label both)."""
    return re.compile(re.escape(text))


CAPTION = re.compile(r"^(Plain|Sealed|Preview without the seal|Type a message|To seal|Cannot)")


# Reads the clipboard's picture into a PNG file, as another GTK app pasting it would.
READ_CLIPBOARD = """
import sys, gi
gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gtk, Gdk, GLib
Gtk.init()
loop = GLib.MainLoop()
clipboard = Gdk.Display.get_default().get_clipboard()
def done(source, result):
    clipboard.read_texture_finish(result).save_to_png(sys.argv[1])
    loop.quit()
clipboard.read_texture_async(None, done)
GLib.timeout_add(10000, loop.quit)
loop.run()
"""


class ComposeTests(DesktopTest):
    def compose(self, app):
        app.wait_until(lambda: app.current_page() == "Compose", what="the compose page")

    def caption(self, app):
        # A label is named by its text: the preview's caption starts with what it shows.
        return app.text_of(app.find(role="label", name=CAPTION, showing=True))

    def test_sealed_note_saved_as_png_reads_back(self):
        note = "meet at the north gate at nine"
        png = self.path("note.png")
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.type_into(app.find(name="Message text", showing=True), note)
            app.wait_until(lambda: "one code" in self.caption(app), what="the plain preview")
            app.click(app.find(role="check box", name=having("Passphrase"), showing=True))
            app.wait_until(lambda: "sealed with the passphrase when saved" in self.caption(app),
                           what="the preview saying the seal waits for the save")
            first = app.find(role="password text", name=re.compile("^Passphrase$"), showing=True)
            again = app.find(role="password text", name=re.compile("^Passphrase again$"), showing=True)
            # Two passphrases that differ are said to differ.
            app.type_into(first, "correct horse", keys=True)
            app.type_into(again, "correct hose", keys=True)
            app.find(role="label", name="The passphrases differ.", showing=True)
            app.type_into(again, "correct horse", keys=True)
            app.find_gone(role="label", name="The passphrases differ.")
            app.click(app.find(role="push button", name=having("Save as PNG image"), showing=True))
            app.file_chooser_accept(png)
            app.wait_until(lambda: os.path.exists(png), what="the PNG written")
            app.wait_until(lambda: self.caption(app).startswith("Sealed with the passphrase"),
                           what="the preview showing the sealed code")
            # The passphrase fields were emptied after use.
            self.assertEqual(app.text_of(first), "")
            self.assertEqual(app.text_of(again), "")
            app.screenshot("compose-sealed")
        opened = self.qrseal("scan", png, env={"QRSEAL_PASSPHRASE": "correct horse"})
        self.assertIn(note, opened.stdout.decode())
        locked = self.qrseal("scan", "--json", png, check=False)
        symbol = json.loads(locked.stdout.decode().splitlines()[0])
        self.assertTrue(symbol["text"].startswith("QRSEAL1:"), symbol)
        self.assertNotIn(note, locked.stdout.decode())
        zbar = subprocess.run(["zbarimg", "-q", "--raw", png], capture_output=True, text=True)
        self.assertEqual(zbar.stdout.strip(), symbol["text"])

    def test_large_file_shows_its_parts(self):
        big = self.path("big.bin")
        with open(big, "wb") as f:
            f.write(os.urandom(6000))
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.click(app.find(role="check box", name=having("File"), showing=True))
            app.click(app.find(role="push button", name=having("Choose a file…"), showing=True))
            app.file_chooser_accept(big)
            app.wait_until(lambda: re.search(r"\d+ parts", self.caption(app)), what="a preview in parts")
            count = int(re.search(r"(\d+) parts", self.caption(app)).group(1))
            self.assertGreater(count, 1)
            shown = app.find(role="label", name=re.compile(r"^part \d+ of \d+$"), showing=True)
            self.assertEqual(app.text_of(shown), "part 1 of %d" % count)
            app.click(app.find(role="push button", name=having("Next part"), showing=True))
            app.wait_until(lambda: app.text_of(shown) == "part 2 of %d" % count, what="the second part shown")
            app.screenshot("compose-parts")
            # Play cycles the parts by itself; the button then pauses them.
            app.click(app.find(role="push button", name=having("Play the parts"), showing=True))
            app.wait_until(lambda: app.text_of(shown) == "part 1 of %d" % count, what="the parts played round")
            app.click(app.find(role="push button", name=having("Pause the parts"), showing=True))
            parts = [self.path("big-%02d-of-%02d.png" % (i, count)) for i in range(1, count + 1)]
            # A part's name already taken: nothing is written, and the dialog names that file.
            with open(parts[1], "wb") as f:
                f.write(b"someone else's")
            app.click(app.find(role="push button", name=having("Save as PNG image"), showing=True))
            app.file_chooser_accept(self.path("big.png"))
            dialog = app.dialog(name=having("Not saved"))
            app.find(name=having(os.path.basename(parts[1]) + ": file exists"), under=dialog)
            app.click(app.find(role="push button", name=having("Close"), under=dialog))
            self.assertEqual([p for p in parts if os.path.exists(p)], [parts[1]])
            with open(parts[1], "rb") as f:
                self.assertEqual(f.read(), b"someone else's")
            os.remove(parts[1])
            # Saved as PNG: one file a part, named as qrseal encode names them.
            app.click(app.find(role="push button", name=having("Save as PNG image"), showing=True))
            app.file_chooser_accept(self.path("big.png"))
            app.wait_until(lambda: all(os.path.exists(p) for p in parts), what="the %d part files" % count)
            # And as one animated GIF.
            app.click(app.find(role="push button", name=having("Save as GIF animation"), showing=True))
            app.file_chooser_accept(self.path("big.gif"))
            app.wait_until(lambda: os.path.exists(self.path("big.gif")), what="the GIF")
        self.assertFalse(os.path.exists(self.path("big.png")))
        with open(self.path("big.gif"), "rb") as f:
            self.assertEqual(f.read(6), b"GIF89a")
        # The parts rebuild the file, with its name.
        received = self.path("received")
        os.makedirs(received)
        self.qrseal("scan", "-o", received, *parts)
        with open(os.path.join(received, "big.bin"), "rb") as got, open(big, "rb") as sent:
            self.assertEqual(got.read(), sent.read())
        # The CLI splits the same file into as many parts.
        out = self.path("cli.png")
        cli = self.qrseal("encode", "--input", big, "-o", out)
        self.assertIn("split into %d parts" % count, cli.stderr.decode())

    def test_sealed_to_contacts_opens_with_an_identity(self):
        identity = self.path("bob.txt")
        self.qrseal("keygen", "--x25519", "-o", identity)
        bob = [line.split(": ")[1].strip() for line in open(identity) if line.startswith("# public key:")][0]
        self.qrseal("contacts", "add", "bob", bob)
        other = self.path("carol.txt")
        self.qrseal("keygen", "--x25519", "-o", other)
        carol = [line.split(": ")[1].strip() for line in open(other) if line.startswith("# public key:")][0]
        self.qrseal("contacts", "add", "carol", carol)
        png = self.path("to-both.png")
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.type_into(app.find(name="Message text", showing=True), "for bob and carol")
            app.click(app.find(role="check box", name=having("Contacts"), showing=True))
            app.wait_until(lambda: self.caption(app).startswith("To seal: tick"), what="the preview asking for contacts")
            app.click(app.find(role="check box", name="bob", showing=True))
            app.click(app.find(role="check box", name="carol", showing=True))
            app.wait_until(lambda: self.caption(app).startswith("Sealed (to bob, carol)"), what="the sealed preview")
            app.click(app.find(role="push button", name=having("Save as PNG image"), showing=True))
            app.file_chooser_accept(png)
            app.wait_until(lambda: os.path.exists(png), what="the PNG written")
            # Full screen: a window of its own, closed by Escape.
            app.click(app.find(role="push button", name=having("Full screen"), showing=True))
            app.dialog(name="qrseal code")
            app.press_key("Escape")
            app.wait_until(lambda: not [t for t in app.find_all(role=None, name="qrseal code") if t is not app.window],
                           what="the full screen window closed")
        for key in (identity, other):
            self.qrseal("keys", "rm", "id", check=False)
            self.qrseal("keys", "add", key, "--name", "id")
            opened = self.qrseal("scan", png)
            self.assertIn("for bob and carol", opened.stdout.decode())

    def test_sealed_with_a_key_from_the_keyring(self):
        key = self.path("work.key")
        self.qrseal("keygen", "-o", key)
        self.qrseal("keys", "add", key)
        png = self.path("keyed.png")
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.type_into(app.find(name="Message text", showing=True), "sealed with the work key")
            app.click(app.find(role="check box", name=having("Key from the keyring"), showing=True))
            app.wait_until(lambda: self.caption(app).startswith("Sealed (with key 'work')"), what="the sealed preview")
            app.click(app.find(role="push button", name=having("Save as PNG image"), showing=True))
            app.file_chooser_accept(png)
            app.wait_until(lambda: os.path.exists(png), what="the PNG written")
        self.assertIn("sealed with the work key", self.qrseal("scan", png).stdout.decode())
        self.qrseal("keys", "rm", "work")
        self.assertNotIn("sealed with the work key", self.qrseal("scan", png, check=False).stdout.decode())

    def test_every_control_is_reached_by_keyboard(self):
        # A group of radio buttons is one stop of Tab; the arrows move within it.
        wanted = ["Message text", "None: a plain code", "Save as PNG image",
                  "Save as SVG image", "Save as PDF sheet", "Save as GIF animation", "Copy image", "Full screen",
                  "Parts per second"]
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.focus(app.find(name="Message text", showing=True))
            reached = set()
            for _ in range(40):
                node = app.focused()
                if node is not None:
                    reached.update(w for w in wanted if w in (node.name or ""))
                if reached == set(wanted):
                    break
                app.press_key("Tab")
            self.assertEqual(set(wanted) - reached, set(), "controls Tab never reached")
            none = app.find(role="check box", name=having("None: a plain code"), showing=True)
            app.focus(none)
            app.press_key("Down")
            passphrase = app.find(role="check box", name=having("Passphrase"), showing=True)
            app.wait_until(lambda: "checked" in app.states(passphrase), what="Down choosing the passphrase seal")

    def test_copy_image_puts_the_code_on_the_clipboard(self):
        pasted = self.path("pasted.png")
        with self.app("--page", "compose") as app:
            self.compose(app)
            app.type_into(app.find(name="Message text", showing=True), "from the clipboard")
            app.wait_until(lambda: "one code" in self.caption(app), what="the preview")
            app.click(app.find(role="push button", name=having("Copy image"), showing=True))
            app.find(name=having("Copied the code"))
            subprocess.run(["/usr/bin/python3", "-c", READ_CLIPBOARD, pasted], env=self.env, timeout=30, check=True)
        zbar = subprocess.run(["zbarimg", "-q", "--raw", pasted], capture_output=True, text=True)
        self.assertEqual(zbar.stdout.strip(), "from the clipboard")

    def test_light_and_dark(self):
        for style in ("light", "dark"):
            with self.app("--page", "compose", "--style", style) as app:
                self.compose(app)
                app.type_into(app.find(name="Message text", showing=True), "hello")
                app.wait_until(lambda: "one code" in self.caption(app), what="the preview")
                app.screenshot("compose-typed-%s" % style)


if __name__ == "__main__":
    unittest.main()
