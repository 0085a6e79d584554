// The invoice register panel: "confirm account" / "not a duplicate", saved in the register with who and when.
(function () {
  const panel = document.getElementById("register");
  if (!panel) return;
  const message = document.getElementById("register-message");
  for (const button of panel.querySelectorAll("button.register-action")) {
    button.addEventListener("click", async () => {
      button.disabled = true;
      const response = await fetch(panel.dataset.api, {
        method: "POST",
        headers: {"content-type": "application/json"},
        body: JSON.stringify({action: button.dataset.action}),
      });
      const body = await response.json();
      message.textContent = response.ok ? body.done : body.error;
      if (!response.ok) button.disabled = false;
    });
  }
})();
