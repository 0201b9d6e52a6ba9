import { csrfToken, problemText } from "/static/common.js";

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
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const file = input.files && input.files[0];
    if (!file) { status.textContent = "Choose your export.zip, export.xml or Gadgetbridge database first."; return; }
    // Gadgetbridge's database is an SQLite file (whatever its name); the rest is Apple Health's.
    const head = new TextDecoder().decode(await file.slice(0, 15).arrayBuffer());
    const gadgetbridge = head === "SQLite format 3";
    const type = gadgetbridge ? "application/vnd.sqlite3" : /\.xml$/i.test(file.name) ? "application/xml" : "application/zip";
    const request = new XMLHttpRequest();
    request.open("POST", gadgetbridge ? "/api/imports/gadgetbridge" : "/api/imports/apple-health");
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

const healthForm = document.querySelector("[data-health-import]");
if (healthForm) startHealthImport(healthForm);
