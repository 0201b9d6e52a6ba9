#!/usr/bin/env python3
"""A fake BlueZ on a D-Bus bus, for Tests/Gateway/bluez_gateway_test.py and
Benchmarks/pi_gateway_benchmark.py: the parts of BlueZ's D-Bus API that `heartwork gateway`
uses, written from BlueZ's doc/org.bluez.Adapter1.rst, org.bluez.Device1.rst,
org.bluez.GattService1.rst and org.bluez.GattCharacteristic1.rst.

    fake_bluez.py SCENARIO.json LOG.jsonl      (DBUS_SYSTEM_BUS_ADDRESS names the bus)

- `/` implements org.freedesktop.DBus.ObjectManager (GetManagedObjects, InterfacesAdded,
  InterfacesRemoved); every object implements org.freedesktop.DBus.Properties (Get, GetAll,
  Set, PropertiesChanged).
- `/org/bluez/hci0` is an Adapter1 (SetDiscoveryFilter, StartDiscovery, StopDiscovery). Its
  straps appear (InterfacesAdded of a Device1 with the Heart Rate service's UUID) half a second
  after StartDiscovery.
- Device1.Connect sets Connected, adds the GATT objects (a Heart Rate service with its 0x2A37
  characteristic, a Battery service with 0x2A19), then sets ServicesResolved, as BlueZ does.
  A strap that is "away" answers Connect with org.bluez.Error.Failed.
- GattCharacteristic1.StartNotify on 0x2A37 starts the strap's notifications: each of its
  payloads in turn, every `interval` seconds, as PropertiesChanged of `Value`, until the client
  that asked leaves the bus; ReadValue on 0x2A19 answers the battery level. Connect on a
  connected strap answers org.bluez.Error.AlreadyConnected, as BlueZ does.
- A strap with `drop_after` drops once after that many notifications: ServicesResolved and
  Connected become false, its GATT objects are removed, and it is away for `away` seconds.
- SIGUSR1 appends each strap's `more` payloads (its notifications start again).

Every notification sent, and every call the gateway made, is a JSON line in LOG.
"""
import json
import signal
import sys
import time

import dbus
import dbus.service
from dbus.mainloop.glib import DBusGMainLoop
from gi.repository import GLib

PROPERTIES = "org.freedesktop.DBus.Properties"
OBJECT_MANAGER = "org.freedesktop.DBus.ObjectManager"
ADAPTER = "org.bluez.Adapter1"
DEVICE = "org.bluez.Device1"
SERVICE = "org.bluez.GattService1"
CHARACTERISTIC = "org.bluez.GattCharacteristic1"


def uuid(short):
    return f"0000{short:04x}-0000-1000-8000-00805f9b34fb"


class Log:
    def __init__(self, path):
        self.file = open(path, "a", buffering=1)

    def write(self, **entry):
        entry["t"] = time.time()
        self.file.write(json.dumps(entry) + "\n")


class BlueZObject(dbus.service.Object):
    def __init__(self, bus, path, interfaces):
        super().__init__(bus, path)
        self.path = path
        self.interfaces = interfaces

    @dbus.service.method(PROPERTIES, in_signature="ss", out_signature="v")
    def Get(self, interface, name):
        return self.interfaces[interface][name]

    @dbus.service.method(PROPERTIES, in_signature="s", out_signature="a{sv}")
    def GetAll(self, interface):
        return dbus.Dictionary(self.interfaces.get(interface, {}), signature="sv")

    @dbus.service.method(PROPERTIES, in_signature="ssv")
    def Set(self, interface, name, value):
        self.interfaces[interface][name] = value

    @dbus.service.signal(PROPERTIES, signature="sa{sv}as")
    def PropertiesChanged(self, interface, changed, invalidated):
        pass

    def change(self, interface, **values):
        self.interfaces[interface].update(values)
        self.PropertiesChanged(interface, dbus.Dictionary(values, signature="sv"), dbus.Array([], signature="s"))


