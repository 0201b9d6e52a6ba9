// A gateway's side of the gateway protocol (docs/PROTOCOL.md §2–§5), for a browser: every
// reading is written to IndexedDB before it is sent and deleted only when the server
// acknowledges it, so a reload, a lost network or a server restart loses nothing; what was
// not acknowledged is sent again, oldest first, when the socket is back.
//
//   const link = await GatewayLink.open({ gatewayID, token, onStatus });
//   await link.add({ sensor, hrm, at, battery, rssi });   // takes the next `seq` for `sensor`
//   link.status → { state: "connecting" | "open" | "waiting" | "refused", pending, retryIn, detail }
//   link.close();
//
// `seq`: per sensor, one more than the last one this browser used (kept in IndexedDB), and
// never less than the time in tenths of a second when the page opened, so it keeps increasing
// even if the browser's storage was cleared (as `heartwork simulate gateway` starts its own).
// Reconnects after 1 s, 2 s, 4 s … 60 s with ±20 % jitter, the pause reset once a connection
// has stayed up a minute; never after a 1008 close or a token the server refuses (401).

const MAX_ITEMS = 500;

function request(operation) {
  return new Promise((resolve, reject) => {
    operation.onsuccess = () => resolve(operation.result);
    operation.onerror = () => reject(operation.error);
  });
}

function done(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

export class Outbox {
  static async open(name) {
    const opening = indexedDB.open(name, 1);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      const readings = db.createObjectStore("readings", { keyPath: "n", autoIncrement: true });
      readings.createIndex("bySensorSeq", ["sensor", "seq"], { unique: false });
      db.createObjectStore("sequences");
    };
    const outbox = new Outbox();
    outbox.db = await request(opening);
    outbox.next = new Map();
    return outbox;
  }

  async nextSeq(sensor) {
    // The first reading of a sensor reads its last seq from IndexedDB; readings that arrive
    // while that read is under way wait for the same read (one promise per sensor), so no two
    // readings ever get the same seq.
    if (!this.next.has(sensor)) {
      this.next.set(sensor, request(this.db.transaction("sequences").objectStore("sequences").get(sensor))
        .then((last) => Math.max(typeof last === "number" ? last + 1 : 0, Math.floor(Outbox.openedAt / 100))));
    }
    const pending = this.next.get(sensor);
    const seq = typeof pending === "number" ? pending : await pending;
    // Taken synchronously after the await: whoever runs next sees seq + 1.
    const current = this.next.get(sensor);
    const mine = typeof current === "number" ? current : seq;
    this.next.set(sensor, mine + 1);
    return mine;
  }

  // Stores the reading with its seq; answers it with its place in the outbox (`n`).
  async add(reading) {
    const item = { ...reading, seq: await this.nextSeq(reading.sensor) };
    const transaction = this.db.transaction(["readings", "sequences"], "readwrite");
    const stored = request(transaction.objectStore("readings").add(item));
    transaction.objectStore("sequences").put(item.seq, item.sensor);
    await done(transaction);
    item.n = await stored;
    return item;
  }

  // Readings after place `after`, oldest first.
  async after(after, limit = MAX_ITEMS) {
    const range = IDBKeyRange.lowerBound(after, true);
    return request(this.db.transaction("readings").objectStore("readings").getAll(range, limit));
  }

  async count() {
    return request(this.db.transaction("readings").objectStore("readings").count());
  }

  // Deletes the sensor's readings up to `seq` (an ack), or exactly `seq` (`only`: a refusal).
  async remove(sensor, seq, only = false) {
    const transaction = this.db.transaction("readings", "readwrite");
    const index = transaction.objectStore("readings").index("bySensorSeq");
    const range = only ? IDBKeyRange.only([sensor, seq]) : IDBKeyRange.bound([sensor, -Infinity], [sensor, seq]);
    const cursor = index.openCursor(range);
    cursor.onsuccess = () => {
      const at = cursor.result;
      if (at) { at.delete(); at.continue(); }
    };
    await done(transaction);
  }
}
Outbox.openedAt = Date.now();

