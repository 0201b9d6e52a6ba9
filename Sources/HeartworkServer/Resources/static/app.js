// Heartwork web app: the little JavaScript the pages need (uploads, confirmations, the
// browser's time zone, chart readouts). Every page works without it, with less comfort.
"use strict";

function csrfToken() {
  const meta = document.querySelector('meta[name="csrf-token"]');
  return meta ? meta.content : "";
}

async function problemText(response) {
  try {
    const problem = await response.json();
    // `message` is written for people; `detail` (older servers, scripts) is the technical account.
    return problem.message || (problem.field ? `${problem.detail} (${problem.field})` : problem.detail);
  } catch {
    return `the server answered ${response.status}`;
  }
}

// A pointer or finger over a chart shows the value under it (and the keyboard can step
// through the points with the arrow keys once the chart has focus).
function attachReadout(holder) {
  let points;
  try { points = JSON.parse(holder.dataset.readout || "[]"); } catch { return; }
  const svg = holder.querySelector("svg");
  const output = (holder.closest("figure") || holder).querySelector(".readout");
  if (!svg || !output || points.length === 0) return;
  const ns = "http://www.w3.org/2000/svg";
  const line = document.createElementNS(ns, "line");
  const dot = document.createElementNS(ns, "circle");
  line.setAttribute("stroke", "#1f2933"); line.setAttribute("stroke-dasharray", "3 3"); line.setAttribute("visibility", "hidden");
  dot.setAttribute("r", "5"); dot.setAttribute("fill", "#1f2933"); dot.setAttribute("stroke", "#fff"); dot.setAttribute("stroke-width", "2");
  dot.setAttribute("visibility", "hidden");
  svg.append(line, dot);
  const height = svg.viewBox.baseVal.height;
  let current = 0;
  function show(index) {
    current = Math.max(0, Math.min(points.length - 1, index));
    const [x, y, text] = points[current];
    line.setAttribute("x1", x); line.setAttribute("x2", x); line.setAttribute("y1", 30); line.setAttribute("y2", height - 44);
    dot.setAttribute("cx", x); dot.setAttribute("cy", y);
    line.setAttribute("visibility", "visible"); dot.setAttribute("visibility", "visible");
    output.textContent = text;
  }
  function nearest(clientX, clientY) {
    const matrix = svg.getScreenCTM();
    if (!matrix) return;
    const point = new DOMPoint(clientX, clientY).matrixTransform(matrix.inverse());
    let low = 0, high = points.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (points[middle][0] < point.x) low = middle + 1; else high = middle;
    }
    if (low > 0 && Math.abs(points[low - 1][0] - point.x) < Math.abs(points[low][0] - point.x)) low -= 1;
    show(low);
  }
  svg.addEventListener("pointermove", (event) => nearest(event.clientX, event.clientY));
  svg.addEventListener("pointerdown", (event) => nearest(event.clientX, event.clientY));
  svg.setAttribute("tabindex", "0");
  svg.addEventListener("keydown", (event) => {
    const step = Math.max(1, Math.round(points.length / 60));
    if (event.key === "ArrowRight") { show(current + step); event.preventDefault(); }
    if (event.key === "ArrowLeft") { show(current - step); event.preventDefault(); }
  });
}

