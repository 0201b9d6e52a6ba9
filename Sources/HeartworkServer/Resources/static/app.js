// Heartwork web app: the little JavaScript the pages need (file uploads, confirmations).
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

document.addEventListener("DOMContentLoaded", () => {
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
});
