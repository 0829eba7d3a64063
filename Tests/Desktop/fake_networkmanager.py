"""A stand-in for NetworkManager on a test's bus (NetworkManager itself cannot run in the test
machine): it owns org.freedesktop.NetworkManager and answers AddAndActivateConnection, writing
the settings it was given to a JSON file, so that a test sees exactly what qrseal-desktop asked
NetworkManager to join. The bus is the one DBUS_SYSTEM_BUS_ADDRESS names (a test points it,
for this and for the app, at its private session bus).
Usage: fake_networkmanager.py OUT.json"""

import json
import os
import sys

from gi.repository import Gio, GLib

XML = """
<node>
  <interface name="org.freedesktop.NetworkManager">
    <method name="AddAndActivateConnection">
      <arg name="connection" type="a{sa{sv}}" direction="in"/>
      <arg name="device" type="o" direction="in"/>
      <arg name="specific_object" type="o" direction="in"/>
      <arg name="path" type="o" direction="out"/>
      <arg name="active_connection" type="o" direction="out"/>
    </method>
  </interface>
</node>
"""


def plain(value):
    """A settings value as JSON can hold it: byte arrays (the SSID) as lists of numbers."""
    if isinstance(value, (bytes, bytearray)):
        return list(value)
    return value


def main():
    out = sys.argv[1]
    loop = GLib.MainLoop()
    info = Gio.DBusNodeInfo.new_for_xml(XML).interfaces[0]

    def called(connection, sender, path, interface, method, parameters, invocation):
        settings, _, _ = parameters.unpack()
        with open(out + ".tmp", "w") as f:
            json.dump({section: {k: plain(v) for k, v in entries.items()} for section, entries in settings.items()}, f)
        os.replace(out + ".tmp", out)
        invocation.return_value(GLib.Variant("(oo)", ("/org/freedesktop/NetworkManager/Settings/1",
                                                      "/org/freedesktop/NetworkManager/ActiveConnection/1")))

    bus = Gio.bus_get_sync(Gio.BusType.SYSTEM, None)
    Gio.bus_own_name_on_connection(bus, "org.freedesktop.NetworkManager", Gio.BusNameOwnerFlags.NONE,
                                   lambda c, n: None, lambda c, n: loop.quit())
    bus.register_object("/org/freedesktop/NetworkManager", info, called, None, None)
    print("ready", flush=True)
    loop.run()


if __name__ == "__main__":
    main()