document.addEventListener("DOMContentLoaded", () => {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
  for (const input of document.querySelectorAll("input[data-time-zone]")) input.value = zone;
  // A profile still on UTC offers the browser's zone.
  const select = document.querySelector("select[data-time-zone-select]");
  if (select && select.value === "" && zone) {
    for (const option of select.options) if (option.value === zone) { option.textContent = `${zone} (this device)`; }
  }

  for (const holder of document.querySelectorAll("[data-readout]")) attachReadout(holder);

  const foodForm = document.querySelector("[data-food-photo]");
  if (foodForm) startFoodPhoto(foodForm);
  const healthForm = document.querySelector("[data-health-import]");
  if (healthForm) startHealthImport(healthForm);

  const uploadForm = document.querySelector("[data-upload-workout]");
  if (uploadForm) {
    const input = document.getElementById("workout-file");
    const status = document.getElementById("upload-status");
    const progress = document.getElementById("upload-progress");
    const results = document.getElementById("upload-results");
    const mediaType = (name) => {
      if (/\.fit$/i.test(name)) return "application/vnd.ant.fit";
      if (/\.tcx$/i.test(name)) return "application/vnd.garmin.tcx+xml";
      if (/\.gpx$/i.test(name)) return "application/gpx+xml";
      if (/\.json$/i.test(name)) return "application/json";
      return "application/octet-stream";
    };
    const result = (name, text, link, kind) => {
      const item = document.createElement("li");
      item.className = kind;
      const strong = document.createElement("strong");
      strong.textContent = name;
      item.append(strong, " — ");
      if (link) {
        const a = document.createElement("a");
        a.href = link;
        a.textContent = text;
        item.append(a);
      } else {
        item.append(text);
      }
      results.append(item);
    };
    const upload = async (files) => {
      if (files.length === 0) { status.textContent = "Choose a file first."; return; }
      results.replaceChildren();
      status.className = "";
      progress.hidden = false;
      progress.max = files.length;
      progress.value = 0;
      let imported = 0, duplicates = 0, failed = 0, noted = 0, last = null;
      for (const file of files) {
        status.textContent = `Uploading ${file.name} (${progress.value + 1} of ${files.length})…`;
        try {
          const response = await fetch("/api/workouts", {
            method: "POST",
            headers: { "Content-Type": mediaType(file.name), "X-CSRF-Token": csrfToken() },
            body: file,
            credentials: "same-origin",
          });
          if (response.ok) {
            const workout = await response.json();
            last = `/workouts/${workout.summary.id}`;
            imported += 1;
            const notes = (workout.warnings || []).map((w) => w.message + (w.line ? ` (line ${w.line})` : w.byte ? ` (byte ${w.byte})` : ""));
            if (notes.length > 0) noted += 1;
            result(file.name, notes.length > 0 ? `imported; left out: ${notes.join("; ")}` : "imported", last, notes.length > 0 ? "noted" : "ok");
          } else if (response.status === 409 && response.headers.get("Location")) {
            duplicates += 1;
            result(file.name, "already here (not stored twice)", response.headers.get("Location").replace("/api/", "/"), "duplicate");
          } else {
            failed += 1;
            result(file.name, `not imported. ${await problemText(response)}`, null, "error");
          }
        } catch (error) {
          failed += 1;
          result(file.name, `not sent: the connection to the server was lost (${error.message || error}). Check the network and try this file again.`, null, "error");
        }
        progress.value += 1;
      }
      // One file read whole: straight to it. Anything left out is said here first.
      if (files.length === 1 && imported === 1 && noted === 0) { window.location.assign(last); return; }
      status.textContent = `${imported} imported${noted > 0 ? ` (${noted} with parts left out, listed below)` : ""}, ${duplicates} already here, ${failed} failed.`;
      if (failed > 0) status.className = "error";
    };
    uploadForm.addEventListener("submit", (event) => {
      event.preventDefault();
      upload(Array.from(input.files));
    });
    const zone = uploadForm.querySelector("[data-drop-zone]");
    zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("dragging"); });
    zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
    zone.addEventListener("drop", (event) => {
      event.preventDefault();
      zone.classList.remove("dragging");
      upload(Array.from(event.dataTransfer.files));
    });
  }

  const photo = document.querySelector("[data-upload-photo]");
  if (photo) {
    photo.addEventListener("change", async () => {
      const status = document.getElementById("photo-status");
      const file = photo.files[0];
      if (!file) return;
      status.textContent = "Uploading photo…";
      const response = await fetch(photo.dataset.uploadPhoto || "/api/me/photo", {
        method: "PUT",
        headers: { "Content-Type": file.type || "application/octet-stream", "X-CSRF-Token": csrfToken() },
        body: file,
        credentials: "same-origin",
      });
      if (response.ok) { window.location.reload(); }
      else { status.textContent = `Photo not saved: ${await problemText(response)}`; }
    });
  }

  for (const form of document.querySelectorAll("form[data-confirm]")) {
    form.addEventListener("submit", (event) => {
      if (!window.confirm(form.dataset.confirm)) event.preventDefault();
    });
  }

  const summary = document.getElementById("error-summary");
  if (summary) summary.focus();
});

