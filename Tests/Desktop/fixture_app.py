"""A small GTK 4 window (PyGObject) that the harness's own tests drive (test_harness.py), so
that the harness is checked against the real toolkit while qrseal-desktop's pages are being
written: an entry, a button that copies it to a label, and buttons that open GTK's file
chooser to open and to save, as qrseal-desktop's Toolkit/FileChooser.swift does
(GtkFileChooserNative, which is GTK's own dialog when GTK_USE_PORTAL=0)."""

import sys

import gi

gi.require_version("Gtk", "4.0")
from gi.repository import Gtk  # noqa: E402


def build(app):
    window = Gtk.ApplicationWindow(application=app, title="fixture")
    window.set_default_size(640, 400)
    box = Gtk.Box(orientation=Gtk.Orientation.VERTICAL, spacing=8)
    entry = Gtk.Entry()
    entry.update_property([Gtk.AccessibleProperty.LABEL], ["Message"])
    shown = Gtk.Label(label="nothing yet")
    shown.update_property([Gtk.AccessibleProperty.LABEL], ["Shown"])
    copy = Gtk.Button(label="Copy")
    copy.connect("clicked", lambda *_: shown.set_label("shown: " + entry.get_text()))
    chosen = Gtk.Label(label="no file")
    chosen.update_property([Gtk.AccessibleProperty.LABEL], ["Chosen"])
    keep = []

    def ask(action, accept):
        chooser = Gtk.FileChooserNative.new("Choose a file", window, action, accept, "_Cancel")
        if action == Gtk.FileChooserAction.SAVE:
            chooser.set_current_name("note.txt")

        def answered(dialog, response):
            if response == Gtk.ResponseType.ACCEPT:
                path = dialog.get_file().get_path()
                if action == Gtk.FileChooserAction.SAVE:
                    with open(path, "w") as out:
                        out.write(entry.get_text())
                    chosen.set_label("saved " + path)
                else:
                    with open(path) as f:
                        entry.set_text(f.read())
                    chosen.set_label("opened " + path)
            else:
                chosen.set_label("cancelled")
            keep.remove(dialog)
        chooser.connect("response", answered)
        chooser.set_modal(True)
        keep.append(chooser)
        chooser.show()

    save = Gtk.Button(label="Save…")
    save.connect("clicked", lambda *_: ask(Gtk.FileChooserAction.SAVE, "_Save"))
    open_ = Gtk.Button(label="Open…")
    open_.connect("clicked", lambda *_: ask(Gtk.FileChooserAction.OPEN, "_Open"))
    for widget in (entry, copy, shown, save, open_, chosen):
        box.append(widget)
    window.set_child(box)
    window.present()


def main():
    app = Gtk.Application(application_id="org.qrseal.DesktopFixture")
    app.connect("activate", build)
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
