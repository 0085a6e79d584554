// The learned layout's action on the record page (layout_panel.py): "forget this layout".
(function layoutActions() {
  const section = document.getElementById("layout");
  if (!section) return;
  const button = section.querySelector(".layout-forget");
  const message = document.getElementById("layout-message");
  if (!button) return;
  button.addEventListener("click", async () => {
    button.disabled = true;
    const response = await fetch("/api/records/" + encodeURIComponent(section.dataset.name) + "/layout/forget", {
      method: "POST", headers: {"Content-Type": "application/json"}, body: "{}",
    });
    const answer = await response.json().catch(() => ({error: response.statusText}));
    if (!response.ok) {
      message.textContent = answer.error || response.statusText;
      message.className = "bad";
      button.disabled = false;
      return;
    }
    location.reload();
  });
})();