// The coach's big screen (/teams/{id}/live): tiles drawn from /api/teams/{id}/board, then
// every reading of the team's sensors from the feed socket, with no reload. A tile fades
// when its strap has been silent for 5 s; TRIMP adds up while a session records, the way the
// server's review counts it (each reading stands for the time until the next, at most 5 s).
// The socket reconnects by itself with backoff after a network drop.
function startCoach(root) {
  const teamID = root.dataset.coach;
  const startsAt = Number(root.dataset.startsAt || 0);
  const plannedEndAt = Number(root.dataset.plannedEndAt || 0);
  const connection = root.querySelector("[data-connection]");
  const clock = root.querySelector("[data-clock]");
  const state = root.querySelector("[data-session-state]");
  const tiles = new Map();
  let staleAfter = 5000;
  let skew = 0; // server clock − browser clock, ms
  for (const element of root.querySelectorAll("[data-sensor]")) {
    tiles.set(element.dataset.sensor, { element, heardAt: 0, lastAt: 0, lastBpm: 0, trimp: null });
  }

  function zoneOf(tile, bpm) {
    const t = tile.thresholds;
    if (!t) return -1;
    let zone = 0;
    for (let i = 0; i < t.length; i++) if (bpm >= t[i]) zone = i + 1;
    return zone;
  }

  function impulse(tile, bpm, seconds) {
    if (tile.k == null || !(seconds > 0)) return 0;
    const reserve = tile.max - tile.rest;
    const fraction = Math.min(1, Math.max(0, (bpm - tile.rest) / reserve));
    return seconds / 60 * fraction * tile.k * Math.exp(tile.b * fraction);
  }

  function recording(at) {
    return startsAt > 0 && at >= startsAt && (plannedEndAt === 0 || at < plannedEndAt) && !root.querySelector("form[action$='/save']");
  }

  function show(tile, reading) {
    const el = tile.element;
    el.querySelector("[data-bpm]").textContent = reading.bpm > 0 ? reading.bpm : "–";
    const percent = tile.max && reading.bpm > 0 ? Math.round(100 * reading.bpm / tile.max) + " %" : "–";
    el.querySelector("[data-percent]").textContent = percent;
    const zone = reading.bpm > 0 ? zoneOf(tile, reading.bpm) : -1;
    el.classList.remove("z0", "z1", "z2", "z3", "z4");
    if (zone >= 0) el.classList.add("z" + zone);
    if (reading.battery != null) {
      // A battery drawn in SVG (no emoji font needed), filled to its level.
      const level = Math.max(0, Math.min(100, reading.battery));
      el.querySelector("[data-battery]").innerHTML =
        '<svg width="22" height="12" viewBox="0 0 22 12" aria-hidden="true"><rect x="0.5" y="0.5" width="18" height="11" rx="2" fill="none" stroke="currentColor"/>' +
        '<rect x="19" y="3.5" width="2.5" height="5" fill="currentColor"/><rect x="2" y="2" width="' + (15 * level / 100).toFixed(1) +
        '" height="8" fill="currentColor"/></svg> ' + level + " %";
      el.classList.toggle("low-battery", level <= 20);
    }
    const contact = el.querySelector("[data-contact]");
    contact.textContent = reading.contact === "not-detected" ? "♡ no contact" : reading.contact === "detected" ? "♥" : "";
    el.classList.toggle("no-contact", reading.contact === "not-detected");
    if (tile.trimp != null) el.querySelector("[data-trimp]").textContent = "TRIMP " + tile.trimp.toFixed(1);
  }

  function take(reading) {
    const tile = tiles.get(reading.sensor);
    if (!tile) return;
    // Readings of a strap may arrive out of order after a gateway reconnects: only newer ones
    // move the tile and add TRIMP.
    if (reading.at <= tile.lastAt) return;
    if (tile.trimp != null && tile.lastAt > 0 && tile.lastBpm > 0 && recording(tile.lastAt)) {
      tile.trimp += impulse(tile, tile.lastBpm, Math.min(staleAfter, reading.at - tile.lastAt) / 1000);
    }
    tile.lastAt = reading.at;
    tile.lastBpm = reading.bpm;
    tile.heardAt = Date.now();
    tile.element.classList.remove("stale");
    tile.element.querySelector("[data-status]").textContent = "";
    show(tile, reading);
  }

  function tick() {
    const now = Date.now();
    for (const tile of tiles.values()) {
      const silent = tile.heardAt === 0 ? Infinity : now - tile.heardAt;
      if (silent > staleAfter) {
        tile.element.classList.add("stale");
        tile.element.querySelector("[data-status]").textContent =
          tile.heardAt === 0 ? "No signal yet" : "No signal for " + Math.round(silent / 1000) + " s";
      }
    }
    if (startsAt > 0 && clock) {
      const serverNow = now + skew;
      const end = plannedEndAt > 0 ? Math.min(serverNow, plannedEndAt) : serverNow;
      if (serverNow < startsAt) {
        clock.textContent = "Starts in " + Math.ceil((startsAt - serverNow) / 1000) + " s";
      } else {
        const seconds = Math.floor((end - startsAt) / 1000);
        const text = Math.floor(seconds / 60) + ":" + String(seconds % 60).padStart(2, "0");
        clock.textContent = plannedEndAt > 0 ? text + " of " + Math.round((plannedEndAt - startsAt) / 60000) + ":00" : text;
        if (state && state.textContent === "Starting…") state.textContent = "Recording";
        // The planned end has come: show the stopped session (save or discard).
        if (plannedEndAt > 0 && serverNow >= plannedEndAt + 1000 && !root.dataset.reloaded && !root.querySelector("form[action$='/save']")) {
          root.dataset.reloaded = "1";
          window.location.reload();
        }
      }
    }
  }

  async function loadBoard() {
    const response = await fetch("/api/teams/" + encodeURIComponent(teamID) + "/board", { credentials: "same-origin" });
    if (!response.ok) throw new Error("board " + response.status);
    const board = await response.json();
    staleAfter = 1000 * (board.staleAfterSeconds || 5);
    skew = Date.parse(board.serverTime) - Date.now();
    for (const data of board.tiles) {
      const tile = tiles.get(data.sensorID);
      if (!tile) continue;
      tile.thresholds = data.zoneThresholds || null;
      tile.max = data.maximumHeartRate || null;
      tile.rest = data.restingHeartRate || null;
      tile.k = data.trimpK == null ? null : data.trimpK;
      tile.b = data.trimpB == null ? null : data.trimpB;
      tile.trimp = board.session && data.trimp != null ? data.trimp : null;
      if (data.lastBpm != null && data.lastSeenAt) {
        const seen = Date.parse(data.lastSeenAt);
        tile.lastAt = seen;
        tile.lastBpm = data.lastBpm;
        if (Date.now() + skew - seen < staleAfter) tile.heardAt = Date.now() - Math.max(0, Date.now() + skew - seen);
        show(tile, { bpm: data.lastBpm, battery: data.battery, contact: data.contact });
      }
    }
    tick();
  }

  let delay = 1000;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + "/api/live/feed");
    connection.textContent = "Connecting…";
    socket.addEventListener("open", () => {
      delay = 1000;
      connection.textContent = "Live";
      connection.classList.add("live");
      // What was missed while away: the board has each sensor's latest reading and TRIMP.
      loadBoard().catch(() => {});
    });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (message.type === "reading") take(message);
    });
    socket.addEventListener("close", () => {
      connection.classList.remove("live");
      connection.textContent = "Connection lost: retrying in " + Math.round(delay / 1000) + " s";
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 15000);
    });
  }

  setInterval(tick, 1000);
  loadBoard().catch(() => { connection.textContent = "Could not load the team"; }).finally(connect);
}

