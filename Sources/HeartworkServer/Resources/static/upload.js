// The workout upload page: each file goes to POST /api/workouts with its media type, and
// the page lists what became of it (imported, parts left out, already here, refused).
import { csrfToken, problemText } from "/static/common.js";

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

