// Chest straps through Web Bluetooth (the Heart Rate Service, 0x180D), for any page: the
// gateway page (/gateway), the recorder (/record) and the match page use it. No page, no
// server, no storage here: a page listens and decides what to do with each reading.
//
//   import { webBluetoothSupport, requestStrap, grantedStraps, parseHeartRate, toHex } from "/static/strap.js";
//
//   webBluetoothSupport()   → { supported, reason } — `reason` is a sentence for people when not.
//   await requestStrap(options)   → Strap | null: the browser's chooser (must run in a click);
//                                   null when the person closed the chooser.
//   await grantedStraps(options)  → [Strap]: the straps this site was already allowed
//                                   (navigator.bluetooth.getDevices(), where the browser has it),
//                                   without a chooser. Not connected yet: call connect().
//   parseHeartRate(bytes)   → { bpm, contact, energy, rr } from one 0x2A37 value (Bluetooth
//                             Heart Rate Service 1.0 §3.1): flags bit 0 a 16-bit value, bits 1–2
//                             skin contact ("detected", "not-detected", or null when the strap
//                             does not say), bit 3 energy expended (kJ, or null), bit 4 RR
//                             intervals (1/1024 s each, given here in ms).
//   toHex(bytes)            → "16480004" (the protocol's `hrm`).
//
//   options: { retries = 10, retryDelay = 5000 } — the reconnect policy (FitLabTeam seed F14):
//   a strap that drops is tried again every retryDelay ms, at most `retries` times, then given up.
//
//   class Strap extends EventTarget
//     strap.id        "web:" + device.id — stable for this site in this browser (Web
//                     Bluetooth ids are per site and opaque: the same strap has another id on
//                     another site or browser). This is the gateway protocol's `sensor`.
//     strap.name      the strap's advertised name ("Polar H10 1234ABCD"), or "Heart rate strap".
//     strap.state     "idle" | "connecting" | "connected" | "reconnecting" | "gave-up" | "stopped"
//     strap.attempt   while reconnecting: this try's number (1…retries)
//     strap.retries   the policy's number of tries
//     strap.battery   0–100 or null (0x2A19, read on connect and every minute)
//     strap.rssi      dBm or null (from advertisements, where the browser reports them)
//     strap.last      the last reading (as the "reading" event's detail) or null
//     await strap.connect()   connect (GATT), subscribe to 0x2A37, read the battery; a failure
//                             of this first connect runs the reconnect policy as a drop does.
//     strap.retry()           after "gave-up": start the policy over (tries 1…retries).
//     strap.stop()            disconnect for good (no more tries).
//     await strap.forget()    stop and revoke the site's permission (device.forget(), where it exists).
//   Events:
//     "reading"  detail { bytes: Uint8Array, hex, at (Unix ms when heard), bpm, contact, energy,
//                rr: [ms…], rr1024: [1/1024 s…], battery, rssi }
//     "state"    detail { state, attempt, retries }
//     "battery"  detail { battery }

const HEART_RATE = "heart_rate";
const MEASUREMENT = "heart_rate_measurement";
const BATTERY = "battery_service";
const BATTERY_LEVEL = "battery_level";
const BATTERY_EVERY = 60_000;

export function webBluetoothSupport() {
  if (typeof navigator === "undefined" || !navigator.bluetooth) {
    return {
      supported: false,
      reason: "This browser cannot reach Bluetooth straps. Chrome and Edge can, on Android, Windows, macOS and ChromeOS " +
        "(on Linux after turning on chrome://flags/#enable-experimental-web-platform-features). " +
        "Safari, Firefox and every browser on iPhone and iPad cannot.",
    };
  }
  if (!window.isSecureContext) {
    return { supported: false, reason: "Bluetooth works only on a secure page: open this server through https://." };
  }
  return { supported: true, reason: "" };
}

