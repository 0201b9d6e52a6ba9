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
      const response = await fetch("/api/me/photo", {
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
