// /record (issue 23): recording a workout live. One sample a second (the last bpm heard, the
// RR intervals heard since the previous second, the position outdoors) is kept in IndexedDB
// as it is taken and sent to the server in numbered chunks of 10 seconds through
// /api/recordings (docs/API.md): a reload, a closed tab, a lost network or a server restart
// loses nothing, and a chunk sent twice is stored once. Ending posts /finish, which makes the
// workout as an upload would.
import { csrfToken, problemText, reconnectingSocket } from "/static/common.js";
import { requestStrap, grantedStraps, webBluetoothSupport } from "/static/strap.js";

const root = document.querySelector("[data-recorder]");
const $ = (selector) => root.querySelector(selector);
const CHUNK_SECONDS = 10;
const RETRY_MS = 5000;
const ZONES = [
  { id: "none", name: "Zone 1, none", short: "Z1 · None" },
  { id: "low", name: "Zone 2, low", short: "Z2 · Low" },
  { id: "moderate", name: "Zone 3, moderate", short: "Z3 · Moderate" },
  { id: "high", name: "Zone 4, high", short: "Z4 · High" },
  { id: "red-line", name: "Zone 5, red line", short: "Z5 · Red Line" },
];
const anchors = root.dataset.resting ? { resting: Number(root.dataset.resting), maximum: Number(root.dataset.maximum) } : null;
const body = root.dataset.sex ? { sex: root.dataset.sex, weight: Number(root.dataset.weight), age: Number(root.dataset.age) } : null;

// ---- IndexedDB: "recordings" (one per recording: settings and progress), "chunks" ([id, n]).
let dbPromise = null;
function db() {
  if (!dbPromise) {
    dbPromise = new Promise((resolve, reject) => {
      // One database per user of this browser: a recording never shows up in another account.
      const user = document.querySelector('meta[name="heartwork-user"]')?.content || "";
      const open = indexedDB.open("heartwork-record:" + user, 1);
      open.onupgradeneeded = () => {
        open.result.createObjectStore("recordings", { keyPath: "id" });
        open.result.createObjectStore("chunks", { keyPath: ["id", "n"] });
      };
      open.onsuccess = () => resolve(open.result);
      open.onerror = () => reject(open.error);
    });
  }
  return dbPromise;
}
async function tx(stores, mode, work) {
  const database = await db();
  return new Promise((resolve, reject) => {
    const transaction = database.transaction(stores, mode);
    let result;
    transaction.oncomplete = () => resolve(result);
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
    const request = work(transaction);
    if (request) request.onsuccess = () => { result = request.result; };
  });
}
const saveRecording = (record) => tx(["recordings"], "readwrite", (t) => t.objectStore("recordings").put(record));
const allRecordings = () => tx(["recordings"], "readonly", (t) => t.objectStore("recordings").getAll());
const unsentChunks = (id) => tx(["chunks"], "readonly", (t) => t.objectStore("chunks").getAll(IDBKeyRange.bound([id, 0], [id, Infinity])));
function sealChunk(record, chunk) {
  // The chunk and the recording's progress in one transaction: never a chunk twice or none.
  return tx(["recordings", "chunks"], "readwrite", (t) => {
    t.objectStore("chunks").put(chunk);
    return t.objectStore("recordings").put(record);
  });
}
const dropChunk = (id, n) => tx(["chunks"], "readwrite", (t) => t.objectStore("chunks").delete([id, n]));
function forget(id) {
  return tx(["recordings", "chunks"], "readwrite", (t) => {
    t.objectStore("chunks").delete(IDBKeyRange.bound([id, 0], [id, Infinity]));
    return t.objectStore("recordings").delete(id);
  });
}

// ---- The server.
async function api(method, path, payload) {
  const response = await fetch(path, {
    method, credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken(), Accept: "application/json" },
    body: payload === undefined ? undefined : JSON.stringify(payload),
  });
  return response;
}

