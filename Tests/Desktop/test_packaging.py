"""The app as a desktop installs it: the launcher and the AppStream metainfo pass their
validators, the icons draw, and the qrseal-desktop package `make deb` built (named by
QRSEAL_DESKTOP_DEB; `make test` passes it) depends on qrseal of its version and on GTK, and
its app opens its window with the Swift toolchain out of reach."""

import os
import re
import shutil
import subprocess
import tempfile
import unittest
import xml.etree.ElementTree as ET

from harness import CLI, ROOT, App, DesktopTest

DESKTOP = os.path.join(ROOT, "packaging/desktop")
APP_ID = "org.qrseal.Desktop"
ICONS = {"scalable": "icons/hicolor/scalable/apps/%s.svg" % APP_ID,
         "symbolic": "icons/hicolor/symbolic/apps/%s-symbolic.svg" % APP_ID}


def run(*command, env=None):
    return subprocess.run(list(command), capture_output=True, text=True, env=env)


def desktop_entry():
    entry = {}
    with open(os.path.join(DESKTOP, APP_ID + ".desktop")) as f:
        for line in f:
            if "=" in line and not line.startswith("#"):
                key, _, value = line.rstrip("\n").partition("=")
                entry[key] = value
    return entry


class PackagingTests(DesktopTest):
    def test_desktop_file_validates(self):
        result = run("desktop-file-validate", os.path.join(DESKTOP, APP_ID + ".desktop"))
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        self.assertEqual(result.stdout + result.stderr, "")
        entry = desktop_entry()
        self.assertEqual(entry["Exec"].split()[0], "qrseal-desktop")
        self.assertEqual(entry["Icon"], APP_ID)
        self.assertEqual(entry["Terminal"], "false")

    def test_metainfo_validates_and_agrees_with_the_package(self):
        path = os.path.join(DESKTOP, APP_ID + ".metainfo.xml")
        result = run("appstreamcli", "validate", "--no-net", "--no-color", path)
        self.assertEqual(result.returncode, 0, result.stdout + result.stderr)
        component = ET.parse(path).getroot()
        self.assertEqual(component.findtext("id"), APP_ID)
        self.assertEqual(component.findtext("launchable"), APP_ID + ".desktop")
        self.assertIsNotNone(component.find("content_rating"))
        # The newest release is the version `make deb` packages (the CLI's).
        version = run(CLI, "--version").stdout.split()[-1]
        releases = [r.get("version") for r in component.iter("release")]
        self.assertEqual(releases[0], version, "add a <release> for %s to %s" % (version, path))

    def test_icons_draw(self):
        for kind, relative in ICONS.items():
            with tempfile.TemporaryDirectory() as folder:
                png = os.path.join(folder, "icon.png")
                size = 128 if kind == "scalable" else 16
                result = run("rsvg-convert", "-w", str(size), "-h", str(size), "-o", png,
                             os.path.join(DESKTOP, relative))
                self.assertEqual(result.returncode, 0, "%s: %s" % (relative, result.stderr))
                # Something is drawn: not all one colour.
                colours = run("convert", png, "-format", "%k", "info:").stdout.strip()
                self.assertGreater(int(colours), 1, relative)

    @unittest.skipUnless(os.environ.get("QRSEAL_DESKTOP_DEB"), "QRSEAL_DESKTOP_DEB unset (make test sets it after make deb)")
    def test_desktop_package(self):
        deb = os.environ["QRSEAL_DESKTOP_DEB"]
        self.assertTrue(os.path.exists(deb), "no package at %s: run make deb" % deb)
        fields = dict(re.findall(r"^(\w[\w-]*): (.*)$", run("dpkg-deb", "-f", deb).stdout, re.M))
        self.assertEqual(fields["Package"], "qrseal-desktop")
        version = fields["Version"]
        depends = fields["Depends"]
        self.assertIn("qrseal (= %s)" % version, depends)
        self.assertRegex(depends, r"libgtk-4-1 \(>= ")
        self.assertRegex(depends, r"libadwaita-1-0 \(>= ")
        listing = run("dpkg-deb", "-c", deb).stdout
        for path in ("usr/bin/qrseal-desktop", "usr/share/applications/%s.desktop" % APP_ID,
                     "usr/share/metainfo/%s.metainfo.xml" % APP_ID,
                     "usr/share/icons/hicolor/scalable/apps/%s.svg" % APP_ID,
                     "usr/share/icons/hicolor/symbolic/apps/%s-symbolic.svg" % APP_ID,
                     "usr/share/man/man1/qrseal-desktop.1.gz", "usr/share/doc/qrseal-desktop/copyright",
                     "usr/share/doc/qrseal-desktop/changelog.Debian.gz"):
            self.assertIn("./" + path + "\n", listing, "%s missing from the package" % path)
        self.assertNotIn("usr/bin/qrseal\n", listing)

        root = tempfile.mkdtemp(prefix="qrseal-desktop-deb.")
        self.addCleanup(shutil.rmtree, root, True)
        self.assertEqual(run("dpkg-deb", "-x", deb, root).returncode, 0)
        binary = os.path.join(root, "usr/bin/qrseal-desktop")
        ldd = run("ldd", binary).stdout
        self.assertNotIn("not found", ldd)
        self.assertNotIn("libswiftCore", ldd)
        self.assertNotIn("libFoundation", ldd)
        env = dict(self.env, LD_LIBRARY_PATH="", PATH="/usr/bin:/bin")
        env.pop("LD_PRELOAD", None)
        help = subprocess.run([binary, "--help"], capture_output=True, text=True, env=env)
        self.assertEqual(help.returncode, 0, help.stderr)
        with App([], env=env, binary=binary) as app:
            self.assertEqual(app.window.name, "qrseal")
            app.find(role="page tab", name="Inbox")


if __name__ == "__main__":
    unittest.main()