// Decodes a Heart Rate Measurement (0x2A37) as the server does (Bluetooth HRS 1.0 §3.1):
// flags bit 0 = 16-bit heart rate, bits 1–2 = sensor contact (3 detected, 2 not detected).
// Returns the bpm to race with: 0 when the strap says it has no skin contact.
function decodeHeartRateMeasurement(view) {
  if (view.byteLength < 2) return null;
  const flags = view.getUint8(0);
  const wide = (flags & 1) !== 0;
  if (wide && view.byteLength < 3) return null;
  const bpm = wide ? view.getUint16(1, true) : view.getUint8(1);
  const contact = (flags & 6) >> 1;
  return contact === 2 ? 0 : bpm;
}

const ZONE_NAMES = { "none": "Z1 · None", "low": "Z2 · Low", "moderate": "Z3 · Moderate", "high": "Z4 · High", "red-line": "Z5 · Red Line" };

// The match room (docs/PROTOCOL.md §10): the lobby, the countdown, one reading a second from
// the strap (Web Bluetooth) or the slider, both meters and scores, spoken zone changes.
function startMatch(root) {
  const arena = root.querySelector("[data-arena]");
  if (!arena) return;
  const id = root.dataset.match;
  const duration = Number(root.dataset.duration);
  const $ = (selector) => root.querySelector(selector);
  const lobby = $("[data-lobby]"), countdown = $("[data-countdown]"), connection = $("[data-connection]");
  const slider = $("[data-simulated]"), sliderValue = $("[data-simulated-value]");
  const speak = $("[data-speak]"), events = $("[data-events]"), stateLabel = $("[data-match-state]");
  let strap = null; // { bpm, at } from Bluetooth
  let socket = null, startAt = null, secondMs = 1000, offset = 0, nextSecond = 0, over = false;

  slider.addEventListener("input", () => { sliderValue.textContent = slider.value; });

  const bluetooth = $("[data-bluetooth]"), bluetoothState = $("[data-bluetooth-state]");
  if (!navigator.bluetooth) {
    bluetooth.disabled = true;
    bluetoothState.textContent = "this browser has no Web Bluetooth (Chromium has); use the slider";
  }
  bluetooth.addEventListener("click", async () => {
    try {
      const device = await navigator.bluetooth.requestDevice({ filters: [{ services: ["heart_rate"] }] });
      bluetoothState.textContent = "connecting to " + (device.name || "the strap") + "…";
      const server = await device.gatt.connect();
      const service = await server.getPrimaryService("heart_rate");
      const characteristic = await service.getCharacteristic("heart_rate_measurement");
      characteristic.addEventListener("characteristicvaluechanged", (event) => {
        const bpm = decodeHeartRateMeasurement(event.target.value);
        if (bpm !== null) strap = { bpm, at: Date.now() };
      });
      await characteristic.startNotifications();
      bluetoothState.textContent = (device.name || "Strap") + " connected";
      device.addEventListener("gattserverdisconnected", () => { strap = null; bluetoothState.textContent = "strap disconnected: using the slider"; });
    } catch (error) {
      bluetoothState.textContent = "no strap: " + error.message;
    }
  });

  function currentBpm() {
    if (strap && Date.now() - strap.at < 3000) return strap.bpm;
    return Number(slider.value);
  }

  function side(prefix, state) {
    $(`[data-${prefix}-zone]`).textContent = ZONE_NAMES[state.zone] || state.zone;
    $(`[data-${prefix}-score]`).textContent = state.score;
    const meter = $(`[data-${prefix}-meter]`);
    meter.setAttribute("aria-valuenow", state.progress);
    meter.querySelector("span").style.width = state.progress + "%";
    meter.dataset.zone = state.zone;
  }

  function format(seconds) {
    seconds = Math.max(0, seconds);
    const m = Math.floor(seconds / 60), s = seconds % 60;
    return m + ":" + String(s).padStart(2, "0");
  }

  // A strap heard by one of the player's gateways: the server plays this side from it, so the
  // page sends nothing. It can be chosen until the countdown begins.
  const sensor = $("[data-sensor]");
  if (sensor) sensor.addEventListener("change", () => {
    if (startAt !== null || !socket) return;
    const old = socket;
    socket = null;
    old.close();
    connect();
  });

  function tick() {
    if (startAt === null || over || !socket || socket.readyState !== WebSocket.OPEN) return;
    if (sensor && sensor.value) return;
    const now = Date.now() + offset;
    if (now < startAt) {
      countdown.hidden = false;
      countdown.textContent = "Starting in " + Math.ceil((startAt - now) / secondMs);
      return;
    }
    countdown.hidden = true;
    const second = Math.floor((now - startAt) / secondMs);
    while (nextSecond <= second && nextSecond < duration) {
      socket.send(JSON.stringify({ type: "reading", second: nextSecond, bpm: currentBpm() }));
      nextSecond += 1;
    }
  }

  function take(message) {
    switch (message.type) {
      case "lobby":
        if (message.ghost) lobby.textContent = "The ghost is ready: get ready!";
        else if (message.present.length >= 2) lobby.textContent = "Both here: get ready!";
        else if (root.dataset.state === "invited") lobby.textContent = "Waiting until your opponent accepts and joins — or declines.";
        else lobby.textContent = "Waiting for your opponent to join…";
        break;
      case "start":
        if (sensor) sensor.disabled = true;
        offset = message.now - Date.now();
        startAt = message.at;
        secondMs = message.secondMilliseconds || 1000;
        nextSecond = Math.max(nextSecond, 0);
        lobby.textContent = "Go when the countdown ends!";
        break;
      case "state":
        if (stateLabel.textContent !== "Running") { stateLabel.textContent = "Running"; lobby.textContent = "Racing: every second in a higher zone than your opponent is a point."; }
        $("[data-you-bpm]").textContent = message.you.bpm === null ? "–" : Math.round(message.you.bpm);
        side("you", message.you);
        side("opponent", message.opponent);
        $("[data-time-left]").textContent = format(duration - message.second - 1);
        break;
      case "event": {
        const item = document.createElement("li");
        item.textContent = message.text;
        events.prepend(item);
        if (speak.checked && window.speechSynthesis) window.speechSynthesis.speak(new SpeechSynthesisUtterance(message.text));
        break;
      }
      case "error":
        connection.textContent = "Not taken: " + message.detail;
        break;
      case "end":
        over = true;
        lobby.textContent = "The match is over.";
        setTimeout(() => window.location.reload(), 800);
        break;
      case "closed":
        over = true;
        lobby.textContent = message.detail || "The match is closed.";
        if (message.reason !== "replaced") setTimeout(() => window.location.reload(), 1500);
        break;
    }
  }

  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const strap = sensor && sensor.value ? "?sensor=" + encodeURIComponent(sensor.value) : "";
    const current = new WebSocket(scheme + window.location.host + "/api/live/matches/" + encodeURIComponent(id) + strap);
    socket = current;
    current.addEventListener("open", () => { connection.textContent = "Connected"; });
    current.addEventListener("message", (event) => {
      if (socket !== current) return;
      try { take(JSON.parse(event.data)); } catch { /* not ours */ }
    });
    current.addEventListener("close", () => {
      if (over || socket !== current) return;
      over = true;
      connection.textContent = "Connection lost.";
      setTimeout(() => window.location.reload(), 2000);
    });
  }

  setInterval(tick, 100);
  connect();
}

