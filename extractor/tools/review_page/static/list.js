// The record list: filter by status and search by file name, supplier or invoice number; j/k/Enter to move.
(function () {
  const rows = Array.from(document.querySelectorAll("#records tbody tr"));
  const search = document.getElementById("search");
  let status = "";
  let at = -1;

  function visible() { return rows.filter((r) => !r.hidden); }

  function filter() {
    const words = search.value.toLowerCase().split(/\s+/).filter(Boolean);
    for (const row of rows) {
      const text = row.dataset.search;
      row.hidden = (status && row.dataset.status !== status) || !words.every((w) => text.includes(w));
    }
  }

  function mark(i) {
    const shown = visible();
    rows.forEach((r) => r.classList.remove("current"));
    if (!shown.length) return;
    at = Math.max(0, Math.min(i, shown.length - 1));
    shown[at].classList.add("current");
    shown[at].scrollIntoView({block: "nearest"});
  }

  search.addEventListener("input", () => { filter(); mark(0); });
  document.querySelectorAll("button[data-status]").forEach((b) =>
    b.addEventListener("click", () => { status = b.dataset.status; filter(); mark(0); }));
  document.addEventListener("keydown", (e) => {
    if (e.target === search) { if (e.key === "Escape") search.blur(); return; }
    if (e.key === "/") { e.preventDefault(); search.focus(); }
    else if (e.key === "j") mark(at + 1);
    else if (e.key === "k") mark(at - 1);
    else if (e.key === "Enter" && at >= 0) { const link = visible()[at].querySelector("a"); if (link) link.click(); }
  });
})();
