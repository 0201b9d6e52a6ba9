import { reconnectingSocket } from "/static/common.js";

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

  // The player's photo, small and round, or their initials when there is none (the board
  // says which; a photo added since the page loaded appears at the next board load).
  function photo(tile, url) {
    const place = tile.element.querySelector("[data-photo]");
    if (!place) return;
    const image = place.querySelector("img");
    if (url && (!image || image.getAttribute("src") !== url)) {
      const img = document.createElement("img");
      img.src = url;
      img.alt = "";
      img.width = 32;
      img.height = 32;
      img.addEventListener("error", () => {
        const initials = document.createElement("span");
        initials.className = "initials";
        initials.setAttribute("aria-hidden", "true");
        initials.textContent = place.dataset.initials || "";
        place.replaceChildren(initials);
      });
      place.replaceChildren(img);
    }
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
      photo(tile, data.photoURL);
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

  function connect() {
    connection.textContent = "Connecting…";
    reconnectingSocket("/api/live/feed?batch=1", {
      maxDelay: 15000,
      onOpen: () => {
        connection.textContent = "Live";
        connection.classList.add("live");
        // What was missed while away: the board has each sensor's latest reading and TRIMP.
        loadBoard().catch(() => {});
      },
      // ?batch=1 (PROTOCOL.md §6): a `readings` message carries several `reading` messages.
      onMessage: (message) => {
        const readings = message.type === "readings" && Array.isArray(message.items) ? message.items : [message];
        for (const reading of readings) {
          if (reading.type !== "reading") continue;
          try { take(reading); } catch (error) { console.error(error); }
        }
      },
      onClose: (delay) => {
        connection.classList.remove("live");
        connection.textContent = "Connection lost: retrying in " + Math.round(delay / 1000) + " s";
      },
    });
  }

  setInterval(tick, 1000);
  loadBoard().catch(() => { connection.textContent = "Could not load the team"; }).finally(connect);
}

const coach = document.querySelector("[data-coach]");
if (coach) startCoach(coach);