// The unread badge in the navigation, and a short notice when something happens while a
// page is open (GET /api/live/notifications); it reconnects with a growing pause.
function watchNotifications() {
  const badges = document.querySelectorAll("[data-unread]");
  if (badges.length === 0 || !("WebSocket" in window)) return;
  let delay = 1000;
  function show(unread) {
    for (const badge of badges) {
      badge.textContent = unread > 99 ? "99+" : String(unread);
      badge.hidden = unread === 0;
    }
    const link = document.querySelector("[data-inbox]");
    if (link) link.setAttribute("aria-label", unread === 0 ? "Notifications" : `Notifications, ${unread} unread`);
  }
  function toast(text, link) {
    let region = document.querySelector("[data-toasts]");
    if (!region) {
      region = document.createElement("div");
      region.className = "toasts";
      region.dataset.toasts = "";
      region.setAttribute("role", "status");
      document.body.append(region);
    }
    const item = document.createElement(link ? "a" : "p");
    item.className = "toast";
    item.textContent = text;
    if (link) item.href = link;
    region.append(item);
    setTimeout(() => item.remove(), 8000);
  }
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss://" : "ws://";
    const socket = new WebSocket(scheme + window.location.host + "/api/live/notifications");
    socket.addEventListener("open", () => { delay = 1000; });
    socket.addEventListener("message", (event) => {
      let message;
      try { message = JSON.parse(event.data); } catch { return; }
      if (typeof message.unread === "number") show(message.unread);
      if (message.type === "notification") toast(message.text, message.link);
    });
    socket.addEventListener("close", () => {
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 30000);
    });
  }
  connect();
}

