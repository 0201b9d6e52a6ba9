#!/usr/bin/env python3
"""Golden D-Bus messages for the Swift codec's tests (Tests/HeartworkFormatsTests/DBusCodecTests.swift).

GLib's GDBus (Gio.DBusMessage.to_blob, an independent implementation of the D-Bus
specification's marshalling) writes each message; the hex goes to
Tests/HeartworkFormatsTests/Resources/dbus-golden.json, which the Swift tests read (they need
neither Python nor a bus). Run once with Debian's Python and python3-gi:

    /usr/bin/python3 Tests/Reference/dbus_golden.py > Tests/HeartworkFormatsTests/Resources/dbus-golden.json

GDBus writes header fields in increasing code order, as the Swift encoder does.
"""
import json

from gi.repository import Gio, GLib


def blob(message, serial):
    message.set_serial(serial)
    return message.to_blob(Gio.DBusCapabilityFlags.NONE).hex()


def call(destination, path, interface, member, body, serial):
    message = Gio.DBusMessage.new_method_call(destination, path, interface, member)
    if body is not None:
        message.set_body(body)
    return blob(message, serial)


def signal(path, interface, member, body, serial, sender=None):
    message = Gio.DBusMessage.new_signal(path, interface, member)
    message.set_body(body)
    if sender:
        message.set_sender(sender)
    return blob(message, serial)


def reply(body, reply_serial, serial, sender=None, destination=None):
    message = Gio.DBusMessage.new()
    message.set_message_type(Gio.DBusMessageType.METHOD_RETURN)
    message.set_reply_serial(reply_serial)
    if sender:
        message.set_sender(sender)
    if destination:
        message.set_destination(destination)
    if body is not None:
        message.set_body(body)
    message.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
    return blob(message, serial)


def error(name, text, reply_serial, serial):
    message = Gio.DBusMessage.new()
    message.set_message_type(Gio.DBusMessageType.ERROR)
    message.set_error_name(name)
    message.set_reply_serial(reply_serial)
    message.set_body(GLib.Variant("(s)", (text,)))
    message.set_flags(Gio.DBusMessageFlags.NO_REPLY_EXPECTED)
    return blob(message, serial)


golden = {
    "hello": call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "Hello", None, 1),
    "addMatch": call("org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus", "AddMatch",
                     GLib.Variant("(s)", ("type='signal',sender='org.bluez'",)), 2),
    "setDiscoveryFilter": call("org.bluez", "/org/bluez/hci0", "org.bluez.Adapter1", "SetDiscoveryFilter",
                               GLib.Variant("(a{sv})", ({"UUIDs": GLib.Variant("as", ["0000180d-0000-1000-8000-00805f9b34fb"]),
                                                         "Transport": GLib.Variant("s", "le")},)), 3),
    "readValue": call("org.bluez", "/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d", "org.bluez.GattCharacteristic1",
                      "ReadValue", GLib.Variant("(a{sv})", ({},)), 4),
    "propertiesChanged": signal("/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d", "org.freedesktop.DBus.Properties",
                                "PropertiesChanged",
                                GLib.Variant("(sa{sv}as)", ("org.bluez.GattCharacteristic1",
                                                           {"Value": GLib.Variant("ay", bytes([0x16, 0x48, 0x00, 0x04]))}, [])),
                                7, sender=":1.5"),
    "deviceChanged": signal("/org/bluez/hci0/dev_A0_9E_1A_12_34_56", "org.freedesktop.DBus.Properties", "PropertiesChanged",
                            GLib.Variant("(sa{sv}as)", ("org.bluez.Device1",
                                                       {"Connected": GLib.Variant("b", False), "RSSI": GLib.Variant("n", -60)},
                                                       ["ServicesResolved"])), 8, sender=":1.5"),
    "managedObjects": reply(GLib.Variant("(a{oa{sa{sv}}})", ({
        "/org/bluez/hci0": {"org.bluez.Adapter1": {"Address": GLib.Variant("s", "00:1A:7D:DA:71:13"),
                                                   "Powered": GLib.Variant("b", True),
                                                   "Discovering": GLib.Variant("b", False)}},
        "/org/bluez/hci0/dev_A0_9E_1A_12_34_56": {"org.bluez.Device1": {
            "Address": GLib.Variant("s", "A0:9E:1A:12:34:56"),
            "Name": GLib.Variant("s", "Polar H10 1234"),
            "UUIDs": GLib.Variant("as", ["0000180d-0000-1000-8000-00805f9b34fb", "0000180f-0000-1000-8000-00805f9b34fb"]),
            "RSSI": GLib.Variant("n", -61),
            "Connected": GLib.Variant("b", True),
            "Adapter": GLib.Variant("o", "/org/bluez/hci0"),
            "ManufacturerData": GLib.Variant("a{qv}", {107: GLib.Variant("ay", bytes([1, 2]))}),
            "TxPower": GLib.Variant("n", 4),
            "Class": GLib.Variant("u", 0x240404),
            "Appearance": GLib.Variant("q", 833),
        }},
        "/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c/char000d": {"org.bluez.GattCharacteristic1": {
            "UUID": GLib.Variant("s", "00002a37-0000-1000-8000-00805f9b34fb"),
            "Service": GLib.Variant("o", "/org/bluez/hci0/dev_A0_9E_1A_12_34_56/service000c"),
            "Value": GLib.Variant("ay", b""),
            "Notifying": GLib.Variant("b", False),
            "Flags": GLib.Variant("as", ["notify"]),
            "Handle": GLib.Variant("q", 13),
        }},
    },)), 5, 9, sender=":1.5", destination=":1.42"),
    "error": error("org.bluez.Error.Failed", "Operation already in progress", 6, 10),
    # Every basic type once (a struct of them), for the alignment rules: y b n q i u x t d s o g.
    "everyType": signal("/t", "org.heartwork.Test", "Types", GLib.Variant("(ybnqiuxtdsogv)", (
        0xFE, True, -2, 65534, -70000, 4000000000, -5000000000, 18000000000000000000, 1.5, "héllo", "/a/b", "a{sv}",
        GLib.Variant("(yx)", (7, -1)))), 11),
}
print(json.dumps(golden, indent=1, sort_keys=True))
