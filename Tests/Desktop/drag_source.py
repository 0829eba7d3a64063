"""A small GTK 4 window that offers one file to drag, as a file manager does (a GdkFileList
through GtkDragSource), so that a test can drop it on qrseal-desktop with the mouse.
Usage: drag_source.py PATH"""

import sys

import gi

gi.require_version("Gtk", "4.0")
gi.require_version("Gdk", "4.0")
from gi.repository import Gdk, Gio, GObject, Gtk  # noqa: E402


def build(app, path):
    window = Gtk.ApplicationWindow(application=app, title="drag source")
    window.set_default_size(240, 120)
    label = Gtk.Label(label="Drag me")
    label.update_property([Gtk.AccessibleProperty.LABEL], ["Drag me"])
    source = Gtk.DragSource(actions=Gdk.DragAction.COPY)
    files = Gdk.FileList.new_from_list([Gio.File.new_for_path(path)])
    value = GObject.Value(Gdk.FileList, files)
    source.connect("prepare", lambda *_: Gdk.ContentProvider.new_for_value(value))
    label.add_controller(source)
    window.set_child(label)
    window.present()


def main():
    path = sys.argv[1]
    app = Gtk.Application(application_id="org.qrseal.DragSource")
    app.connect("activate", lambda a: build(a, path))
    return app.run([sys.argv[0]])


if __name__ == "__main__":
    sys.exit(main())