document.addEventListener("DOMContentLoaded", () => {
  const coach = document.querySelector("[data-coach]");
  if (coach) startCoach(coach);
  const match = document.querySelector("[data-match]");
  if (match) startMatch(match);
  watchNotifications();
  if (document.querySelector("form[data-set-form]") || document.querySelector("[data-elapsed]")) startStrengthSession();
  const routineForm = document.querySelector("form[data-routine-form]");
  if (routineForm) startRoutineForm(routineForm);
  const importForm = document.querySelector("form[data-import-form]");
  if (importForm) startImportForm(importForm);
  for (const form of document.querySelectorAll("form[data-autosubmit]")) {
    for (const select of form.querySelectorAll("select")) select.addEventListener("change", () => form.submit());
  }
});

// Strength session: set edits are saved in place through the API (the forms still work without
// JavaScript). A tap on ✓ saves the row and marks it done; leaving a field saves the value.
function startStrengthSession() {
  for (const form of document.querySelectorAll("form[data-set-form]")) {
    const row = form.closest(".set-row");
    const button = form.querySelector(".done-button");
    let queue = Promise.resolve();
    // One request at a time per set, in the order the lifter acted (a field left by tapping ✓
    // saves its value first, then the tap).
    function save(done) {
      queue = queue.then(() => send(done));
      return queue;
    }
    async function send(done) {
      const body = {};
      const weight = form.elements.weight.value.trim().replace(",", ".");
      const reps = form.elements.reps.value.trim();
      if (weight !== "" && !Number.isFinite(Number(weight))) { showSetError(row, `'${weight}' is not a number: type the weight in ${form.dataset.unit || "kg"}`); return; }
      if (reps !== "" && !/^\d+$/.test(reps)) { showSetError(row, `'${reps}' is not a whole number of reps`); return; }
      if (weight !== "") body.weight = Number(weight);
      if (reps !== "") body.reps = Number(reps);
      if (done !== undefined) body.done = done;
      row.classList.add("saving");
      try {
        const response = await fetch(`/api/strength/sessions/${form.dataset.session}/sets/${form.dataset.set}`, {
          method: "PUT", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() }, body: JSON.stringify(body),
        });
        const answer = await response.json();
        if (!response.ok) { showSetError(row, answer.detail || "Not saved"); return; }
        clearSetError(row);
        const set = answer.sets.find((s) => String(s.n) === form.dataset.set);
        if (set) {
          row.classList.toggle("done", set.done);
          if (button) { button.value = set.done ? "0" : "1"; button.setAttribute("aria-pressed", String(set.done)); }
        }
      } catch (error) {
        showSetError(row, "Not saved: the server did not answer. Try again.");
      } finally {
        row.classList.remove("saving");
      }
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const done = event.submitter ? event.submitter.value === "1" : !row.classList.contains("done");
      save(done);
    });
    for (const input of form.querySelectorAll("input[name=weight], input[name=reps]")) {
      input.addEventListener("change", () => save(undefined));
    }
  }
  const elapsed = document.querySelector("[data-elapsed]");
  if (elapsed) {
    const start = Number(elapsed.dataset.elapsed);
    const tick = () => {
      const seconds = Math.max(0, Math.floor((Date.now() - start) / 1000));
      const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
      elapsed.textContent = (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")} elapsed`;
    };
    tick();
    setInterval(tick, 1000);
  }
}

