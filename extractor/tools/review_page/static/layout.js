// The learned layout's action on the record page (layout_panel.py): "forget this layout"; the page reloads to show
// it gone, or says why not.
(function layoutActions() {
  const section = document.getElementById("layout");
  const button = section && section.querySelector(".layout-forget");
  if (!button) return;
  const url = "/api/records/" + encodeURIComponent(section.dataset.name) + "/layout/forget";
  function refused(why) {
    const message = document.getElementById("layout-message");
    message.className = "bad";
    message.textContent = why;
    button.disabled = false;
  }
  button.addEventListener("click", () => {
    button.disabled = true;
    fetch(url, {method: "POST", headers: {"Content-Type": "application/json"}, body: "{}"})
      .then((response) => response.ok ? location.reload()
        : response.json().then((answer) => refused(answer.error), () => refused(response.statusText)))
      .catch((error) => refused(String(error)));
  });
})();
