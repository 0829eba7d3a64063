"""The keys page: an identity generated in the app is in the CLI's keyring and its
recipient code is shown (and reads back as its public key); a contact pasted as age1… is in
the CLI's contacts; a bad key is refused with a clear error."""

import re
import subprocess
import unittest

from harness import DesktopTest


def having(text):
    """A name holding text (GTK 4.8 names a button by its label and its mnemonic label both)."""
    return re.compile(re.escape(text))


class KeysTests(DesktopTest):
    def keys(self, app):
        app.wait_until(lambda: app.current_page() == "Keys", what="the keys page")

    def test_generate_an_identity_and_show_its_code(self):
        with self.app("--page", "keys") as app:
            self.keys(app)
            app.type_into(app.find(role="text", name="Name of the new key", showing=True), "me")
            app.click(app.find(role="push button", name=having("Generate"), showing=True))
            app.find(name=re.compile(r"^me, identity · "), showing=True)
            # A label is named by its text: the public key itself.
            key = app.find(role="label", name=re.compile(r"^age1[0-9a-z]{58}$"), showing=True)
            recipient = app.text_of(key)
            app.screenshot("keys-identity")
        listed = self.qrseal("keys", "list").stdout.decode()
        self.assertIn("me", listed)
        self.assertIn(recipient, listed)
        # The code shown is the recipient's: keys show --qr draws the same, and zbar reads it.
        png = self.path("me.png")
        self.qrseal("keys", "show", "me", "--qr", "-o", png)
        zbar = subprocess.run(["zbarimg", "-q", "--raw", png], capture_output=True, text=True)
        self.assertEqual(zbar.stdout.strip().lower(), recipient)

    def test_paste_a_contact_and_refuse_a_bad_key(self):
        identity = self.path("alice.txt")
        self.qrseal("keygen", "--x25519", "-o", identity)
        alice = [line.split(": ")[1] for line in open(identity) if line.startswith("# public key:")][0]
        with self.app("--page", "keys") as app:
            self.keys(app)
            name = app.find(role="text", name="Contact's name", showing=True)
            key = app.find(role="text", name="Public key (age1…)", showing=True)
            add = app.find(role="push button", name=having("Add contact"), showing=True)
            app.type_into(name, "alice")
            app.type_into(key, "age1notakey")
            app.click(add)
            problem = app.find(role="label", name=having("not a public key"), showing=True)
            self.assertIn("age1 followed by 58 letters", app.text_of(problem))
            app.screenshot("keys-bad-contact")
            app.type_into(key, alice)
            app.click(add)
            app.find(name=re.compile(r"^alice, "), showing=True)
        self.assertIn(alice, self.qrseal("contacts", "list").stdout.decode())

    def test_a_contact_from_a_picture_of_their_code(self):
        identity = self.path("dave.txt")
        self.qrseal("keygen", "--x25519", "-o", identity)
        self.qrseal("keys", "add", identity, "--name", "dave")
        code = self.path("dave-code.png")
        self.qrseal("keys", "show", "dave", "--qr", "-o", code)
        dave = [line.split(": ")[1].strip() for line in open(identity) if line.startswith("# public key:")][0]
        plain = self.path("plain.png")
        self.qrseal("encode", "not a key", "-o", plain)
        with self.app("--page", "keys") as app:
            self.keys(app)
            button = app.find(role="push button", name=having("From an image of their code"), showing=True)
            app.click(button)
            app.file_chooser_accept(plain)
            app.find(role="label", name=having("no public key (age1…) in the code found"), showing=True)
            app.click(button)
            app.file_chooser_accept(code)
            key = app.find(role="text", name="Public key (age1…)", showing=True)
            app.wait_until(lambda: app.text_of(key) == dave, what="the key read from the picture")
            app.type_into(app.find(role="text", name="Contact's name", showing=True), "dave")
            app.click(app.find(role="push button", name=having("Add contact"), showing=True))
            app.find(name=re.compile(r"^dave, "), showing=True)
        self.assertIn(dave, self.qrseal("contacts", "list").stdout.decode())

    def test_add_a_key_file_then_remove_it_after_asking(self):
        key = self.path("work.key")
        self.qrseal("keygen", "-o", key)
        with self.app("--page", "keys") as app:
            self.keys(app)
            app.click(app.find(role="push button", name=having("Add a key file…"), showing=True))
            app.file_chooser_accept(key)
            app.find(name=re.compile(r"^work, key file · \d{4} \d{4} \d{4} \d{4}"), showing=True)
            self.assertIn("work", self.qrseal("keys", "list").stdout.decode())
            app.click(app.find(role="push button", name=having("Remove key work"), showing=True))
            dialog = app.dialog(name=having("Remove key work?"))
            app.click(app.find(role="push button", name=having("Cancel"), under=dialog))
            app.find(name=re.compile(r"^work, key file"), showing=True)
            app.click(app.find(role="push button", name=having("Remove key work"), showing=True))
            dialog = app.dialog(name=having("Remove key work?"))
            app.click(app.find(role="push button", name=having("Remove"), under=dialog))
            app.find_gone(name=re.compile(r"^work, key file"))
        self.assertNotIn("work", self.qrseal("keys", "list", check=False).stdout.decode())

    def test_light_and_dark(self):
        self.qrseal("keygen", "--x25519", "-o", self.path("id.txt"))
        self.qrseal("keys", "add", self.path("id.txt"), "--name", "me")
        for style in ("light", "dark"):
            with self.app("--page", "keys", "--style", style) as app:
                self.keys(app)
                app.find(role="label", name=re.compile(r"^age1"), showing=True)
                app.screenshot("keys-%s" % style)


if __name__ == "__main__":
    unittest.main()