function showSetError(row, text) {
  let note = row.querySelector(".field-error");
  if (!note) { note = document.createElement("p"); note.className = "field-error"; note.setAttribute("role", "alert"); row.appendChild(note); }
  note.textContent = text;
}

function clearSetError(row) {
  const note = row.querySelector(".field-error");
  if (note) note.remove();
}

// A new routine: the order the exercises are ticked in is the order they are done.
function startRoutineForm(form) {
  const order = form.querySelector("#order");
  const chosen = form.querySelector("[data-chosen]");
  let ids = order.value ? order.value.split(",").filter(Boolean) : [];
  const boxes = Array.from(form.querySelectorAll("input[name='exercises[]']"));
  function names(id) {
    const box = boxes.find((b) => b.value === id);
    const text = box ? box.closest("label").querySelector(".label-text") : null;
    return text ? text.firstChild.textContent.trim() : id;
  }
  function render() {
    order.value = ids.join(",");
    for (const box of boxes) {
      const pos = form.querySelector(`[data-pos="${box.value}"]`);
      const index = ids.indexOf(box.value);
      if (pos) pos.textContent = index >= 0 ? String(index + 1) : "";
    }
    chosen.textContent = ids.length ? ids.map((id, i) => `${i + 1}. ${names(id)}`).join(" · ") : "Nothing chosen yet.";
  }
  for (const box of boxes) {
    box.addEventListener("change", () => {
      ids = ids.filter((id) => id !== box.value);
      if (box.checked) ids.push(box.value);
      render();
    });
  }
  render();
}

function startImportForm(form) {
  const file = form.querySelector("[data-csv-file]");
  const text = form.querySelector("textarea[name=csv]");
  file.addEventListener("change", () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const reader = new FileReader();
    reader.onload = () => { text.value = reader.result; };
    reader.readAsText(chosen);
  });
}

