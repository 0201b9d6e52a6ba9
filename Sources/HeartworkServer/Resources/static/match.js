import { decodeHeartRateMeasurement } from "/static/heart-rate.js";

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

const match = document.querySelector("[data-match]");
if (match) startMatch(match);