// ---- Figures a person reads.
function clock(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h > 0 ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}
function rawZone(bpm) {
  if (!anchors || bpm == null) return 0;
  const percent = ((bpm - anchors.resting) / (anchors.maximum - anchors.resting)) * 100;
  return percent >= 90 ? 4 : percent >= 80 ? 3 : percent >= 70 ? 2 : percent >= 60 ? 1 : 0;
}
function keytelPerMinute(bpm) {
  const { sex, weight, age } = body;
  const kj = sex === "male" ? -55.0969 + 0.6309 * bpm + 0.1988 * weight + 0.2017 * age : -20.4022 + 0.4472 * bpm - 0.1263 * weight + 0.074 * age;
  return kj / 4.184;
}
function haversine(a, b) {
  const rad = Math.PI / 180, R = 6371008.8;
  const dLat = (b.lat - a.lat) * rad, dLon = (b.lon - a.lon) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * R * Math.asin(Math.min(1, Math.sqrt(h)));
}

// ---- Heart-rate sources: a Bluetooth strap (strap.js) or a gateway strap (the live feed).
// Each calls onReading({ bpm: number|null, rr: [ms] }) and says how it is doing.
let strap = null;
let feedSensor = null;
let listeners = [];
const onReading = (callback) => listeners.push(callback);
function heard(reading) { for (const callback of listeners) callback(reading); }
function strapStatus(text) { $("[data-strap-status]").textContent = text; $("[data-setup-status]").textContent = text; }

async function openSource(choice, { interactive }) {
  if (choice.startsWith("gateway:")) {
    if (feedSensor !== null) { feedSensor = choice.slice(8); return true; }
    feedSensor = choice.slice(8);
    strapStatus("Listening to your gateway's strap…");
    reconnectingSocket("/api/live/feed?batch=1", {
      // ?batch=1 (PROTOCOL.md §6): a `readings` message carries several `reading` messages.
      onMessage: (message) => {
        const readings = message.type === "readings" && Array.isArray(message.items) ? message.items : [message];
        for (const reading of readings) {
          if (reading.type !== "reading" || reading.sensor !== feedSensor) continue;
          heard({ bpm: reading.bpm > 0 && reading.contact !== "not-detected" ? reading.bpm : null, rr: reading.rr || [] });
          strapStatus("Strap connected through your gateway.");
        }
      },
      onClose: () => strapStatus("The connection to the server dropped: trying again. The recording goes on."),
    });
    return true;
  }
  if (strap && (strap.state === "connected" || strap.state === "connecting" || strap.state === "reconnecting")) return true;
  const support = webBluetoothSupport();
  if (!support.supported) { strapStatus(support.reason); return false; }
  if (!strap) {
    const granted = await grantedStraps().catch(() => []);
    strap = granted[0] || (interactive ? await requestStrap() : null);
    if (!strap) { strapStatus(interactive ? "No strap chosen." : "Tap “Connect strap” to reconnect your strap."); return false; }
    strap.addEventListener("reading", (event) => {
      const { bpm, contact, rr } = event.detail;
      heard({ bpm: bpm > 0 && contact !== "not-detected" ? bpm : null, rr: rr || [] });
    });
    strap.addEventListener("state", (event) => {
      const { state, attempt, retries } = event.detail;
      strapStatus(state === "connected" ? `Connected to ${strap.name}.`
        : state === "reconnecting" ? `The strap dropped: reconnecting (try ${attempt} of ${retries}).`
        : state === "gave-up" ? "The strap did not come back. Check it is on and charged, then reload this page." : "");
    });
  }
  strapStatus("Connecting to the strap…");
  await strap.connect();
  return true;
}

// ---- The recording.
let current = null; // the IndexedDB record of the recording under way
let latest = { bpm: null, at: 0 };
let rrSince = [];
let position = null;
let geoWatch = null;
let ticker = null;
let sending = false;
let zone = { confirmed: 0, candidate: 0, run: 0 };
let figures = { kcalMean: 0, kcalCount: 0, distance: 0, lastFix: null };

onReading((reading) => {
  latest = { bpm: reading.bpm, at: Date.now() };
  // RR intervals belong to the workout only while it records (not before, not in a pause).
  if (current && current.state === "recording") {
    for (const rr of reading.rr) if (rr >= 20 && rr <= 5000 && rrSince.length < 16) rrSince.push(Math.round(rr));
  }
  if (current) $("[data-bpm]").textContent = reading.bpm ?? "–";
  if (restMeasure) restMeasure.push(reading.bpm);
});

