// The invoice register's actions on the record page (register_panel.py): "confirm this account" and "not a
// duplicate", each saved in the register with who and when; the page shows the decision once saved.
(function registerActions() {
  const section = document.getElementById("register");
  if (!section) return;
  const name = section.dataset.name;
  const api = "/api/records/" + encodeURIComponent(name) + "/register/";
  const message = document.getElementById("register-message");
  async function post(path, body, button) {
    button.disabled = true;
    const response = await fetch(api + path, {
      method: "POST", body: JSON.stringify(body),
      headers: {"Content-Type": "application/json", "X-Review-Csrf": document.querySelector('meta[name="review-csrf"]').content},
    });
    const answer = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) {
      message.textContent = answer.error || response.statusText;
      message.className = "bad";
      button.disabled = false;
      return;
    }
    location.reload();
  }
  for (const button of section.querySelectorAll(".reg-not-duplicate")) {
    const box = button.closest(".reg-dup");
    button.addEventListener("click", () => post("not-duplicate", {sha256: box.dataset.sha256, place: box.dataset.place}, button));
  }
  const trust = section.querySelector(".reg-trust");
  if (trust) trust.addEventListener("click", () => post("trust", {}, trust));
})();
