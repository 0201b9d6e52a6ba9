import { webBluetoothSupport, requestStrap, grantedStraps } from "/static/strap.js";

const ZONE_NAMES = { "none": "Z1 · None", "low": "Z2 · Low", "moderate": "Z3 · Moderate", "high": "Z4 · High", "red-line": "Z5 · Red Line" };

// The match room (docs/PROTOCOL.md §10): the lobby, the countdown, one reading a second —
// the strap's own bytes (Web Bluetooth, `hrm`), a gateway strap (the server plays it), or in
// practice only the slider (`bpm`) —, both meters and scores, spoken zone changes, a dropped
// connection taken up again within 15 s, End with a warning.
const STRAP_HOLD_MS = 5000; // a strap's last reading stands for 5 s (the server's rule for gateway straps)
const RECONNECT_MS = 15000; // MatchRules.reconnectSeconds

function startMatch(root) {
  const arena = root.querySelector("[data-arena]");
  if (!arena) return;
  const id = root.dataset.match;
  const duration = Number(root.dataset.duration);
  const $ = (selector) => root.querySelector(selector);
  const lobby = $("[data-lobby]"), countdown = $("[data-countdown]"), connection = $("[data-connection]");
  const slider = $("[data-simulated]"), sliderValue = $("[data-simulated-value]");
  const speak = $("[data-speak]"), events = $("[data-events]"), stateLabel = $("[data-match-state]");
  const practice = root.dataset.practice === "true";
  let strap = null; // the last reading from Bluetooth: { hex, bpm, at }
  let socket = null, startAt = null, secondMs = 1000, offset = 0, nextSecond = 0, over = false, running = false;
  let lostAt = null, retryTimer = null, forfeiting = false;

  if (slider) slider.addEventListener("input", () => { sliderValue.textContent = slider.value; });

  const bluetooth = $("[data-bluetooth]"), bluetoothState = $("[data-bluetooth-state]");
  const support = webBluetoothSupport();
  if (!support.supported) {
    bluetooth.disabled = true;
    bluetoothState.textContent = support.reason + (practice ? " In practice, the slider plays." : " Choose a strap your gateway hears instead.");
  }
  function use(device) {
    device.addEventListener("reading", (event) => {
      const reading = event.detail;
      strap = { hex: reading.hex, bpm: reading.contact === "not-detected" ? 0 : reading.bpm, at: Date.now() };
    });
    device.addEventListener("state", (event) => {
      const { state, attempt, retries } = event.detail;
      if (state === "connected") bluetoothState.textContent = device.name + " connected";
      else if (state === "connecting") bluetoothState.textContent = "connecting to " + device.name + "…";
      else if (state === "reconnecting") bluetoothState.textContent = `${device.name} dropped: reconnecting (${attempt} of ${retries})`;
      else if (state === "gave-up") bluetoothState.textContent = `${device.name} did not come back: connect it again`;
    });
    return device.connect();
  }
  bluetooth.addEventListener("click", async () => {
    try {
      const device = await requestStrap();
      if (device) await use(device);
    } catch (error) {
      bluetoothState.textContent = "no strap: " + error.message;
    }
  });
  // A strap this site was already allowed (this page reloaded, or the match opened again)
  // connects without the chooser, where the browser allows it.
  if (support.supported) grantedStraps().then((straps) => { if (straps.length) use(straps[0]); }).catch(() => {});

  // One second's reading: the strap's bytes while it is heard; in practice the slider;
  // otherwise lost contact (0) — a match between friends cannot be played with a number.
  function currentReading() {
    if (strap && Date.now() - strap.at < STRAP_HOLD_MS) return { hrm: strap.hex };
    if (practice && slider) return { bpm: Number(slider.value) };
    return { bpm: 0 };
  }

  const end = $("[data-end]");
  end.addEventListener("click", () => {
    if (!running && startAt === null) { window.location.href = "/matches"; return; }
    if (!window.confirm("End the match now? You forfeit, and your data from this match is discarded.")) return;
    forfeiting = true;
    if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "forfeit" }));
    else connection.textContent = "Ending the match as soon as the connection is back…";
  });
  // Leaving the page during a match warns first (the server gives 15 s to come back).
  window.addEventListener("beforeunload", (event) => {
    if (startAt !== null && !over) { event.preventDefault(); event.returnValue = ""; }
  });

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
      socket.send(JSON.stringify({ type: "reading", second: nextSecond, ...currentReading() }));
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
        running = true;
        offset = message.now - Date.now();
        startAt = message.at;
        secondMs = message.secondMilliseconds || 1000;
        // Back after a dropped connection: the seconds missed meanwhile are lost contact.
        nextSecond = Math.max(nextSecond, 0, Math.floor((message.now - message.at) / secondMs));
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
      case "away":
        connection.textContent = `Your opponent's connection dropped: they have ${message.graceSeconds} s to come back. Their seconds meanwhile count as lost contact.`;
        break;
      case "back":
        connection.textContent = "Your opponent is back.";
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
    current.addEventListener("open", () => {
      connection.textContent = lostAt === null ? "Connected" : "Connected again.";
      lostAt = null;
      // End was pressed while the connection was down: it goes now.
      if (forfeiting) current.send(JSON.stringify({ type: "forfeit" }));
    });
    current.addEventListener("message", (event) => {
      if (socket !== current) return;
      try { take(JSON.parse(event.data)); } catch { /* not ours */ }
    });
    current.addEventListener("close", () => {
      if (over || socket !== current) return;
      // During a match the server keeps this side's place for 15 s: come back within it.
      if (startAt !== null) {
        if (lostAt === null) lostAt = Date.now();
        const left = Math.ceil((RECONNECT_MS - (Date.now() - lostAt)) / 1000);
        if (left > 0) {
          connection.textContent = `Connection lost: reconnecting (${left} s before you forfeit)…`;
          clearTimeout(retryTimer);
          retryTimer = setTimeout(connect, 1000);
          return;
        }
      }
      over = true;
      connection.textContent = "Connection lost.";
      setTimeout(() => window.location.reload(), 2000);
    });
  }

  setInterval(tick, 100);
  connect();
}

const match = document.querySelector("[data-match]");
if (match) startMatch(match);
