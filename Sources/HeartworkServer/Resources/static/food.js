import { csrfToken, problemText } from "/static/common.js";

// A photo of a food label goes to the API as it is; the answer fills the result panel.
function startFoodPhoto(form) {
  const input = form.querySelector("input[type=file]");
  const status = document.getElementById("food-status");
  const panel = document.getElementById("food-result");
  const values = document.getElementById("food-values");
  const verdict = document.getElementById("food-verdict");
  const rows = [["Calories", "calories", "kcal"], ["Fat", "totalFatGrams", "g"], ["Saturated fat", "saturatedFatGrams", "g"],
    ["Trans fat", "transFatGrams", "g"], ["Cholesterol", "cholesterolMilligrams", "mg"], ["Sodium", "sodiumMilligrams", "mg"],
    ["Carbohydrate", "carbohydrateGrams", "g"], ["Fibre", "fiberGrams", "g"], ["Sugars", "sugarsGrams", "g"],
    ["Added sugars", "addedSugarsGrams", "g"], ["Protein", "proteinGrams", "g"]];
  input.addEventListener("change", async () => {
    const file = input.files && input.files[0];
    if (!file) return;
    status.textContent = "Reading the photo…";
    const response = await fetch("/api/food-label", {
      method: "POST", credentials: "same-origin", body: file,
      headers: { "Content-Type": file.type || "image/jpeg", "X-CSRF-Token": csrfToken() },
    });
    if (!response.ok) { status.textContent = await problemText(response); return; }
    const label = await response.json();
    status.textContent = "";
    const basis = label.basis && label.basis !== "serving" ? `Per ${label.basis}` : "Per serving";
    document.getElementById("food-serving").textContent = label.servingSize && basis === "Per serving" ? `${basis} (${label.servingSize})` : basis;
    values.replaceChildren();
    for (const [name, key, unit] of rows) {
      if (label[key] === undefined) continue;
      const row = document.createElement("div");
      const dt = document.createElement("dt");
      const dd = document.createElement("dd");
      dt.textContent = name;
      dd.textContent = `${label[key]} ${unit}`;
      row.append(dt, dd);
      values.append(row);
    }
    verdict.replaceChildren();
    const strong = document.createElement("strong");
    strong.className = label.unhealthy ? "status-strained" : "status-ready";
    strong.textContent = label.unhealthy ? "Unhealthy" : "Nothing above the thresholds.";
    verdict.append(strong, label.unhealthy ? `: ${label.reasons.join("; ")}` : "");
    panel.hidden = false;
  });
}

const foodForm = document.querySelector("[data-food-photo]");
if (foodForm) startFoodPhoto(foodForm);
