// /gateway: this browser as a gateway (docs/PROTOCOL.md). The device is named once and
// becomes one of the user's gateways (POST /api/gateways with the web session); its token is
// kept in this browser's localStorage under the user's name and used for nothing but the
// gateway socket. Straps come from strap.js, the outbox and the socket from outbox.js.
import { csrfToken, problemText } from "/static/common.js";
import { grantedStraps, requestStrap, webBluetoothSupport } from "/static/strap.js";
import { GatewayLink } from "/static/outbox.js";

const page = document.querySelector("[data-gateway-page]");
const retries = Number(page.dataset.retries) || 10;
const retryDelay = (Number(page.dataset.retrySeconds) || 5) * 1000;
const staleAfter = (Number(page.dataset.staleSeconds) || 5) * 1000;
const storageKey = "heartwork.gateway:" + page.dataset.user;
const $ = (selector) => page.querySelector(selector);

const straps = new Map();  // sensor id → { strap, row }
let link = null;

function savedGateway() {
  try { return JSON.parse(localStorage.getItem(storageKey) || "null"); } catch { return null; }
}

function ago(ms) {
  const seconds = Math.round(ms / 1000);
  if (seconds < 60) return `${seconds} s ago`;
  const minutes = Math.round(seconds / 60);
  return minutes < 60 ? `${minutes} min ago` : `${Math.round(minutes / 60)} h ago`;
}

// ---- the device as a gateway -------------------------------------------------------------

function guessName() {
  const agent = navigator.userAgent;
  if (/Android/.test(agent)) return /Mobile/.test(agent) ? "Android phone" : "Android tablet";
  if (/CrOS/.test(agent)) return "Chromebook";
  if (/Windows/.test(agent)) return "Windows PC";
  if (/Mac OS X/.test(agent)) return "Mac";
  return "Browser gateway";
}

function showSetup(message = "") {
  $("[data-streaming]").hidden = true;
  $("[data-setup]").hidden = false;
  const input = $("#device-name");
  if (!input.value) input.value = guessName();
  const error = $("[data-setup-error]");
  error.textContent = message;
  error.hidden = !message;
}

$("[data-setup-form]").addEventListener("submit", async (event) => {
  event.preventDefault();
  const input = $("#device-name");
  const button = event.target.querySelector("button");
  const error = $("[data-setup-error]");
  button.disabled = true;
  try {
    const response = await fetch("/api/gateways", {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() },
      body: JSON.stringify({ name: input.value.trim() }),
    });
    if (!response.ok) {
      error.textContent = await problemText(response);
      error.hidden = false;
      input.setAttribute("aria-invalid", "true");
      return;
    }
    const gateway = await response.json();
    localStorage.setItem(storageKey, JSON.stringify({ id: gateway.id, name: gateway.name, token: gateway.token }));
    input.removeAttribute("aria-invalid");
    await start();
  } catch {
    error.textContent = "The server cannot be reached. Check the connection and try again.";
    error.hidden = false;
  } finally {
    button.disabled = false;
  }
});

function showLink(status) {
  const line = $("[data-link]");
  const waiting = status.pending === 1 ? "1 heartbeat" : `${status.pending} heartbeats`;
  line.dataset.state = status.state;
  line.dataset.pending = String(status.pending);
  if (status.state === "refused" && status.detail === "token") {
    if (link) link.close();
    link = null;
    localStorage.removeItem(storageKey);
    for (const { strap } of straps.values()) strap.stop();
    straps.clear();
    $("[data-straps]").replaceChildren();
    showSetup("This device's gateway was revoked or its key is no longer valid. Name the device again to set it up anew.");
    return;
  }
  line.textContent =
    status.state === "open" ? (status.pending ? `Connected to the server; sending ${waiting}.` : "Connected to the server: every heartbeat delivered.")
    : status.state === "refused" ? (/revoked/.test(status.detail)
      ? "This device's gateway was revoked, so nothing more is sent. Reload the page to name the device again."
      : `The server refused this gateway: ${status.detail}. Reload the page to try again.`)
    : status.state === "waiting" ? `No connection to the server. ${status.pending ? `${waiting} kept on this device, ` : ""}trying again in ${Math.max(1, Math.round(status.retryIn / 1000))} s.`
    : `Connecting to the server…${status.pending ? ` ${waiting} waiting to be sent.` : ""}`;
}

// ---- straps --------------------------------------------------------------------------------

function stateText(strap) {
  switch (strap.state) {
    case "connecting": return "Connecting…";
    case "connected": return "Connected";
    case "reconnecting": return `Reconnecting (try ${strap.attempt} of ${strap.retries})`;
    case "gave-up": return `Gave up after ${strap.retries} tries`;
    case "stopped": return "Removed";
    default: return "Not connected";
  }
}

