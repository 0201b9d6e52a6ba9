// "Who takes part" on the coach screen (FitLabTeam F5, F6). The form works without this
// script; with it, a player's status and checkbox follow the sensor chosen for them, a sensor
// another picked player wears cannot be chosen twice, Start needs one player picked, and the
// connected state is refreshed every 5 s from /api/sensors (heard in the last 10 s). A player
// the coach picked whose strap falls silent a moment is unticked while it is, and ticked again
// when it is heard: the coach's choice is kept (data-wanted), never lost without a word.
const picker = document.querySelector("[data-picker]");
const start = document.querySelector("[data-start]");

if (picker) {
  const rows = [...picker.querySelectorAll("[data-pick]")];
  const seconds = Number(picker.dataset.seconds) || 10;

  const chosen = (row) => row.querySelector("[data-pick-sensor]").selectedOptions[0];
  const wears = (row) => chosen(row)?.dataset.sensor || "";
  const box = (row) => row.querySelector("input[type=checkbox]");
  for (const row of rows) row.dataset.wanted = box(row).checked ? "1" : "";

  function update() {
    const taken = new Map();
    for (const row of rows) if (row.dataset.wanted === "1" && wears(row) && !taken.has(wears(row))) taken.set(wears(row), row);
    for (const row of rows) {
      const option = chosen(row);
      const sensor = wears(row);
      const connected = option?.dataset.connected === "1";
      const clash = sensor && taken.has(sensor) && taken.get(sensor) !== row;
      const input = box(row);
      input.disabled = !connected || clash;
      input.checked = !input.disabled && row.dataset.wanted === "1";
      row.classList.toggle("on", connected);
      const status = row.querySelector("[data-pick-status] strong");
      const reason = row.querySelector("[data-pick-reason]");
      status.className = connected ? "status-ready" : "status-strained";
      status.textContent = connected ? "● Connected" : sensor ? "○ Not connected" : "○ No sensor";
      reason.textContent = clash
        ? "Another picked player wears this sensor: choose another."
        : connected ? "" : sensor ? "Not heard in the last " + seconds + " s: put it on, or choose a connected sensor." : "Choose a connected sensor for this session.";
      // A sensor another picked player wears is not offered twice.
      for (const other of row.querySelectorAll("[data-pick-sensor] option")) {
        const wearer = other.dataset.sensor && taken.get(other.dataset.sensor);
        other.disabled = Boolean(wearer && wearer !== row && other.value !== "");
      }
    }
    const picked = rows.filter((row) => box(row).checked).length;
    if (start) start.disabled = picked === 0;
    const count = picker.querySelector("[data-pick-count]");
    if (count) count.textContent = String(picked);
  }

  async function refresh() {
    try {
      const response = await fetch("/api/sensors?limit=1000", { credentials: "same-origin" });
      if (!response.ok) return;
      const sensors = (await response.json()).sensors;
      const listed = new Set(sensors.map((s) => s.id));
      const connected = new Set(sensors.filter((s) => s.connected).map((s) => s.id));
      for (const option of picker.querySelectorAll("option[data-sensor]")) {
        if (!option.dataset.sensor || !listed.has(option.dataset.sensor)) continue;
        option.dataset.connected = connected.has(option.dataset.sensor) ? "1" : "";
        const label = option.textContent;
        if (option.value !== "") option.textContent = label.replace(/ · (not )?connected/, connected.has(option.dataset.sensor) ? " · connected" : " · not connected");
      }
      update();
    } catch {
      // Offline a moment: the next refresh tries again.
    }
  }

  // A box the coach can change says what they want; a disabled one keeps its last wish.
  picker.addEventListener("change", () => {
    for (const row of rows) if (!box(row).disabled) row.dataset.wanted = box(row).checked ? "1" : "";
    update();
  });
  document.addEventListener("change", (event) => { if (event.target.form?.id === "start-session" && !picker.contains(event.target)) update(); });
  update();
  setInterval(refresh, 5000);
}
