"""The inbox page, as a person uses it: search as you type, label, pin, delete and undo; export
through the file chooser and import into a fresh inbox without losing anything; a sealed item
that stays locked until its passphrase is given, and stays sealed in the inbox file after. What
the window shows is checked, and what the `qrseal` command (or the SQLite file) reads back."""

import json
import os
import re
import sqlite3
import time
import unittest

from harness import DesktopTest, _same, children_of, name_of, role_of, states_of

SECRET = "The secret is 42"
PASSPHRASE = "correct horse"


class InboxTests(DesktopTest):
    def setUp(self):
        super().setUp()
        # The inbox a person would have after a few scans: a link, a note, a Wi-Fi network,
        # a message sealed with a passphrase, and two parts of a message of six.
        with open(self.path("pass.txt"), "w") as f:
            f.write(PASSPHRASE)
        codes = [("link.png", ["https://example.org/qrseal?x=1"]),
                 ("note.png", ["Meet at the station at 5.\nBring the blue folder."]),
                 ("wifi.png", ["WIFI:T:WPA;S:home;P:secret123;;"]),
                 ("sealed.png", ["--seal", "--passphrase-file", self.path("pass.txt"), SECRET])]
        for name, args in codes:
            self.qrseal("encode", *args, "-o", self.path(name))
        self.qrseal("encode", "--parts", "6", "a message in six parts, of which two were scanned so far",
                    "-o", self.path("parts.png"))
        for name, _ in codes:
            self.qrseal("scan", self.path(name), check=False)
        self.qrseal("scan", self.path("parts-01-of-06.png"), self.path("parts-03-of-06.png"), check=False)
        self.assertEqual(len(self.items()), 4)

    # -- what the CLI reads back

    def items(self, inbox=None):
        env = {"QRSEAL_INBOX": inbox} if inbox else None
        out = self.qrseal("inbox", "list", "--json", "--limit", "0", check=False, env=env).stdout
        return [json.loads(line) for line in out.decode().splitlines() if line.strip()]

    def item_of_kind(self, kind):
        found = [item for item in self.items() if item["kind"] == kind]
        return found[0] if found else None

    def export_lines(self, inbox):
        """An inbox's export with the ids left out (an import gives new ones)."""
        out = self.qrseal("inbox", "export", env={"QRSEAL_INBOX": inbox}).stdout.decode()
        lines = []
        for line in out.splitlines():
            record = json.loads(line)
            record.pop("id", None)
            lines.append(json.dumps(record, sort_keys=True))
        return sorted(lines)

    # -- what the window shows

    def rows(self, app):
        items = app.find(role="list", name="Items")
        return [name_of(row) for row in app.find_all(role="list item", under=items)]

    def row(self, app, pattern):
        # Found anew each time: a reload lists the items in a new list.
        return app.find(role="list item", name=re.compile(pattern))

    def select(self, app, pattern):
        row = self.row(app, pattern)
        try:  # as a screen reader selects (AT-SPI Selection), else with the mouse
            row.parent.querySelection().selectChild(row.getIndexInParent())
        except Exception:
            app.click(row, mouse=True)
        app.wait_until(lambda: "selected" in states_of(self.row(app, pattern)), what="%r selected" % pattern)

    def button(self, app, label, under=None):
        """A button by its label. GTK 4.8 names a button whose label has a mnemonic (a dialog's
        responses, a toast's) by its raw label and its label both: "_Save Save"."""
        def named(name):
            return name.replace("_", "") in (label, label + " " + label)
        return app.find(role="push button", name=named, under=under, showing=under is None)

    # -- the tests

    def test_list_search_label_pin_delete_and_undo(self):
        with self.app("--page", "inbox") as app:
            app.wait_until(lambda: len(self.rows(app)) == 4, what="the four items listed")
            names = self.rows(app)
            self.assertTrue(names[0].startswith("Sealed message:"), names)  # newest first
            self.assertTrue(any(n.startswith("Link: https://example.org/qrseal?x=1") for n in names), names)
            self.assertTrue(any(n.startswith("Text: Meet at the station at 5.⏎Bring") for n in names), names)
            waiting = app.find(role="list", name="Waiting for parts")
            app.find(role="progress bar", name="2 of 6 parts", under=waiting)
            app.screenshot("inbox-list-light")

            # Search as you type: only what matches stays.
            search = app.find(name="Search the inbox")
            app.type_into(search, "station")
            app.wait_until(lambda: len(self.rows(app)) == 1, what="one item matching 'station'")
            self.assertTrue(self.rows(app)[0].startswith("Text: Meet at the station"))
            app.type_into(search, "")
            app.wait_until(lambda: len(self.rows(app)) == 4, what="all four items again")

            # A label names the item in the list, and the CLI sees it.
            self.select(app, "^Link: ")
            app.click(self.button(app, "Label…"))
            dialog = app.dialog()
            app.type_into(app.find(name="Label", under=dialog, predicate=lambda n: "editable" in states_of(n)), "Docs")
            app.click(self.button(app, "Save", under=dialog))
            self.row(app, "^Link: Docs, ")
            self.assertEqual(self.item_of_kind("url")["label"], "Docs")

            # Pinned: marked, and listed first.
            app.click(self.button(app, "Pin"))
            app.wait_until(lambda: re.match(r"^Link: Docs, .*, pinned", self.rows(app)[0]),
                           what="the pinned link first, marked pinned")
            self.assertTrue(self.item_of_kind("url")["pinned"])
            self.button(app, "Unpin")

            # Delete: gone from the list and the inbox at once; Undo brings it back as it was.
            app.click(self.button(app, "Delete"))
            app.wait_until(lambda: not any(n.startswith("Link:") for n in self.rows(app)), what="the link gone")
            app.find(role="label", name=re.compile("^Deleted “Docs”"))
            self.assertIsNone(self.item_of_kind("url"))
            app.click(self.button(app, "Undo", under=app.window))
            app.wait_until(lambda: re.match(r"^Link: Docs, .*, pinned", self.rows(app)[0]),
                           what="the link back, labelled and pinned")
            restored = self.item_of_kind("url")
            self.assertEqual((restored["label"], restored["pinned"], restored["text"]),
                             ("Docs", True, "https://example.org/qrseal?x=1"))
            self.assertEqual(len(self.items()), 4)

    def test_export_then_import_into_a_fresh_inbox_loses_nothing(self):
        self.qrseal("inbox", "label", str(self.item_of_kind("wifi")["id"]), "Home")
        self.qrseal("inbox", "pin", str(self.item_of_kind("text")["id"]))
        for fmt in ("JSON", "CSV"):
            with self.app("--page", "inbox") as app:
                app.wait_until(lambda: len(self.rows(app)) == 4, what="the four items listed")
                app.click(self.button(app, "Export…"))
                question = app.dialog()
                app.click(self.button(app, fmt, under=question))
                app.wait_until(lambda: not any(_same(t, question) for t in children_of(app.root)),
                               what="the question gone")
                target = self.path("export." + fmt.lower())
                app.file_chooser_accept(target)
                app.find(role="label", name="Exported the inbox to export.%s" % fmt.lower())
                self.assertEqual(os.stat(target).st_mode & 0o777, 0o600)  # it holds what the inbox holds

        for fmt in ("json", "csv"):
            fresh = self.path("fresh-%s.sqlite" % fmt)
            with self.app("--page", "inbox", env={"QRSEAL_INBOX": fresh}) as app:
                app.find(name="The Inbox Is Empty", showing=True)
                app.screenshot("inbox-empty-light")
                app.click(self.button(app, "Import…"))
                app.file_chooser_accept(self.path("export." + fmt))
                app.find(role="label", name="Imported 4 items, 2 waiting parts")
                app.wait_until(lambda: len(self.rows(app)) == 4, what="the four items imported")
                self.assertTrue(re.match(r"^Text: .*, pinned", self.rows(app)[0]), self.rows(app))
                self.row(app, "^Wi-Fi network: Home, ")
                app.find(role="progress bar", name="2 of 6 parts")
                # The same file again adds nothing, and says so.
                app.click(self.button(app, "Import…"))
                app.file_chooser_accept(self.path("export." + fmt))
                app.find(role="label", name="Imported 0 items, 4 were there already")
            self.assertEqual(self.export_lines(fresh), self.export_lines(self.env["QRSEAL_INBOX"]))

    def test_a_sealed_item_stays_locked_until_its_passphrase_and_sealed_in_the_inbox(self):
        with self.app("--page", "inbox") as app:
            self.select(app, "^Sealed message: ")
            app.find(role="label", name=re.compile("^Sealed. Unlock it"), showing=True)
            self.assertFalse(app.find_all(predicate=lambda n: SECRET in app.text_of(n)))

            # A wrong passphrase opens nothing and asks again, saying why.
            app.click(self.button(app, "Unlock…"))
            dialog = app.dialog()
            entry = app.find(name="Passphrase", under=dialog, predicate=lambda n: "editable" in states_of(n))
            app.type_into(entry, "wrong horse", keys=True)
            app.click(self.button(app, "Open", under=dialog))
            why = app.find(role="label", name=re.compile("^Wrong key or passphrase"), timeout=60)
            dialog = app.window_of(why)
            self.assertFalse(app.find_all(predicate=lambda n: SECRET in app.text_of(n)))

            entry = app.find(name="Passphrase", under=dialog, predicate=lambda n: "editable" in states_of(n))
            app.type_into(entry, PASSPHRASE, keys=True)
            app.press_key("Return")
            content = app.find(name="Content", predicate=lambda n: SECRET in app.text_of(n), timeout=60)
            self.assertTrue(app.is_shown(content))
            app.find(role="label", name="Opened for now: the inbox keeps it sealed.")
            app.screenshot("inbox-opened-light")

            # Another item, then back: locked again (the opened text was never kept).
            self.select(app, "^Link: ")
            self.select(app, "^Sealed message: ")
            app.find(role="label", name=re.compile("^Sealed. Unlock it"), showing=True)

        sealed = self.item_of_kind("sealed")
        self.assertIsNotNone(sealed)
        self.assertNotIn(SECRET, json.dumps(sealed))
        db = sqlite3.connect(self.env["QRSEAL_INBOX"])
        for (text, data) in db.execute("SELECT text, bytes FROM items"):
            self.assertNotIn(SECRET, text or "")
            self.assertNotIn(SECRET.encode(), data or b"")
        db.close()

    def test_by_keyboard_search_with_ctrl_f_filter_by_kind_and_delete_with_the_delete_key(self):
        with self.app("--page", "inbox") as app:
            app.wait_until(lambda: len(self.rows(app)) == 4, what="the four items listed")
            self.select(app, "^Link: ")
            app.focus(self.row(app, "^Link: "))
            app.press_key("ctrl+f")
            search = app.find(name="Search the inbox")
            app.wait_until(lambda: "focused" in states_of(search), what="the search entry focused by ctrl+F")
            app.type_text("blue folder")
            app.wait_until(lambda: len(self.rows(app)) == 1, what="one item matching 'blue folder'")
            app.type_into(search, "")
            app.wait_until(lambda: len(self.rows(app)) == 4, what="all four items again")

            # The kind filter, from its drop-down: Link is the third kind after All Kinds.
            kinds = app.find(role="combo box", name="Kind")
            for downs, listed in ((3, lambda names: len(names) == 1 and names[0].startswith("Link: ")),
                                  (0, lambda names: len(names) == 4)):
                app.click(app.find(role="push button", under=kinds))
                app.find(role="list item", under=kinds, predicate=lambda n: "focused" in states_of(n))
                if downs == 0:
                    app.press_key("Home")
                for _ in range(downs):
                    app.press_key("Down")
                app.press_key("Return")
                app.wait_until(lambda: listed(self.rows(app)), what="the list filtered by kind")

            def wifi_focused():
                # Clicked again while a reload still replaces the list under the pointer.
                if app.focused() is not None and name_of(app.focused()).startswith("Wi-Fi network: "):
                    return True
                app.click(self.row(app, "^Wi-Fi network: "), mouse=True)
                time.sleep(0.5)
                return False
            app.wait_until(wifi_focused, what="the keyboard focus on the Wi-Fi item")
            app.press_key("Delete")
            app.wait_until(lambda: not any(n.startswith("Wi-Fi") for n in self.rows(app)), what="the Wi-Fi item gone")
            self.assertIsNone(self.item_of_kind("wifi"))
            # The keyboard focus stays in the list, on the item after the one deleted.
            app.wait_until(lambda: app.focused() is not None and role_of(app.focused()) == "list item"
                           and "selected" in states_of(app.focused()), what="the focus on the next item")
            app.click(self.button(app, "Undo", under=app.window))
            self.row(app, "^Wi-Fi network: home, ")
            self.assertIsNotNone(self.item_of_kind("wifi"))

    def test_a_file_carried_in_parts_is_saved_through_the_file_chooser(self):
        with open(self.path("hello.txt"), "w") as f:
            f.write("hello file\nline two\n")
        self.qrseal("encode", "-i", self.path("hello.txt"), "--parts", "2", "-o", self.path("file.png"))
        self.qrseal("scan", self.path("file-01-of-02.png"), check=False)
        with self.app("--page", "inbox") as app:
            self.select(app, "^File: ")
            app.find(role="label", name=re.compile("^A file, hello.txt, 20 bytes"), showing=True)
            app.click(self.button(app, "Save File…"))
            app.file_chooser_accept(self.path("saved.txt"))
            app.find(role="label", name="Saved saved.txt")
        with open(self.path("saved.txt")) as f:
            self.assertEqual(f.read(), "hello file\nline two\n")

    def test_dark_style(self):
        with self.app("--page", "inbox", "--style", "dark") as app:
            self.select(app, "^Wi-Fi network: ")
            app.find(role="label", name=re.compile("^ssid: home"), showing=True)
            app.screenshot("inbox-detail-dark")


if __name__ == "__main__":
    unittest.main()