function render(entry) {
  const { strap, row } = entry;
  row.querySelector("[data-name]").textContent = strap.name;
  const state = row.querySelector("[data-state]");
  state.textContent = stateText(strap);
  state.dataset.kind = strap.state;
  row.querySelector("[data-retry]").hidden = strap.state !== "gave-up";
  row.dataset.state = strap.state;
  if (strap.battery !== null) row.querySelector("[data-battery]").textContent = `${strap.battery} %`;
  freshness(entry);
}

function freshness({ strap, row }) {
  const last = strap.last;
  const stale = !last || Date.now() - last.at > staleAfter || strap.state !== "connected";
  row.classList.toggle("stale", stale);
  const bpm = row.querySelector("[data-bpm]");
  if (!last) return;
  bpm.textContent = last.contact === "not-detected" || last.bpm === 0 ? "–" : String(last.bpm);
  row.querySelector("[data-contact]").textContent =
    last.contact === "detected" ? "Yes" : last.contact === "not-detected" ? "No" : "Not reported";
  row.querySelector("[data-hint]").hidden = last.contact !== "not-detected" || stale;
  const since = Date.now() - last.at;
  row.querySelector("[data-heard]").textContent = since < 1500 ? "just now" : ago(since);
}

function addStrap(strap) {
  if (straps.has(strap.id)) return straps.get(strap.id);
  const row = document.querySelector("[data-strap-template]").content.firstElementChild.cloneNode(true);
  row.dataset.sensor = strap.id;
  const entry = { strap, row };
  straps.set(strap.id, entry);
  $("[data-straps]").append(row);
  $("[data-no-straps]").hidden = true;
  strap.addEventListener("state", () => { render(entry); wakeLock(); });
  strap.addEventListener("battery", () => render(entry));
  strap.addEventListener("reading", (event) => {
    const reading = event.detail;
    render(entry);
    if (link) link.add({ sensor: strap.id, at: reading.at, hrm: reading.hex, battery: reading.battery, rssi: reading.rssi });
  });
  row.querySelector("[data-retry]").addEventListener("click", () => strap.retry());
  row.querySelector("[data-remove]").addEventListener("click", async () => {
    if (!window.confirm(`Stop listening to ${strap.name}? Its heartbeats heard so far are kept.`)) return;
    await strap.forget();
    straps.delete(strap.id);
    row.remove();
    $("[data-no-straps]").hidden = straps.size > 0;
    wakeLock();
  });
  render(entry);
  return entry;
}

$("[data-add-strap]").addEventListener("click", async () => {
  try {
    const strap = await requestStrap({ retries, retryDelay });
    if (!strap) return;
    if (straps.has(strap.id)) {
      const known = straps.get(strap.id).strap;
      if (known.state !== "connected") known.retry();
      return;
    }
    addStrap(strap);
    await strap.connect();
  } catch (error) {
    $("[data-link]").textContent = `Bluetooth: ${error.message || error}`;
  }
});

setInterval(() => { for (const entry of straps.values()) freshness(entry); }, 1000);

// ---- the screen stays on while straps stream -------------------------------------------------

let lock = null;
async function wakeLock() {
  const wanted = [...straps.values()].some(({ strap }) => strap.state !== "stopped" && strap.state !== "gave-up")
    && document.visibilityState === "visible";
  const line = $("[data-wake]");
  if (!("wakeLock" in navigator)) { line.textContent = "Keep the screen on yourself: this browser cannot keep it awake."; return; }
  if (wanted && !lock) {
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => { lock = null; });
      line.textContent = "The screen stays on while straps are connected.";
    } catch {
      line.textContent = "The screen may turn off (the browser did not allow keeping it on): keep this page in front.";
    }
  } else if (!wanted && lock) {
    await lock.release();
    lock = null;
    line.textContent = "";
  }
}
document.addEventListener("visibilitychange", () => wakeLock());

// ---- start -----------------------------------------------------------------------------------

async function start() {
  const gateway = savedGateway();
  if (!gateway) { showSetup(); return; }
  link = await GatewayLink.open({ gatewayID: gateway.id, token: gateway.token, onStatus: (status) => { if (link) showLink(status); } });
  $("[data-setup]").hidden = true;
  $("[data-streaming]").hidden = false;
  $("[data-device-line]").textContent = `This device is the gateway “${gateway.name}”.`;
  showLink(link.status);
  // Straps this site may already use: connected again without the chooser.
  try {
    for (const strap of await grantedStraps({ retries, retryDelay })) {
      if (!straps.has(strap.id)) { addStrap(strap); strap.connect(); }
    }
  } catch { /* the person adds them again */ }
}

const support = webBluetoothSupport();
if (!support.supported) {
  const message = $("[data-no-bluetooth]");
  message.textContent = support.reason;
  message.hidden = false;
} else {
  start();
}
