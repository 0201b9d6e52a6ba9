// Heartwork web app, on every page: the browser's time zone, chart readouts, confirmations,
// the profile photo, the unread badge. Each page with more to do loads its own module
// (upload.js, coach.js, match.js, strength.js, health-import.js, food.js). Every page works
// without JavaScript, with less comfort.
import { csrfToken, problemText, reconnectingSocket, registerServiceWorker } from "/static/common.js";

registerServiceWorker();

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

const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || "";
for (const input of document.querySelectorAll("input[data-time-zone]")) input.value = zone;
// A profile still on UTC offers the browser's zone.
const select = document.querySelector("select[data-time-zone-select]");
if (select && select.value === "" && zone) {
  for (const option of select.options) if (option.value === zone) { option.textContent = `${zone} (this device)`; }
}

for (const holder of document.querySelectorAll("[data-readout]")) attachReadout(holder);

// A chosen photo is re-encoded in the browser to at most 1024 pixels a side (and without its
// camera metadata) before it is sent; a file the browser cannot read goes as it is, and the
// server says what is wrong with it.
async function photoForUpload(file) {
  try {
    const bitmap = await createImageBitmap(file);
    const scale = Math.min(1, 1024 / Math.max(bitmap.width, bitmap.height));
    const canvas = document.createElement("canvas");
    canvas.width = Math.max(1, Math.round(bitmap.width * scale));
    canvas.height = Math.max(1, Math.round(bitmap.height * scale));
    canvas.getContext("2d").drawImage(bitmap, 0, 0, canvas.width, canvas.height);
    const type = file.type === "image/png" ? "image/png" : "image/jpeg";
    const blob = await new Promise((resolve) => canvas.toBlob(resolve, type, 0.88));
    return blob || file;
  } catch (error) {
    return file;
  }
}

const photo = document.querySelector("[data-upload-photo]");
if (photo) {
  photo.addEventListener("change", async () => {
    const status = document.getElementById("photo-status");
    const chosen = photo.files[0];
    if (!chosen) return;
    status.textContent = "Uploading photo…";
    const file = await photoForUpload(chosen);
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

for (const form of document.querySelectorAll("form[data-autosubmit]")) {
  for (const select of form.querySelectorAll("select")) select.addEventListener("change", () => form.submit());
}

const summary = document.getElementById("error-summary");
if (summary) summary.focus();

// The unread badge in the navigation, and a short notice when something happens while a
// page is open (GET /api/live/notifications); it reconnects with a growing pause.
function watchNotifications() {
  const badges = document.querySelectorAll("[data-unread]");
  if (badges.length === 0 || !("WebSocket" in window)) return;
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
  reconnectingSocket("/api/live/notifications", {
    onMessage: (message) => {
      if (typeof message.unread === "number") show(message.unread);
      if (message.type === "notification") toast(message.text, message.link);
    },
  });
}

watchNotifications();