function activeSeconds(now = Date.now()) {
  if (!current) return 0;
  const pausedNow = current.pausedAt ? (now - current.pausedAt) / 1000 : 0;
  return (now - current.startedAt) / 1000 - current.pausedSeconds - pausedNow;
}

function tick() {
  if (!current || current.state !== "recording") return;
  const now = Date.now();
  const second = Math.floor((now - current.startedAt) / 1000);
  $("[data-elapsed]").textContent = clock(activeSeconds(now));
  if (second <= current.lastSecond) return;
  current.lastSecond = second;
  const fresh = now - latest.at < 5000 ? latest.bpm : null;
  const sample = { at: current.startedAt + second * 1000, bpm: fresh, rr: rrSince.splice(0) };
  if (!current.indoor && position && now - position.at < 10000) {
    sample.lat = position.lat; sample.lon = position.lon;
    if (position.alt != null && position.alt >= -500 && position.alt <= 9000) sample.alt = position.alt;
  }
  current.pending.push(sample);
  account(sample);
  // The figures so far travel with the recording, so a reload goes on where it was.
  current.stats = { figures, zone };
  if (current.pending.length >= CHUNK_SECONDS) seal().then(send); else saveRecording(current);
}

function account(sample) {
  if (sample.bpm != null) {
    figures.kcalCount += 1;
    figures.kcalMean += (sample.bpm - figures.kcalMean) / figures.kcalCount;
  }
  const raw = rawZone(sample.bpm);
  if (raw === zone.candidate) zone.run += 1; else { zone.candidate = raw; zone.run = 1; }
  if (anchors && zone.candidate !== zone.confirmed && zone.run >= 15) {
    const up = zone.candidate > zone.confirmed;
    zone.confirmed = zone.candidate;
    announce(`${up ? "Up" : "Down"} to ${ZONES[zone.confirmed].name}.`);
  }
  if (sample.lat != null) {
    const fix = { lat: sample.lat, lon: sample.lon };
    if (figures.lastFix) figures.distance += haversine(figures.lastFix, fix);
    figures.lastFix = fix;
  }
  show();
}

function show() {
  const active = activeSeconds();
  $("[data-zone]").textContent = anchors ? ZONES[zone.confirmed].short : "–";
  const meter = $("[data-meter]");
  meter.dataset.zone = ZONES[zone.confirmed].id;
  meter.setAttribute("aria-valuenow", String(anchors ? (zone.confirmed + 1) * 20 : 0));
  meter.querySelector("span").style.width = anchors ? `${(zone.confirmed + 1) * 20}%` : "0";
  if (body && figures.kcalCount > 0) {
    $("[data-kcal]").textContent = String(Math.round(Math.max(0, keytelPerMinute(figures.kcalMean) * (active / 60))));
  }
  $("[data-distance]").textContent = (figures.distance / 1000).toFixed(2);
  $("[data-pace]").textContent = figures.distance >= 10 ? clock(active / (figures.distance / 1000)) : "–";
}

function announce(text) {
  if (!$("[data-speak]").checked || !("speechSynthesis" in window)) return;
  try { window.speechSynthesis.speak(new SpeechSynthesisUtterance(text)); } catch { /* no voice */ }
}

async function seal() {
  if (!current || current.pending.length === 0) return;
  const chunk = { id: current.id, n: current.nextChunk, samples: current.pending };
  current.pending = [];
  current.nextChunk += 1;
  await sealChunk(current, chunk);
}

function syncStatus(text) { $("[data-sync]").textContent = text; }

// Sends what is not on the server yet, oldest first; on failure tries again in 5 s.
async function send() {
  if (!current || sending) return;
  sending = true;
  const record = current;
  try {
    if (!record.created) {
      const response = await api("PUT", `/api/recordings/${record.id}`, { sport: record.sport, indoor: record.indoor, startedAt: new Date(record.startedAt).toISOString() });
      if (!response.ok) throw new Error(await problemText(response));
      record.created = true;
      await saveRecording(record);
    }
    for (const chunk of await unsentChunks(record.id)) {
      const response = await api("PUT", `/api/recordings/${record.id}/chunks/${chunk.n}`, { samples: chunk.samples });
      if (!response.ok) throw new Error(await problemText(response));
      await dropChunk(record.id, chunk.n);
    }
    syncStatus(navigator.onLine === false ? "Offline: kept on this device." : "Saved on this device and on the server.");
    if (record.state === "ending") await finish();
  } catch (error) {
    syncStatus(`Kept on this device; the server will get it when the connection is back (${error.message || "no connection"}).`);
    setTimeout(() => { sending = false; send(); }, RETRY_MS);
    return;
  }
  sending = false;
}

