// The record view: a schema-driven form beside the pages, field states from the server, boxes where values are.
(function () {
  const view = JSON.parse(document.getElementById("view").textContent);
  const form = document.getElementById("form");
  const api = "/api/records/" + encodeURIComponent(view.name);
  let data = view.data === null ? null : JSON.parse(JSON.stringify(view.data));
  let state = view.state || {errors: [], checks: [], grounded: [], ungrounded: [], unchecked: [], key_ungrounded: [], where: {}, citations: {}, changed: []};
  let fields = new Map();  // JSON pointer -> {node: the element that shows its state, input}
  const evidence = new Map((view.evidence || []).map((e) => [e.pointer, e]));  // JSON pointer -> its evidence
  function evidenceText(e) {
    const parts = ["confidence " + e.confidence.toFixed(3) + (e.below ? " (below its threshold)" : "")];
    if (e.p_min !== null) parts.push("p min " + e.p_min.toFixed(3) + ", margin " + (e.margin_first === null ? "-" : e.margin_first.toFixed(2)));
    if (e.tokens !== null) parts.push(e.forced_tokens + " of " + e.tokens + " tokens forced");
    if (e.grounded !== null) parts.push(e.grounded ? "found on the pages" : "not found on the pages");
    for (const c of e.checks) parts.push(c.code + (c.holds ? " holds" : " fails"));
    if (e.agreement !== null && e.agreement !== undefined) parts.push(e.agreement ? "a second answer agrees" : "a second answer differs");
    return parts.join("; ");
  }
  let selected = null;
  let timer = null;

  // -- JSON pointers ---------------------------------------------------------------------------------------------
  const esc = (key) => String(key).replace(/~/g, "~0").replace(/\//g, "~1");
  const parts = (ptr) => ptr.split("/").slice(1).map((p) => p.replace(/~1/g, "/").replace(/~0/g, "~"));
  function setAt(ptr, value) {
    const keys = parts(ptr);
    let node = data;
    for (const key of keys.slice(0, -1)) node = node[key];
    node[keys[keys.length - 1]] = value;
  }

  // -- schema ----------------------------------------------------------------------------------------------------
  function resolve(schema) {
    if (!schema) return {};
    if (schema.$ref && schema.$ref.startsWith("#/")) {
      let node = view.schema;
      for (const key of parts(schema.$ref.slice(1))) node = node ? node[key] : undefined;
      return resolve(node);
    }
    const alts = schema.anyOf || schema.oneOf;
    if (alts) return resolve(alts.find((s) => s.type !== "null") || alts[0]);
    return schema;
  }
  function types(schema, value) {
    const t = schema.type;
    if (t) return Array.isArray(t) ? t : [t];
    if (schema.properties) return ["object"];
    if (schema.items) return ["array"];
    if (Array.isArray(value)) return ["array"];
    if (value !== null && typeof value === "object") return ["object"];
    return [typeof value === "number" ? "number" : "string"];
  }
  function parse(text, schema) {
    const ts = types(schema, null);
    if (text === "") return ts.includes("null") || !ts.includes("string") ? null : "";
    if ((ts.includes("number") || ts.includes("integer")) && /^-?\d+(\.\d+)?$/.test(text.trim())) return Number(text);
    if (ts.includes("boolean") && (text === "true" || text === "false")) return text === "true";
    return text;
  }

  // -- form ------------------------------------------------------------------------------------------------------
  function render() {
    fields = new Map();
    if (data !== null) {
      form.replaceChildren();
      build(view.schema || {}, data, "", "", form);
    }
    applyState();
  }

  function build(schema, value, ptr, label, parent) {
    schema = resolve(schema);
    const ts = types(schema, value);
    if (ts.includes("object") && value !== null && typeof value === "object" && !Array.isArray(value)) {
      const box = ptr ? el("fieldset", parent) : parent;
      if (ptr) el("legend", box).textContent = label;
      for (const key of keysOf(schema, value)) build((schema.properties || {})[key], value[key], ptr + "/" + esc(key), key, box);
      fields.set(ptr, {node: box});
    } else if (ts.includes("array") && Array.isArray(value)) {
      buildArray(schema, value, ptr, label, parent);
    } else {
      const row = el("div", parent, "field");
      const id = "f" + ptr.replace(/[^\w]/g, "_");
      const lab = el("label", row);
      lab.textContent = label;
      lab.htmlFor = id;
      const ev = evidence.get(ptr);  // its confidence beside it, the evidence in its title; below threshold marked
      if (ev && ev.confidence !== null) {
        const conf = el("span", lab, "conf");
        conf.textContent = " " + ev.confidence.toFixed(2);
        conf.title = evidenceText(ev);
        row.classList.toggle("below", ev.below);
      }
      const input = scalarInput(schema, value, ptr, row);
      input.id = id;
      el("div", row, "msg");
      fields.set(ptr, {node: row, input});
    }
  }

  function keysOf(schema, value) {
    const keys = Object.keys(schema.properties || {});
    return keys.concat(Object.keys(value).filter((k) => !keys.includes(k)));
  }

  function buildArray(schema, items, ptr, label, parent) {
    const box = el("fieldset", parent);
    el("legend", box).textContent = label + " (" + items.length + ")";
    const itemSchema = resolve(schema.items || {});
    const objects = types(itemSchema, items[0]).includes("object");
    const columns = objects ? keysOf(itemSchema, Object.assign({}, ...items.filter((i) => i && typeof i === "object"))) : [null];
    const table = el("table", box, "items");
    const head = el("tr", el("thead", table));
    for (const c of columns) el("th", head).textContent = c === null ? "" : c;
    el("th", head);
    const body = el("tbody", table);
    items.forEach((item, i) => {
      const tr = el("tr", body);
      for (const c of columns) {
        const td = el("td", tr);
        const cellPtr = ptr + "/" + i + (c === null ? "" : "/" + esc(c));
        const cellSchema = c === null ? itemSchema : resolve((itemSchema.properties || {})[c]);
        const value = c === null ? item : (item || {})[c];
        if (value !== null && typeof value === "object") { build(cellSchema, value, cellPtr, "", td); continue; }
        const input = scalarInput(cellSchema, value === undefined ? null : value, cellPtr, td);
        input.title = cellPtr;
        el("div", td, "msg");
        fields.set(cellPtr, {node: td, input});
      }
      const remove = el("button", el("td", tr));
      remove.type = "button";
      remove.textContent = "×";
      remove.title = "remove this line";
      remove.addEventListener("click", () => { items.splice(i, 1); changed(); render(); });
      fields.set(ptr + "/" + i, {node: tr});
    });
    const add = el("button", box, "add");
    add.type = "button";
    add.textContent = "+ add";
    add.addEventListener("click", () => { items.push(objects ? blank(itemSchema) : null); changed(); render(); });
    fields.set(ptr, {node: box});
  }

  function blank(schema) {
    const out = {};
    for (const key of Object.keys(schema.properties || {})) {
      const s = resolve(schema.properties[key]);
      out[key] = types(s, null).includes("object") ? blank(s) : types(s, null).includes("array") ? [] : null;
    }
    return out;
  }

  function scalarInput(schema, value, ptr, parent) {
    let input;
    if (schema.enum) {
      input = el("select", parent);
      for (const option of [null].concat(schema.enum)) {
        const o = el("option", input);
        o.value = option === null ? "" : String(option);
        o.textContent = option === null ? "" : String(option);
      }
    } else {
      input = el("input", parent);
      input.type = "text";
      input.spellcheck = false;
    }
    input.value = value === null || value === undefined ? "" : String(value);
    input.dataset.ptr = ptr;
    input.addEventListener("input", () => { setAt(ptr, parse(input.value, schema)); changed(); });
    input.addEventListener("focus", () => select(ptr, {from: "field"}));
    return input;
  }

  function el(tag, parent, cls) {
    const node = document.createElement(tag);
    if (cls) node.className = cls;
    parent.appendChild(node);
    return node;
  }

  // -- states ----------------------------------------------------------------------------------------------------
  function changed() {
    clearTimeout(timer);
    timer = setTimeout(check, 150);
  }

  async function check() {
    const reply = await post("/check", {data});
    if (reply.ok) { state = reply.body; applyState(); }
  }

  function problems() {
    const list = [];
    for (const e of state.errors) list.push({path: e.path, text: "schema: " + (e.path || "(top)") + " " + e.message});
    for (const c of state.checks) list.push({path: c.path || "", text: c.code + ": " + c.message});
    for (const p of state.key_ungrounded) list.push({path: p, text: "ungrounded: " + p + " is not found on the pages"});
    return list;
  }

  function applyState() {
    const grounded = new Set(state.grounded), ungrounded = new Set(state.ungrounded);
    const unchecked = new Set(state.unchecked || []);  // too short or common to prove anything: not green, not orange
    const keys = new Set(state.key_ungrounded), edited = new Set(state.changed);
    const messages = new Map();
    for (const p of problems()) if (!p.text.startsWith("ungrounded")) messages.set(p.path, (messages.get(p.path) || []).concat(p.text));
    for (const [ptr, f] of fields) {
      if (!f.input) continue;
      const n = f.node;
      n.classList.toggle("grounded", grounded.has(ptr));
      n.classList.toggle("ungrounded", ungrounded.has(ptr));
      n.classList.toggle("unchecked", unchecked.has(ptr));
      n.title = unchecked.has(ptr) ? "not checkable: too short or common to prove anything, or no text to search" : "";
      n.classList.toggle("key", keys.has(ptr));
      n.classList.toggle("failed", messages.has(ptr));
      f.input.classList.toggle("edited", edited.has(ptr));
      n.dataset.state = messages.has(ptr) ? "failed" : keys.has(ptr) ? "ungrounded" : grounded.has(ptr) ? "grounded"
        : ungrounded.has(ptr) ? "ungrounded" : unchecked.has(ptr) ? "unchecked" : "unknown";
      const msg = n.querySelector(":scope > .msg");
      if (msg) msg.textContent = (messages.get(ptr) || []).join("; ") || (keys.has(ptr) ? "not found on the pages" : "");
    }
    const ul = document.getElementById("problems");
    ul.replaceChildren();
    for (const p of problems()) {
      const li = el("li", ul);
      li.textContent = p.text;
      li.addEventListener("click", () => select(p.path, {from: "box"}));
    }
    drawBoxes();
  }

  // -- boxes -----------------------------------------------------------------------------------------------------
  function drawBoxes() {  // every value's citations (its box on its page); a selected line item's row too
    document.querySelectorAll(".boxes").forEach((b) => b.replaceChildren());
    const citations = state.citations || {};
    const unboxed = [];
    for (const [ptr, cited] of Object.entries(citations)) {
      const boxed = cited.filter((c) => c.box && c.page);
      if (!boxed.length) unboxed.push(ptr);
      boxed.forEach((c, i) => {
        drawBox(ptr, c.page, c.box, "box" + (i ? " other" : "") + (ptr === selected ? " selected" : ""),
                ptr + ": " + c.text + " (" + c.source + (c.xpath ? " " + c.xpath : "") + (c.confidence != null ? " " + c.confidence.toFixed(2) : "") + ")");
        if (c.row && ptr === selected) drawBox(ptr, c.row.page, c.row.box, "row", ptr + ": its row");
      });
    }
    const list = document.getElementById("unboxed");
    if (!list) return;
    list.replaceChildren();
    document.getElementById("unboxed-count").textContent = unboxed.length;
    for (const ptr of unboxed) {
      const li = el("li", list);
      li.textContent = ptr + (state.unchecked && state.unchecked.includes(ptr) ? " (not checkable)" : " (not found on the pages)");
      li.dataset.ptr = ptr;
      li.addEventListener("click", () => select(ptr, {from: "box"}));
    }
  }

  function drawBox(ptr, page, where, cls, title) {
    const layer = document.querySelector('.page[data-page="' + page + '"] .boxes');
    if (!layer) return;
    const [x0, y0, x1, y1] = where;
    const box = el("div", layer, cls);
    Object.assign(box.style, {left: x0 * 100 + "%", top: y0 * 100 + "%", width: (x1 - x0) * 100 + "%", height: (y1 - y0) * 100 + "%"});
    box.dataset.ptr = ptr;
    box.title = title;
    if (cls !== "row") box.addEventListener("click", () => select(ptr, {from: "box"}));
  }

  function select(ptr, {from}) {
    selected = ptr;
    document.querySelectorAll(".sel").forEach((n) => n.classList.remove("sel"));
    const f = fields.get(ptr);
    if (f) {
      f.node.classList.add("sel");
      if (from === "box") {
        f.node.scrollIntoView({block: "center"});
        if (f.input) f.input.focus({preventScroll: true});
      }
    }
    drawBoxes();  // the selected value's boxes highlighted, its row drawn
    const box = document.querySelector('.box[data-ptr="' + CSS.escape(ptr) + '"]');
    if (box && from === "field") box.scrollIntoView({block: "center", inline: "nearest"});
  }

  // -- actions ---------------------------------------------------------------------------------------------------
  async function post(path, body) {
    // the server takes a change only as JSON with this start's token (base.html's meta): no other site can send both
    const csrf = document.querySelector('meta[name="review-csrf"]').content;
    const response = await fetch(api + path, {method: "POST", headers: {"Content-Type": "application/json", "X-Review-Csrf": csrf},
                                              body: JSON.stringify(body), credentials: "same-origin"});
    let reply = null;
    try { reply = await response.json(); } catch (e) { reply = null; }
    return {ok: response.ok, status: response.status, body: reply};
  }

  async function save(approved) {
    if (data === null) return say("This record has no data to save.", true);
    clearTimeout(timer);
    const reply = await post("/save", {data, approved});
    if (reply.ok) {
      const note = (approved ? "approved" : "saved") + " by " + reply.body.reviewer + " " + reply.body.reviewed_at;
      document.getElementById("reviewed-note").textContent = note;
      say((approved ? "Approved" : "Saved") + " as " + view.name + ".reviewed.json (" + reply.body.changed.length + " changed)", false);
    } else if (reply.status === 422 && reply.body) {
      if (reply.body.grounded) { state = reply.body; applyState(); }
      say("Not saved: the data does not fit the schema (" + (reply.body.errors || []).length + " errors).", true);
    } else {
      say("Not saved: " + ((reply.body && reply.body.error) || "HTTP " + reply.status) + ".", true);
    }
  }

  function say(text, bad) {
    const m = document.getElementById("message");
    m.textContent = text;
    m.className = bad ? "bad" : "";
  }

  function nextFlag() {
    const flagged = new Set(problems().map((p) => p.path));
    const order = Array.from(fields.keys()).filter((p) => fields.get(p).input && flagged.has(p));
    if (!order.length) return say("No flagged fields.", false);
    const at = order.indexOf(selected);
    select(order[(at + 1) % order.length], {from: "box"});
  }

  function go(name) { if (name) location.href = "/r/" + encodeURIComponent(name); }

  document.getElementById("prev").addEventListener("click", () => go(view.previous));
  document.getElementById("next").addEventListener("click", () => go(view.next));
  document.getElementById("flag").addEventListener("click", nextFlag);
  document.getElementById("save").addEventListener("click", () => save(false));
  document.getElementById("approve").addEventListener("click", () => save(true));
  document.addEventListener("keydown", (e) => {
    const typing = ["INPUT", "SELECT", "TEXTAREA"].includes(e.target.tagName);
    if (typing) { if (e.key === "Escape") e.target.blur(); return; }
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const action = {j: () => go(view.next), k: () => go(view.previous), n: nextFlag, a: () => save(true),
                    s: () => save(false)}[e.key];
    if (action) { e.preventDefault(); action(); }
  });
  render();
})();
