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
  const folder = document.getElementById("workout-folder");
  const activity = (name) => /\.(fit|tcx|gpx|json)$/i.test(name);
  // Files that are not activities but have an import of their own: said, not sent.
  const elsewhere = (name) => {
    if (/\.csv$/i.test(name)) return ["a workout log (Strong or Hevy?): import it on Strength → Import", "/strength/import"];
    if (/\.(zip|xml)$/i.test(name) || /^export/i.test(name)) return ["an Apple Health export? Import it on Health → Import", "/health/import"];
    if (/\.db$/i.test(name) || /gadgetbridge/i.test(name)) return ["a Gadgetbridge database? Import it on Health → Import", "/health/import"];
    return null;
  };
  // The files of dropped folders, sub-folders too (File and Directory Entries API).
  const entryFiles = async (entry) => {
    if (entry.isFile) return [await new Promise((resolve, reject) => entry.file(resolve, reject))];
    if (!entry.isDirectory) return [];
    const reader = entry.createReader();
    const found = [];
    for (;;) {
      const batch = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
      if (batch.length === 0) break;
      for (const child of batch) found.push(...(await entryFiles(child)));
    }
    return found;
  };
  const upload = async (chosen, fromFolder = false) => {
    results.replaceChildren();
    // From a folder only the activity files are sent; the rest are counted.
    const files = fromFolder ? chosen.filter((file) => activity(file.name)) : chosen;
    const skipped = chosen.length - files.length;
    if (files.length === 0) {
      status.className = chosen.length > 0 ? "error" : "";
      status.textContent = chosen.length > 0 ? `No .fit, .tcx, .gpx or .json file in what was chosen (${chosen.length} other file${chosen.length === 1 ? "" : "s"}).` : "Choose a file or a folder first.";
      return;
    }
    status.className = "";
    progress.hidden = false;
    progress.max = files.length;
    progress.value = 0;
    let imported = 0, duplicates = 0, failed = 0, noted = 0, replaced = 0, last = null;
    for (const file of files) {
      status.textContent = `Uploading ${file.name} (${progress.value + 1} of ${files.length})…`;
      const other = activity(file.name) ? null : elsewhere(file.name);
      if (other) {
        failed += 1;
        result(file.name, `not a workout file: ${other[0]}`, other[1], "error");
        progress.value += 1;
        continue;
      }
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
          if (workout.replaced) replaced += 1;
          const what = workout.replaced ? workout.replaced.message : "imported";
          result(file.name, notes.length > 0 ? `${what}; left out: ${notes.join("; ")}` : what, last, notes.length > 0 ? "noted" : "ok");
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
    if (files.length === 1 && imported === 1 && noted === 0 && replaced === 0) { window.location.assign(last); return; }
    const replacedText = replaced > 0 ? ` (${replaced} in place of a shorter, cut copy)` : "";
    const skippedText = skipped > 0 ? ` ${skipped} other file${skipped === 1 ? "" : "s"} in the folder left alone.` : "";
    status.textContent = `${imported} imported${replacedText}${noted > 0 ? ` (${noted} with parts left out, listed below)` : ""}, ${duplicates} already here, ${failed} failed.${skippedText}`;
    if (failed > 0) status.className = "error";
  };
  uploadForm.addEventListener("submit", (event) => {
    event.preventDefault();
    const fromFolder = input.files.length === 0 && folder.files.length > 0;
    upload(Array.from(fromFolder ? folder.files : input.files), fromFolder);
  });
  // A folder chosen is uploaded at once (the browser has asked already).
  folder.addEventListener("change", () => { if (folder.files.length > 0) upload(Array.from(folder.files), true); });
  const zone = uploadForm.querySelector("[data-drop-zone]");
  zone.addEventListener("dragover", (event) => { event.preventDefault(); zone.classList.add("dragging"); });
  zone.addEventListener("dragleave", () => zone.classList.remove("dragging"));
  zone.addEventListener("drop", (event) => {
    event.preventDefault();
    zone.classList.remove("dragging");
    const entries = Array.from(event.dataTransfer.items || []).map((item) => item.webkitGetAsEntry && item.webkitGetAsEntry()).filter(Boolean);
    if (entries.some((entry) => entry.isDirectory)) {
      status.textContent = "Reading the folder…";
      Promise.all(entries.map(entryFiles)).then((lists) => upload(lists.flat(), true), (error) => {
        status.className = "error";
        status.textContent = `The folder could not be read (${error.message || error}): choose it with the folder button instead.`;
      });
      return;
    }
    upload(Array.from(event.dataTransfer.files));
  });
}