async function finish() {
  const record = current;
  syncStatus("Saving your workout…");
  const response = await api("POST", `/api/recordings/${record.id}/finish`, { endedAt: new Date(record.endedAt).toISOString(), pausedSeconds: Math.round(record.pausedSeconds) });
  if (response.status === 201 || response.status === 200) {
    const answer = await response.json();
    await forget(record.id);
    stopEverything();
    window.location.assign(`/workouts/${answer.summary.id}`);
    return;
  }
  const text = await problemText(response);
  if (response.status >= 500) throw new Error(text);
  syncStatus(`The server did not save it: ${text}`);
}

function stopEverything() {
  clearInterval(ticker);
  if (wakeLock) wakeLock.release().catch(() => {});
  if (geoWatch !== null) navigator.geolocation.clearWatch(geoWatch);
  if (strap) strap.stop();
  current = null;
}

function watchPosition() {
  if (current.indoor || !("geolocation" in navigator) || geoWatch !== null) return;
  geoWatch = navigator.geolocation.watchPosition(
    (fix) => {
      position = { lat: fix.coords.latitude, lon: fix.coords.longitude, alt: fix.coords.altitude, at: Date.now() };
      $("[data-geo-status]").textContent = "";
    },
    () => { $("[data-geo-status]").textContent = "Your location is not available right now: distance and pace wait for it."; },
    { enableHighAccuracy: true, maximumAge: 2000 });
}

function showLive() {
  $("[data-setup]").hidden = true;
  $("[data-live]").hidden = false;
  $("[data-elapsed]").textContent = clock(activeSeconds());
  for (const tile of root.querySelectorAll("[data-outdoor-only]")) tile.hidden = current.indoor;
  showState();
}
function showState() {
  const badge = $("[data-state]");
  const paused = current.state === "paused";
  badge.textContent = paused ? "Paused" : current.state === "ending" ? "Saving" : "Recording";
  badge.classList.toggle("paused", paused);
  $("[data-pause]").textContent = paused ? "Resume" : "Pause";
}

// The screen stays on while recording, where the browser allows it (a phone in a pocket
// would otherwise sleep and stop the page).
let wakeLock = null;
async function keepAwake() {
  try { if ("wakeLock" in navigator && !wakeLock) wakeLock = await navigator.wakeLock.request("screen"); } catch { /* not allowed: fine */ }
}
document.addEventListener("visibilitychange", () => { if (document.visibilityState === "visible" && current) { wakeLock = null; keepAwake(); } });

function begin(record) {
  current = record;
  keepAwake();
  showLive();
  watchPosition();
  ticker = setInterval(tick, 250);
  send();
}

$("[data-start]").addEventListener("click", async () => {
  const choice = root.querySelector("input[name=strap]:checked").value;
  const button = $("[data-start]");
  button.disabled = true;
  try {
    if (!(await openSource(choice, { interactive: true }))) return;
    const startedAt = Math.floor(Date.now() / 1000) * 1000;
    const record = {
      id: crypto.randomUUID(), sport: $("[data-sport]").value, indoor: root.querySelector("input[name=place]:checked").value === "indoor",
      source: choice, startedAt, state: "recording", pausedSeconds: 0, pausedAt: null, lastSecond: -1, pending: [], nextChunk: 0, created: false,
      stats: null,
    };
    await saveRecording(record);
    begin(record);
  } catch (error) {
    strapStatus(`The strap could not be connected: ${error.message || error}`);
  } finally {
    button.disabled = false;
  }
});

$("[data-pause]").addEventListener("click", async () => {
  if (!current) return;
  if (current.state === "recording") {
    current.state = "paused";
    current.pausedAt = Date.now();
  } else if (current.state === "paused") {
    current.pausedSeconds += (Date.now() - current.pausedAt) / 1000;
    current.pausedAt = null;
    // The seconds of the pause are not samples: skip them.
    current.lastSecond = Math.floor((Date.now() - current.startedAt) / 1000) - 1;
    current.state = "recording";
  }
  await saveRecording(current);
  showState();
});