// "1,652 new samples; 2 workouts added, 1 already here, 1 left out: no heart rate was recorded during it"
function importOutcome(state) {
  const count = (n, noun) => `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
  const workouts = [`${count(state.workoutsAdded, "workout")} added`];
  if (state.workoutsDuplicate > 0) workouts.push(`${state.workoutsDuplicate} already here`);
  const skipped = (state.workoutsSkipped || []).reduce((sum, s) => sum + s.count, 0);
  if (skipped > 0) {
    workouts.push(`${skipped} left out: ${state.workoutsSkipped.map((s) => s.reason + (s.count > 1 ? ` (${s.count})` : "")).join("; ")}`);
  }
  return `${count(state.samplesAdded, "new sample")}; ${workouts.join(", ")}`;
}

// The list of imports, fetched again once one ends (the page was drawn before it began).
async function refreshImports() {
  const list = document.getElementById("health-imports");
  if (!list) return;
  const response = await fetch("/health/import", { credentials: "same-origin" });
  if (!response.ok) return;
  const page = new DOMParser().parseFromString(await response.text(), "text/html");
  const fresh = page.getElementById("health-imports");
  if (fresh) list.replaceChildren(...fresh.childNodes);
}

// The Apple Health import: the file goes as the raw body (with upload progress), then the
// import's own progress is followed until it is done.
function startHealthImport(form) {
  const input = form.querySelector("input[type=file]");
  const progress = document.getElementById("health-progress");
  const status = document.getElementById("health-status");
  const show = (text, fraction) => {
    status.textContent = text;
    progress.hidden = false;
    progress.value = fraction;
  };
  const follow = async (id) => {
    for (;;) {
      const response = await fetch(`/api/imports/${encodeURIComponent(id)}`, { credentials: "same-origin" });
      if (!response.ok) { show(`The import's progress cannot be read: ${await problemText(response)}`, 0); return; }
      const state = await response.json();
      if (state.state === "done") {
        show(`Done: ${importOutcome(state)}.`, 1);
        const link = document.createElement("a");
        link.href = "/today";
        link.textContent = "See today";
        status.append(" ", link);
        refreshImports();
        return;
      }
      if (state.state === "failed") {
        show(`The import stopped: ${state.error}. What came before it is kept (${importOutcome(state)}).`, state.progress);
        refreshImports();
        return;
      }
      show(`Importing… ${Math.round(state.progress * 100)} % (${state.samplesRead} samples read)`, state.progress);
      await new Promise((resolve) => setTimeout(resolve, 1000));
    }
  };
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    const file = input.files && input.files[0];
    if (!file) { status.textContent = "Choose your export.zip or export.xml first."; return; }
    const type = /\.xml$/i.test(file.name) ? "application/xml" : "application/zip";
    const request = new XMLHttpRequest();
    request.open("POST", "/api/imports/apple-health");
    request.setRequestHeader("Content-Type", type);
    request.setRequestHeader("X-CSRF-Token", csrfToken());
    request.upload.onprogress = (e) => { if (e.lengthComputable) show(`Uploading… ${Math.round(100 * e.loaded / e.total)} %`, e.loaded / e.total); };
    request.onerror = () => show("The upload failed: the server cannot be reached.", 0);
    request.onload = () => {
      let body = {};
      try { body = JSON.parse(request.responseText); } catch { body = {}; }
      if (request.status === 202) { show("Uploaded; importing…", 0); follow(body.id); }
      else show(`The upload was refused: ${body.detail || request.status}`, 0);
    };
    show("Uploading…", 0);
    request.send(file);
  });
}

// A photo of a food label goes to the API as it is; the answer fills the result panel.
function startFoodPhoto(form) {
  const input = form.querySelector("input[type=file]");
  const status = document.getElementById("food-status");
  const panel = document.getElementById("food-result");
  const values = document.getElementById("food-values");
  const verdict = document.getElementById("food-verdict");
  const rows = [["Calories", "calories", "kcal"], ["Fat", "totalFatGrams", "g"], ["Saturated fat", "saturatedFatGrams", "g"],
    ["Trans fat", "transFatGrams", "g"], ["Cholesterol", "cholesterolMilligrams", "mg"], ["Sodium", "sodiumMilligrams", "mg"],
    ["Carbohydrate", "carbohydrateGrams", "g"], ["Fibre", "fiberGrams", "g"], ["Sugars", "sugarsGrams", "g"],
    ["Added sugars", "addedSugarsGrams", "g"], ["Protein", "proteinGrams", "g"]];
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    status.textContent = "Reading the photo…";
    const response = await fetch("/api/food-label", {
      method: "POST", credentials: "same-origin", body: file,
      headers: { "Content-Type": file.type || "image/jpeg", "X-CSRF-Token": csrfToken() },
    });
    if (!response.ok) { status.textContent = await problemText(response); return; }
    const label = await response.json();
    status.textContent = "";
    const basis = label.basis && label.basis !== "serving" ? `Per ${label.basis}` : "Per serving";
    document.getElementById("food-serving").textContent = label.servingSize && basis === "Per serving" ? `${basis} (${label.servingSize})` : basis;
    values.replaceChildren();
    for (const [name, key, unit] of rows) {
      if (label[key] === undefined) continue;
      const row = document.createElement("div");
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = name;
      dd.textContent = `${label[key]} ${unit}`;
      row.append(dt, dd);
      values.append(row);
    }
    verdict.replaceChildren();
    const strong = document.createElement("strong");
    strong.className = label.unhealthy ? "status-strained" : "status-ready";
    strong.textContent = label.unhealthy ? "Unhealthy" : "Nothing above the thresholds.";
    verdict.append(strong, label.unhealthy ? `: ${label.reasons.join("; ")}` : "");
    panel.hidden = false;
  });
}