class Root(dbus.service.Object):
    def __init__(self, bus):
        super().__init__(bus, "/")
        self.objects = {}

    @dbus.service.method(OBJECT_MANAGER, out_signature="a{oa{sa{sv}}}")
    def GetManagedObjects(self):
        return dbus.Dictionary({dbus.ObjectPath(path): dbus.Dictionary({name: dbus.Dictionary(props, signature="sv") for name, props in thing.interfaces.items()}, signature="sa{sv}")
                                for path, thing in self.objects.items()}, signature="oa{sa{sv}}")

    @dbus.service.signal(OBJECT_MANAGER, signature="oa{sa{sv}}")
    def InterfacesAdded(self, path, interfaces):
        pass

    @dbus.service.signal(OBJECT_MANAGER, signature="oas")
    def InterfacesRemoved(self, path, interfaces):
        pass

    def add(self, thing):
        self.objects[thing.path] = thing
        self.InterfacesAdded(dbus.ObjectPath(thing.path),
                             dbus.Dictionary({name: dbus.Dictionary(props, signature="sv") for name, props in thing.interfaces.items()}, signature="sa{sv}"))

    def remove(self, thing):
        if self.objects.pop(thing.path, None) is not None:
            self.InterfacesRemoved(dbus.ObjectPath(thing.path), dbus.Array(list(thing.interfaces), signature="s"))
        thing.remove_from_connection()


class Adapter(BlueZObject):
    def __init__(self, bus, root, log, straps):
        super().__init__(bus, "/org/bluez/hci0", {ADAPTER: {
            "Address": dbus.String("00:1A:7D:DA:71:13"), "Name": dbus.String("heartwork-pi"), "Powered": dbus.Boolean(True),
            "Discovering": dbus.Boolean(False)}})
        self.root, self.log, self.straps = root, log, straps

    @dbus.service.method(ADAPTER, in_signature="a{sv}")
    def SetDiscoveryFilter(self, properties):
        self.log.write(event="SetDiscoveryFilter", uuids=[str(u) for u in properties.get("UUIDs", [])], transport=str(properties.get("Transport", "")))

    @dbus.service.method(ADAPTER)
    def StartDiscovery(self):
        self.log.write(event="StartDiscovery")
        self.change(ADAPTER, Discovering=dbus.Boolean(True))
        GLib.timeout_add(500, self.discover)

    @dbus.service.method(ADAPTER)
    def StopDiscovery(self):
        self.log.write(event="StopDiscovery")
        self.change(ADAPTER, Discovering=dbus.Boolean(False))

    def discover(self):
        for strap in self.straps:
            if strap.path not in self.root.objects:
                self.root.add(strap)
        return False


class Characteristic(BlueZObject):
    def __init__(self, bus, strap, path, service, short):
        super().__init__(bus, path, {CHARACTERISTIC: {
            "UUID": dbus.String(uuid(short)), "Service": dbus.ObjectPath(service), "Value": dbus.Array([], signature="y"),
            "Notifying": dbus.Boolean(False), "Flags": dbus.Array(["notify"] if short == 0x2A37 else ["read"], signature="s")}})
        self.strap, self.short = strap, short

    @dbus.service.method(CHARACTERISTIC, sender_keyword="sender")
    def StartNotify(self, sender=None):
        self.strap.log.write(event="StartNotify", address=self.strap.address)
        if self.short != 0x2A37:
            raise dbus.exceptions.DBusException("Operation is not supported", name="org.bluez.Error.NotSupported")
        self.change(CHARACTERISTIC, Notifying=dbus.Boolean(True))
        self.strap.notifying = True
        # As BlueZ: a client's notification session ends when the client leaves the bus.
        strap = self.strap

        def owner_changed(owner):
            if not owner and strap.notifying and strap.gatt and strap.gatt[1] is self:
                strap.notifying = False
                self.change(CHARACTERISTIC, Notifying=dbus.Boolean(False))
                strap.log.write(event="client left", address=strap.address)

        self.watch = self.connection.watch_name_owner(sender, owner_changed)

    @dbus.service.method(CHARACTERISTIC)
    def StopNotify(self):
        self.change(CHARACTERISTIC, Notifying=dbus.Boolean(False))
        self.strap.notifying = False

    @dbus.service.method(CHARACTERISTIC, in_signature="a{sv}", out_signature="ay")
    def ReadValue(self, options):
        self.strap.log.write(event="ReadValue", address=self.strap.address, uuid=uuid(self.short))
        if self.short != 0x2A19:
            raise dbus.exceptions.DBusException("Read not permitted", name="org.bluez.Error.NotPermitted")
        return dbus.Array([self.strap.battery], signature="y")


