"use strict";
// The case list of the hclspec report: filters, search, paging, and each
// case's details, loaded with its area's file (cases/AREA.js, by a script
// element, which works from file:// where fetch does not) and built when the
// case is first opened. Every text is set with textContent; no value of
// the language is parsed here (they are text).
(function () {
  const data = JSON.parse(document.getElementById("report-data").textContent);
  const $ = (id) => document.getElementById(id);
  const runSelect = $("f-run"), outcomeSelect = $("f-outcome"), areaSelect = $("f-area");
  const search = $("f-text"), list = $("case-list"), more = $("more"), count = $("f-count");
  const FAILURES = ["fail", "error-mismatch", "crash", "timeout", "protocol-error"];
  const PASSES = ["pass", "pass-f64", "unexpected-pass"];
  const NOT_PASSED = "not-passed", EVERY = "";
  // An outcome as a case's line shows it, in chips of one width (the title
  // names the engine and the outcome in full).
  const SHORT = {"error-mismatch": "error", "unsupported": "unsup.", "protocol-error": "proto",
                 "unexpected-pass": "xpass", "not-run": "not run", "pass-f64": "f64", "skipped": "skip"};
  const PAGE = 200;
  // areas[a]: [name, details file]
  // cases[i]: [area index, id, kind index, the start of the source]
  // runs[r].outcomes[i]: "a" + the index of case i's outcome in outcomes, "-" if run r did not have it
  // A details file calls hclspecCases(a, {texts, rows}), rows[k]: [case index, file, source,
  //   scope, [expectations], [per run: 0, or [expectation index, message, actual, diff, stderr,
  //   skip]]], each text as its index in texts (the area's distinct texts, "" first), a run's
  //   trailing empty texts left out, the actual answer empty when the diff holds all of it
  let matches = [], shown = 0, searchWidened = false;
  const haystacks = data.cases.map((c) => (data.areas[c[0]][0] + "::" + c[1] + "\n" + c[3]).toLowerCase());
  const details = new Map(), loading = new Map();

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
  function outcomeOf(r, i) {
    const code = data.runs[r].outcomes.charCodeAt(i) - 97;
    return code >= 0 && code < data.outcomes.length ? data.outcomes[code] : null;
  }

  option(runSelect, EVERY, "every engine");
  data.runs.forEach((run, r) => option(runSelect, String(r), run.name + " (" + run.level + ", HCL " + run.hcl + ")"));
  option(outcomeSelect, NOT_PASSED, "did not pass");
  option(outcomeSelect, "failures", "failures: " + FAILURES.join(", "));
  option(outcomeSelect, "passed", "passed");
  option(outcomeSelect, EVERY, "every outcome");
  data.outcomes.forEach((o) => option(outcomeSelect, o, o));
  option(areaSelect, EVERY, "every area");
  data.areas.forEach((a, i) => option(areaSelect, String(i), a[0]));

  function outcomeWanted(o, wanted) {
    if (o === null) return false;
    if (wanted === EVERY) return true;
    if (wanted === NOT_PASSED) return !PASSES.includes(o);
    if (wanted === "failures") return FAILURES.includes(o);
    if (wanted === "passed") return PASSES.includes(o);
    return o === wanted;
  }

  function filter() {
    const runs = runSelect.value === EVERY ? data.runs.map((_, r) => r) : [Number(runSelect.value)];
    const outcome = outcomeSelect.value, area = areaSelect.value, text = search.value.toLowerCase();
    const areaIndex = area === EVERY ? -1 : Number(area);
    matches = [];
    for (let i = 0; i < data.cases.length; i++) {
      if (areaIndex >= 0 && data.cases[i][0] !== areaIndex) continue;
      if (text && !haystacks[i].includes(text)) continue;
      if (runs.some((r) => outcomeWanted(outcomeOf(r, i), outcome))) matches.push(i);
    }
    list.replaceChildren();
    shown = 0;
    page();
    count.textContent = matches.length + " of the " + data.cases.length + " cases";
  }

  function page() {
    const end = Math.min(matches.length, shown + PAGE);
    const fragment = document.createDocumentFragment();
    for (; shown < end; shown++) fragment.appendChild(entry(matches[shown]));
    list.appendChild(fragment);
    more.hidden = shown >= matches.length;
  }

  // A case's line: each run's outcome, its area and id, and the start of
  // its source.
  function entry(i) {
    const c = data.cases[i];
    const li = el("li", "case");
    const item = el("details");
    const summary = el("summary");
    const outcomes = el("span", "outcomes");
    data.runs.forEach((run, r) => {
      const o = outcomeOf(r, i);
      const chip = el("span", "chip " + (o || "absent"), o ? SHORT[o] || o : "–");
      chip.title = run.name + ": " + (o || "not in this run");
      outcomes.appendChild(chip);
    });
    summary.append(outcomes, " ", el("code", "id", data.areas[c[0]][0] + "::" + c[1]), " ", el("code", "src", c[3]));
    item.appendChild(summary);
    item.addEventListener("toggle", () => {
      if (!item.open || item.querySelector(".body")) return;
      const body = el("div", "body", "loading " + data.areas[c[0]][1] + " …");
      item.appendChild(body);
      loadArea(c[0]).then((rows) => {
        const row = rows.get(i);
        body.replaceChildren();
        if (row) fill(body, c, row);
        else body.textContent = "this case is missing from " + data.areas[c[0]][1];
      }, () => { body.textContent = "could not load " + data.areas[c[0]][1] + " (is it next to this page?)"; });
    });
    li.appendChild(item);
    return li;
  }

  // The details file calls this when it loads; its rows name texts by
  // index, and are kept here with the texts in their place.
  window.hclspecCases = function (a, area) {
    const t = (k) => (k ? area.texts[k] : "");
    details.set(a, new Map(area.rows.map(([i, file, source, scope, expected, perRun]) => [i,
      [i, t(file), t(source), t(scope), expected.map(t),
        perRun.map((item) => item && [item[0], t(item[1]), t(item[2]), t(item[3]), t(item[4]), t(item[5])])]])));
  };

  function loadArea(a) {
    if (details.has(a)) return Promise.resolve(details.get(a));
    if (!loading.has(a)) {
      loading.set(a, new Promise((resolve, reject) => {
        const script = document.createElement("script");
        script.src = data.areas[a][1];
        script.onload = () => (details.has(a) ? resolve(details.get(a)) : reject());
        script.onerror = () => { loading.delete(a); script.remove(); reject(); };
        document.head.appendChild(script);
      }));
    }
    return loading.get(a);
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

  // The opened case: its file, kind, source and scope, each expectation,
  // then each run that did not pass it with its answer, and the runs that
  // passed it on one line.
  function fill(div, c, row) {
    const [i, file, source, scope, expected, perRun] = row;
    div.appendChild(el("p", "meta", file + " · " + data.kinds[c[2]]));
    block(div, "source", source, "source");
    block(div, "scope", scope, "scope");
    const passedBy = [];
    expected.forEach((text, e) => {
      const runs = data.runs.filter((_, r) => perRun[r] && perRun[r][0] === e).map((run) => run.name + " (HCL " + run.hcl + ")");
      block(div, expected.length > 1 ? "expected by " + runs.join(", ") : "expected", text, "expected");
    });
    perRun.forEach((item, r) => {
      if (!item) return;
      const run = data.runs[r], o = outcomeOf(r, i);
      if (o === "pass") { passedBy.push(run.name); return; }
      const section = el("section", "run " + (o || ""));
      section.appendChild(el("h3", "run-name", run.name + ": " + o + " — " + item[1]));
      if (item[2] || !item[3]) block(section, "actual", item[2] || "(no answer: " + item[1] + ")", "actual");
      if (item[3]) {
        section.appendChild(el("h3", "", item[2] ? "diff (- expected, + actual)" : "actual, as a diff (- expected, + actual)"));
        section.appendChild(diff(item[3]));
      }
      block(section, "stderr", item[4], "stderr");
      block(section, "skip list entry", item[5], "skip");
      div.appendChild(section);
    });
    if (passedBy.length) div.appendChild(el("p", "meta passed-by", "passed by " + passedBy.join(", ")));
  }

  runSelect.addEventListener("change", filter);
  outcomeSelect.addEventListener("change", () => { searchWidened = false; filter(); });
  areaSelect.addEventListener("change", filter);
  // The search looks at every case: typing widens "did not pass" to every
  // outcome (the outcome filter shows it), and clearing the box narrows it
  // back.
  search.addEventListener("input", () => {
    if (search.value && outcomeSelect.value === NOT_PASSED) {
      outcomeSelect.value = EVERY;
      searchWidened = true;
    } else if (!search.value && searchWidened) {
      outcomeSelect.value = NOT_PASSED;
      searchWidened = false;
    }
    filter();
  });
  more.addEventListener("click", page);
  // An area cell opens that engine's cases of the area that did not pass.
  document.querySelectorAll("a.open").forEach((a) => a.addEventListener("click", () => {
    runSelect.value = a.dataset.run;
    areaSelect.value = String(data.areas.findIndex((x) => x[0] === a.dataset.area));
    outcomeSelect.value = NOT_PASSED;
    search.value = "";
    searchWidened = false;
    filter();
  }));
  filter();
})();
