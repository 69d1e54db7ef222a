"use strict";
// The case list of the hclspec report: filters, paging, and each case's
// details built when it is first opened. Every text is set with
// textContent; no value of the language is parsed here (they are text).
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);
  const runSelect = $("f-run"), outcomeSelect = $("f-outcome"), areaSelect = $("f-area");
  const search = $("f-text"), list = $("case-list"), more = $("more"), count = $("f-count");
  const FAILURES = ["fail", "error-mismatch", "crash", "timeout", "protocol-error"];
  const PAGE = 200;
  // cases[i]: [area, id, file, kind, source, scope, expected, hcl version]
  // runs[r].items[j]: [case index, outcome, message, actual, diff, stderr, skip]
  let matches = [], shown = 0;

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function option(select, value, label) {
    const o = el("option", "", label);
    o.value = value;
    select.appendChild(o);
  }

  data.runs.forEach((run, i) => option(runSelect, String(i), run.name + " (" + run.level + ", " + run.items.length + " not passed)"));
  option(outcomeSelect, "failures", "failures: " + FAILURES.join(", "));
  option(outcomeSelect, "", "every outcome but pass");
  data.outcomes.filter((o) => !["pass", "pass-f64", "unexpected-pass"].includes(o)).forEach((o) => option(outcomeSelect, o, o));
  option(areaSelect, "", "every area");
  data.areas.forEach((a) => option(areaSelect, a, a));

  function wanted(item, outcome, area, text) {
    const c = data.cases[item[0]];
    if (outcome === "failures" ? !FAILURES.includes(item[1]) : outcome && item[1] !== outcome) return false;
    if (area && c[0] !== area) return false;
    return !text || [c[0], c[1], c[2], c[4], item[2]].some((s) => s.toLowerCase().includes(text));
  }

  function filter() {
    const run = data.runs[Number(runSelect.value)];
    const items = run ? run.items : [];
    const outcome = outcomeSelect.value, area = areaSelect.value, text = search.value.toLowerCase();
    matches = items.filter((item) => wanted(item, outcome, area, text));
    list.replaceChildren();
    shown = 0;
    page();
    count.textContent = matches.length + " of the " + items.length + " cases that did not pass";
  }

  function page() {
    const end = Math.min(matches.length, shown + PAGE);
    const fragment = document.createDocumentFragment();
    for (; shown < end; shown++) fragment.appendChild(entry(matches[shown]));
    list.appendChild(fragment);
    more.hidden = shown >= matches.length;
  }

  function entry(item) {
    const c = data.cases[item[0]];
    const li = el("li", "case " + item[1]);
    const details = el("details");
    const summary = el("summary");
    summary.append(el("span", "outcome", item[1]), " ", el("code", "id", c[0] + "::" + c[1]), " ", el("span", "msg", item[2]));
    details.appendChild(summary);
    details.addEventListener("toggle", () => {
      if (details.open && !details.querySelector(".body")) details.appendChild(body(c, item));
    });
    li.appendChild(details);
    return li;
  }

  function block(parent, title, text, cls) {
    if (!text) return;
    parent.appendChild(el("h3", "", title));
    parent.appendChild(el("pre", cls, text));
  }

  function diff(text) {
    const pre = el("pre", "diff");
    for (const line of text.split("\n")) {
      if (line === "") continue;
      const kind = /^(\+\+\+|---)/.test(line) ? "hdr" : line[0] === "+" ? "add" : line[0] === "-" ? "del" : line[0] === "@" ? "hunk" : "";
      pre.appendChild(el("span", kind, line + "\n"));
    }
    return pre;
  }

  function body(c, item) {
    const div = el("div", "body");
    div.appendChild(el("p", "meta", c[2] + " · " + c[3] + " · HCL " + c[7]));
    block(div, "source", c[4], "source");
    block(div, "scope", c[5], "scope");
    block(div, "expected", c[6], "expected");
    block(div, "actual", item[3] || "(no answer: " + item[2] + ")", "actual");
    if (item[4]) {
      div.appendChild(el("h3", "", "diff (- expected, + actual)"));
      div.appendChild(diff(item[4]));
    }
    block(div, "stderr", item[5], "stderr");
    block(div, "skip list entry", item[6], "skip");
    return div;
  }

  runSelect.addEventListener("change", filter);
  outcomeSelect.addEventListener("change", filter);
  areaSelect.addEventListener("change", filter);
  search.addEventListener("input", filter);
  more.addEventListener("click", page);
  // An area cell opens that engine's cases of the area that did not pass.
  document.querySelectorAll("a.open").forEach((a) => a.addEventListener("click", () => {
    runSelect.value = a.dataset.run;
    areaSelect.value = a.dataset.area;
    outcomeSelect.value = "";
    filter();
  }));
  // Open on the first engine with a failure, if one has.
  const first = data.runs.findIndex((run) => run.items.some((item) => FAILURES.includes(item[1])));
  if (first >= 0) runSelect.value = String(first);
  filter();
})();