class Strap(BlueZObject):
    def __init__(self, bus, root, log, spec):
        self.address = spec["address"]
        path = "/org/bluez/hci0/dev_" + self.address.replace(":", "_")
        super().__init__(bus, path, {DEVICE: {
            "Address": dbus.String(self.address), "AddressType": dbus.String("public"), "Name": dbus.String(spec.get("name", "Strap")),
            "Alias": dbus.String(spec.get("name", "Strap")), "UUIDs": dbus.Array([uuid(0x180D), uuid(0x180F)], signature="s"),
            "RSSI": dbus.Int16(spec.get("rssi", -60)), "Connected": dbus.Boolean(False), "ServicesResolved": dbus.Boolean(False),
            "Paired": dbus.Boolean(False), "Adapter": dbus.ObjectPath("/org/bluez/hci0")}})
        self.bus, self.root, self.log = bus, root, log
        self.payloads = [bytes.fromhex(text) for text in spec["payloads"]]
        self.more = [bytes.fromhex(text) for text in spec.get("more", [])]
        self.sent = 0
        self.battery = spec.get("battery", 90)
        self.drop_after = spec.get("drop_after")
        self.away = spec.get("away", 0)
        self.away_until = 0
        self.notifying = False
        self.gatt = []
        GLib.timeout_add(int(spec.get("interval", 1.0) * 1000), self.tick)

    @dbus.service.method(DEVICE)
    def Connect(self):
        ok = time.time() >= self.away_until
        self.log.write(event="Connect", address=self.address, ok=ok)
        if not ok:
            raise dbus.exceptions.DBusException("le-connection-abort-by-local", name="org.bluez.Error.Failed")
        if self.interfaces[DEVICE]["Connected"]:
            raise dbus.exceptions.DBusException("Already Connected", name="org.bluez.Error.AlreadyConnected")
        self.change(DEVICE, Connected=dbus.Boolean(True))
        service = self.path + "/service000c"
        battery = self.path + "/service0010"
        self.gatt = [
            BlueZObject(self.bus, service, {SERVICE: {"UUID": dbus.String(uuid(0x180D)), "Device": dbus.ObjectPath(self.path), "Primary": dbus.Boolean(True)}}),
            Characteristic(self.bus, self, service + "/char000d", service, 0x2A37),
            BlueZObject(self.bus, battery, {SERVICE: {"UUID": dbus.String(uuid(0x180F)), "Device": dbus.ObjectPath(self.path), "Primary": dbus.Boolean(True)}}),
            Characteristic(self.bus, self, battery + "/char0011", battery, 0x2A19),
        ]
        for thing in self.gatt:
            self.root.add(thing)
        GLib.timeout_add(200, lambda: self.change(DEVICE, ServicesResolved=dbus.Boolean(True)) and False)

    @dbus.service.method(DEVICE)
    def Disconnect(self):
        self.log.write(event="Disconnect", address=self.address)
        self.drop()

    def drop(self):
        self.notifying = False
        self.change(DEVICE, ServicesResolved=dbus.Boolean(False))
        self.change(DEVICE, Connected=dbus.Boolean(False))
        for thing in reversed(self.gatt):
            self.root.remove(thing)
        self.gatt = []

    def tick(self):
        if self.notifying and self.sent < len(self.payloads):
            value = self.payloads[self.sent]
            self.gatt[1].change(CHARACTERISTIC, Value=dbus.Array(value, signature="y"))
            self.log.write(event="notify", address=self.address, index=self.sent, hex=value.hex())
            self.sent += 1
            if self.drop_after is not None and self.sent == self.drop_after:
                self.drop_after = None
                self.away_until = time.time() + self.away
                self.log.write(event="drop", address=self.address)
                self.drop()
        return True

    def extend(self):
        self.payloads += self.more


def main():
    scenario = json.load(open(sys.argv[1]))
    log = Log(sys.argv[2])
    DBusGMainLoop(set_as_default=True)
    bus = dbus.bus.BusConnection(scenario.get("bus") or __import__("os").environ["DBUS_SYSTEM_BUS_ADDRESS"])
    root = Root(bus)
    straps = [Strap(bus, root, log, spec) for spec in scenario["straps"]]
    adapter = Adapter(bus, root, log, straps)
    root.objects[adapter.path] = adapter
    for strap in straps:
        if strap.address in scenario.get("known", []):
            root.objects[strap.path] = strap
    name = dbus.service.BusName("org.bluez", bus)  # noqa: F841 (kept while running)
    loop = GLib.MainLoop()

    def more():
        for strap in straps:
            strap.extend()
        log.write(event="more")
        return True

    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGUSR1, more)
    GLib.unix_signal_add(GLib.PRIORITY_DEFAULT, signal.SIGTERM, lambda: loop.quit() or False)
    log.write(event="ready")
    loop.run()


if __name__ == "__main__":
    main()