export function toHex(bytes) {
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

export function parseHeartRate(input) {
  const bytes = input instanceof Uint8Array ? input : new Uint8Array(input.buffer, input.byteOffset, input.byteLength);
  if (bytes.length < 2) throw new RangeError("a heart rate measurement has at least 2 bytes");
  const flags = bytes[0];
  let at = 1;
  const wide = (flags & 0x01) !== 0;
  if (wide && bytes.length < 3) throw new RangeError("a 16-bit heart rate needs 3 bytes");
  const bpm = wide ? bytes[1] | (bytes[2] << 8) : bytes[1];
  at += wide ? 2 : 1;
  const contactBits = (flags >> 1) & 0x03;
  const contact = contactBits === 3 ? "detected" : contactBits === 2 ? "not-detected" : null;
  let energy = null;
  if (flags & 0x08) {
    if (bytes.length >= at + 2) energy = bytes[at] | (bytes[at + 1] << 8);
    at += 2;
  }
  const rr1024 = [];
  if (flags & 0x10) {
    for (; at + 1 < bytes.length; at += 2) rr1024.push(bytes[at] | (bytes[at + 1] << 8));
  }
  return { bpm, contact, energy, rr1024, rr: rr1024.map((value) => Math.round((value * 1000) / 1024)) };
}

const requestOptions = { filters: [{ services: [HEART_RATE] }], optionalServices: [BATTERY] };

export async function requestStrap(options = {}) {
  try {
    const device = await navigator.bluetooth.requestDevice(requestOptions);
    return new Strap(device, options);
  } catch (error) {
    if (error && error.name === "NotFoundError") return null;  // the chooser was closed
    throw error;
  }
}

export async function grantedStraps(options = {}) {
  if (!navigator.bluetooth || typeof navigator.bluetooth.getDevices !== "function") return [];
  const devices = await navigator.bluetooth.getDevices();
  return devices.map((device) => new Strap(device, options));
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

export class Strap extends EventTarget {
  constructor(device, { retries = 10, retryDelay = 5000 } = {}) {
    super();
    this.device = device;
    this.id = "web:" + device.id;
    this.name = device.name || "Heart rate strap";
    this.retries = retries;
    this.retryDelay = retryDelay;
    this.state = "idle";
    this.attempt = 0;
    this.battery = null;
    this.rssi = null;
    this.last = null;
    this.generation = 0;  // bumped by stop() and retry(): a running policy loop sees it and ends
    this.batteryTimer = null;
    this.onDisconnected = () => this.dropped();
    this.onMeasurement = (event) => this.measured(event.target.value);
    device.addEventListener("gattserverdisconnected", this.onDisconnected);
    this.watchSignal();
  }

  setState(state, attempt = 0) {
    this.state = state;
    this.attempt = attempt;
    this.dispatchEvent(new CustomEvent("state", { detail: { state, attempt, retries: this.retries } }));
  }

  async connect() {
    const generation = ++this.generation;
    this.setState("connecting");
    try {
      await this.open();
      if (generation === this.generation) this.setState("connected");
    } catch {
      if (generation === this.generation) this.policy(generation);
    }
  }

  retry() {
    const generation = ++this.generation;
    this.policy(generation);
  }

  stop() {
    this.generation++;
    clearInterval(this.batteryTimer);
    this.setState("stopped");
    try { if (this.device.gatt && this.device.gatt.connected) this.device.gatt.disconnect(); } catch { /* gone already */ }
  }

  async forget() {
    this.stop();
    this.device.removeEventListener("gattserverdisconnected", this.onDisconnected);
    if (typeof this.device.forget === "function") {
      try { await this.device.forget(); } catch { /* nothing to forget */ }
    }
  }

  // GATT: the measurement notifications, then the battery (optional: not every strap has it).
  async open() {
    const server = await this.device.gatt.connect();
    const service = await server.getPrimaryService(HEART_RATE);
    const measurement = await service.getCharacteristic(MEASUREMENT);
    measurement.removeEventListener("characteristicvaluechanged", this.onMeasurement);
    measurement.addEventListener("characteristicvaluechanged", this.onMeasurement);
    await measurement.startNotifications();
    this.batteryLevel = null;
    try {
      const battery = await server.getPrimaryService(BATTERY);
      this.batteryLevel = await battery.getCharacteristic(BATTERY_LEVEL);
    } catch { /* no battery service */ }
    await this.readBattery();
    clearInterval(this.batteryTimer);
    this.batteryTimer = setInterval(() => this.readBattery(), BATTERY_EVERY);
  }

  async readBattery() {
    if (!this.batteryLevel) return;
    try {
      const value = await this.batteryLevel.readValue();
      this.battery = value.getUint8(0);
      this.dispatchEvent(new CustomEvent("battery", { detail: { battery: this.battery } }));
    } catch { /* the next minute tries again */ }
  }

  // Signal strength from advertisements, where the browser has watchAdvertisements.
  async watchSignal() {
    if (typeof this.device.watchAdvertisements !== "function") return;
    this.device.addEventListener("advertisementreceived", (event) => {
      if (typeof event.rssi === "number") this.rssi = event.rssi;
    });
    try { await this.device.watchAdvertisements(); } catch { /* not allowed here: no rssi */ }
  }

  measured(value) {
    const bytes = new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
    let parsed;
    try { parsed = parseHeartRate(bytes); } catch { return; }
    this.last = { bytes, hex: toHex(bytes), at: Date.now(), ...parsed, battery: this.battery, rssi: this.rssi };
    this.dispatchEvent(new CustomEvent("reading", { detail: this.last }));
  }

  dropped() {
    clearInterval(this.batteryTimer);
    if (this.state === "stopped" || this.state === "reconnecting" || this.state === "gave-up") return;
    this.policy(++this.generation);
  }

  // Every retryDelay ms, at most `retries` tries; then "gave-up" until retry().
  async policy(generation) {
    for (let attempt = 1; attempt <= this.retries; attempt++) {
      this.setState("reconnecting", attempt);
      await sleep(this.retryDelay);
      if (generation !== this.generation) return;
      try {
        await this.open();
        if (generation !== this.generation) return;
        this.setState("connected");
        return;
      } catch {
        if (generation !== this.generation) return;
      }
    }
    clearInterval(this.batteryTimer);
    this.setState("gave-up", this.retries);
  }
}
