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
    return problem.field ? `${problem.detail} (${problem.field})` : problem.detail;
  } catch {
    return `the server answered ${response.status}`;
  }
}

// A pointer or finger over a chart shows the value under it (and the keyboard can step
// through the points with the arrow keys once the chart has focus).
function attachReadout(figure) {
  let points;
  try { points = JSON.parse(figure.dataset.readout || "[]"); } catch { return; }
  const svg = figure.querySelector("svg");
  const output = figure.querySelector(".readout");
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

  for (const figure of document.querySelectorAll("figure[data-readout]")) attachReadout(figure);

  const uploadForm = document.querySelector("[data-upload-workout]");
  if (uploadForm) {
    uploadForm.addEventListener("submit", async (event) => {
      event.preventDefault();
      const status = document.getElementById("upload-status");
      const file = document.getElementById("workout-file").files[0];
      if (!file) { status.textContent = "Choose a file first."; return; }
      status.textContent = "Uploading…";
      const response = await fetch("/api/workouts", {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
        body: await file.text(),
        credentials: "same-origin",
      });
      if (response.ok) {
        const workout = await response.json();
        window.location.assign(`/workouts/${workout.summary.id}`);
      } else {
        status.textContent = `Upload failed: ${await problemText(response)}`;
        status.className = "error";
      }
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

document.addEventListener("DOMContentLoaded", () => {
  const coach = document.querySelector("[data-coach]");
  if (coach) startCoach(coach);
});