$("[data-end]").addEventListener("click", () => { $("[data-confirm]").hidden = false; $("[data-confirm-end]").focus(); });
$("[data-confirm-cancel]").addEventListener("click", () => { $("[data-confirm]").hidden = true; });
$("[data-confirm-end]").addEventListener("click", async () => {
  if (!current) return;
  $("[data-confirm]").hidden = true;
  if (current.state === "paused") { current.pausedSeconds += (Date.now() - current.pausedAt) / 1000; current.pausedAt = null; }
  current.state = "ending";
  current.endedAt = Date.now();
  await seal();
  await saveRecording(current);
  showState();
  $("[data-pause]").disabled = true;
  $("[data-end]").disabled = true;
  send();
});

// ---- After a reload or a closed tab: carry on with the recording this browser keeps.
async function resume() {
  const kept = (await allRecordings()).filter((record) => ["recording", "paused", "ending"].includes(record.state));
  const record = kept.sort((a, b) => b.startedAt - a.startedAt)[0];
  if (record) {
    current = record;
    if (record.stats) ({ figures, zone } = record.stats);
    showLive();
    show();
    if (record.state !== "ending") {
      await openSource(record.source, { interactive: false }).catch((error) => strapStatus(`The strap could not be reconnected: ${error.message || error}`));
    } else {
      $("[data-pause]").disabled = true;
      $("[data-end]").disabled = true;
    }
    begin(record);
    return;
  }
  offerServerRecordings();
}

// Unfinished recordings the server has that this browser does not (another device, or a
// browser whose storage was cleared).
async function offerServerRecordings() {
  let list;
  try {
    const response = await fetch("/api/recordings", { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    list = (await response.json()).recordings;
  } catch { return; }
  const other = list.find((recording) => recording.samples > 0);
  if (!other) return;
  const box = $("[data-resume]");
  $("[data-resume-text]").textContent =
    `A recording you started on ${new Date(other.startedAt).toLocaleString()} was not ended (${clock(other.samples)} recorded).`;
  box.hidden = false;
  $("[data-resume-finish]").onclick = async () => {
    const response = await api("POST", `/api/recordings/${other.id}/finish`, {});
    if (response.ok) window.location.assign(`/workouts/${(await response.json()).summary.id}`);
    else $("[data-resume-text]").textContent = await problemText(response);
  };
  $("[data-resume-discard]").onclick = async () => {
    const response = await api("DELETE", `/api/recordings/${other.id}`);
    if (response.ok) box.hidden = true; else $("[data-resume-text]").textContent = await problemText(response);
  };
}

window.addEventListener("online", () => { if (current) send(); });

// ---- Resting heart rate (HeartMate R12: the mean of 20 s at rest), saved to the profile.
let restMeasure = null;
$("[data-rest-start]").addEventListener("click", async () => {
  const status = $("[data-rest-status]");
  const save = $("[data-rest-save]");
  save.hidden = true;
  const choice = current ? current.source : root.querySelector("input[name=strap]:checked").value;
  try {
    if (!(await openSource(choice, { interactive: true }))) { status.textContent = "Connect a strap first."; return; }
  } catch (error) { status.textContent = `The strap could not be connected: ${error.message || error}`; return; }
  restMeasure = [];
  $("[data-rest-start]").disabled = true;
  for (let left = 20; left > 0; left -= 1) {
    status.textContent = `Keep still… ${left} s`;
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  const values = restMeasure.filter((bpm) => bpm != null);
  restMeasure = null;
  $("[data-rest-start]").disabled = false;
  if (values.length < 10) { status.textContent = "Too few readings from the strap: check it sits well and try again."; return; }
  const mean = Math.round(values.reduce((a, b) => a + b, 0) / values.length);
  status.textContent = `Your resting heart rate: ${mean} bpm.`;
  save.hidden = false;
  save.onclick = async () => {
    const response = await api("POST", "/api/me/resting-heart-rates", { bpm: mean });
    status.textContent = response.ok ? `Saved: ${mean} bpm is your resting heart rate now.` : await problemText(response);
    save.hidden = true;
  };
});

resume().catch((error) => strapStatus(`This browser cannot keep a recording: ${error.message || error}`));