export class GatewayLink {
  static async open({ gatewayID, token, onStatus = () => {} }) {
    const link = new GatewayLink();
    link.outbox = await Outbox.open("heartwork-gateway-" + gatewayID);
    link.token = token;
    link.onStatus = onStatus;
    link.failures = 0;
    link.pending = await link.outbox.count();
    link.status = { state: "connecting", pending: link.pending, retryIn: 0, detail: "" };
    link.closed = false;
    window.addEventListener("online", () => { if (link.status.state === "waiting") link.connectNow(); });
    link.connect();
    return link;
  }

  report(changes) {
    this.status = { ...this.status, ...changes, pending: this.pending };
    this.onStatus(this.status);
  }

  connect() {
    if (this.closed) return;
    this.report({ state: "connecting", retryIn: 0 });
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(`${scheme}${window.location.host}/api/live/gateway?token=${encodeURIComponent(this.token)}`);
    this.socket = socket;
    this.sentUpTo = 0;
    this.flushing = false;
    let opened = 0;
    socket.addEventListener("open", () => {
      opened = Date.now();
      this.report({ state: "open", detail: "" });
      this.flush();
    });
    socket.addEventListener("message", (event) => this.heard(event.data));
    socket.addEventListener("close", async (event) => {
      if (this.socket !== socket) return;
      this.socket = null;
      if (this.closed) return;
      if (event.code === 1008) {
        this.report({ state: "refused", detail: event.reason || "The server refused this gateway (policy)." });
        return;
      }
      if (!opened && await this.tokenRefused()) {
        this.report({ state: "refused", detail: "token", retryIn: 0 });
        return;
      }
      if (opened && Date.now() - opened >= 60_000) this.failures = 0;
      const base = Math.min(60, 2 ** this.failures) * 1000;
      const delay = Math.round(base * (0.8 + Math.random() * 0.4));
      this.failures++;
      this.report({ state: "waiting", retryIn: delay });
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  connectNow() {
    clearTimeout(this.timer);
    this.connect();
  }

  // PROTOCOL §2: a plain GET answers 401 for a wrong or revoked token, 426 for a good one.
  async tokenRefused() {
    try {
      const response = await fetch("/api/live/gateway", { headers: { Authorization: `Bearer ${this.token}` }, credentials: "omit" });
      return response.status === 401;
    } catch {
      return false;  // the server or the network is down: try again later
    }
  }

  // Sends whatever is in the outbox past what this socket already sent, oldest first.
  async flush() {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (;;) {
        const socket = this.socket;
        if (!socket || socket.readyState !== WebSocket.OPEN) return;
        const items = await this.outbox.after(this.sentUpTo);
        if (items.length === 0 || this.socket !== socket) return;
        const wire = items.map(({ n, ...item }) => item);
        socket.send(JSON.stringify(wire.length === 1 ? { type: "reading", ...wire[0] } : { type: "readings", items: wire }));
        this.sentUpTo = items[items.length - 1].n;
      }
    } finally {
      this.flushing = false;
    }
  }

  async add(reading) {
    const item = { sensor: reading.sensor, at: reading.at, hrm: reading.hrm };
    if (typeof reading.battery === "number") item.battery = reading.battery;
    if (typeof reading.rssi === "number") item.rssi = reading.rssi;
    const stored = await this.outbox.add(item);
    this.pending++;
    this.report({});
    this.flush();
    return stored;
  }

  async heard(data) {
    let message;
    try { message = JSON.parse(data); } catch { return; }
    if (message.type === "ack" && typeof message.seq === "number") {
      await this.outbox.remove(message.sensor, message.seq);
    } else if (message.type === "error") {
      // PROTOCOL §4: a refused reading is not sent again unchanged.
      if (typeof message.seq === "number") await this.outbox.remove(message.sensor, message.seq, true);
      this.report({ detail: message.detail || "" });
    } else {
      return;
    }
    this.pending = await this.outbox.count();
    this.report({});
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.socket) this.socket.close(1000);
  }
}
