import { csrfToken, problemText } from "/static/common.js";

// Strength session: set edits are saved in place through the API (the forms still work without
// JavaScript). A tap on ✓ saves the row and marks it done; leaving a field saves the value.
function startStrengthSession() {
  for (const form of document.querySelectorAll("form[data-set-form]")) {
    const row = form.closest(".set-row");
    const button = form.querySelector(".done-button");
    let queue = Promise.resolve();
    // One request at a time per set, in the order the lifter acted (a field left by tapping ✓
    // saves its value first, then the tap).
    function save(done) {
      queue = queue.then(() => send(done));
      return queue;
    }
    async function send(done) {
      const body = {};
      const weight = form.elements.weight.value.trim().replace(",", ".");
      const reps = form.elements.reps.value.trim();
      if (weight !== "" && !Number.isFinite(Number(weight))) { showSetError(row, `'${weight}' is not a number: type the weight in ${form.dataset.unit || "kg"}`); return; }
      if (reps !== "" && !/^\d+$/.test(reps)) { showSetError(row, `'${reps}' is not a whole number of reps`); return; }
      if (weight !== "") body.weight = Number(weight);
      if (reps !== "") body.reps = Number(reps);
      if (done !== undefined) body.done = done;
      row.classList.add("saving");
      try {
        const response = await fetch(`/api/strength/sessions/${form.dataset.session}/sets/${form.dataset.set}`, {
          method: "PUT", credentials: "same-origin",
          headers: { "Content-Type": "application/json", "X-CSRF-Token": csrfToken() }, body: JSON.stringify(body),
        });
        const answer = await response.json();
        if (!response.ok) { showSetError(row, answer.detail || "Not saved"); return; }
        clearSetError(row);
        const set = answer.sets.find((s) => String(s.n) === form.dataset.set);
        if (set) {
          row.classList.toggle("done", set.done);
          if (button) { button.value = set.done ? "0" : "1"; button.setAttribute("aria-pressed", String(set.done)); }
        }
      } catch (error) {
        showSetError(row, "Not saved: the server did not answer. Try again.");
      } finally {
        row.classList.remove("saving");
      }
    }
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const done = event.submitter ? event.submitter.value === "1" : !row.classList.contains("done");
      save(done);
    });
    for (const input of form.querySelectorAll("input[name=weight], input[name=reps]")) {
      input.addEventListener("change", () => save(undefined));
    }
  }
  const elapsed = document.querySelector("[data-elapsed]");
  if (elapsed) {
    const start = Number(elapsed.dataset.elapsed);
    const tick = () => {
      const seconds = Math.max(0, Math.floor((Date.now() - start) / 1000));
      const h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
      elapsed.textContent = (h ? `${h}:${String(m).padStart(2, "0")}` : `${m}`) + `:${String(s).padStart(2, "0")} elapsed`;
    };
    tick();
    setInterval(tick, 1000);
  }
}

function showSetError(row, text) {
  let note = row.querySelector(".field-error");
  if (!note) { note = document.createElement("p"); note.className = "field-error"; note.setAttribute("role", "alert"); row.appendChild(note); }
  note.textContent = text;
}

function clearSetError(row) {
  const note = row.querySelector(".field-error");
  if (note) note.remove();
}

// A new routine: the order the exercises are ticked in is the order they are done.
function startRoutineForm(form) {
  const order = form.querySelector("#order");
  const chosen = form.querySelector("[data-chosen]");
  let ids = order.value ? order.value.split(",").filter(Boolean) : [];
  const boxes = Array.from(form.querySelectorAll("input[name='exercises[]']"));
  function names(id) {
    const box = boxes.find((b) => b.value === id);
    const text = box ? box.closest("label").querySelector(".label-text") : null;
    return text ? text.firstChild.textContent.trim() : id;
  }
  function render() {
    order.value = ids.join(",");
    for (const box of boxes) {
      const pos = form.querySelector(`[data-pos="${box.value}"]`);
      const index = ids.indexOf(box.value);
      if (pos) pos.textContent = index >= 0 ? String(index + 1) : "";
    }
    chosen.textContent = ids.length ? ids.map((id, i) => `${i + 1}. ${names(id)}`).join(" · ") : "Nothing chosen yet.";
  }
  for (const box of boxes) {
    box.addEventListener("change", () => {
      ids = ids.filter((id) => id !== box.value);
      if (box.checked) ids.push(box.value);
      render();
    });
  }
  render();
}

function startImportForm(form) {
  const file = form.querySelector("[data-csv-file]");
  const text = form.querySelector("textarea[name=csv]");
  file.addEventListener("change", () => {
    const chosen = file.files && file.files[0];
    if (!chosen) return;
    const reader = new FileReader();
    reader.onload = () => { text.value = reader.result; };
    reader.readAsText(chosen);
  });
}

if (document.querySelector("form[data-set-form]") || document.querySelector("[data-elapsed]")) startStrengthSession();
const routineForm = document.querySelector("form[data-routine-form]");
if (routineForm) startRoutineForm(routineForm);
const importForm = document.querySelector("form[data-import-form]");
if (importForm) startImportForm(importForm);
// An import still queued or running: look again every 2 s until it is done or stopped.
if (document.querySelector("[data-import-pending]")) setTimeout(() => window.location.reload(), 2000);
