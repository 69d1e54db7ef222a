"""`hclspec report --html` in a real browser: Debian's chromium, headless,
driven through chromedriver by selenium.

The report is made here from a small run with two engines: the reference,
and an engine that answers every case with the string "constant", so that
there are failures to open; and a saved report whose source is hostile
text. The test checks that the summary and area tables render with the
versions, that a failing case opens with its expectation and its answer
as a diff, loaded from its area's file only when it is opened, that
the search finds cases (passing ones too) by id and by a piece of source,
that an area cell filters the list, that the badges are SVG files the page
shows, that hostile text is shown and not run, that no request leaves the
report's directory and that the browser console stays free of errors. It
leaves a screenshot in target/browser-test/ and prints its path.

    .venv/bin/pytest -s harness/tests/browser
"""
import json
import os
import pathlib
import shutil
import subprocess
import xml.etree.ElementTree as ET

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[3]
OUT = ROOT / "target" / "browser-test"
REPORT = OUT / "report"
HCLSPEC = os.environ.get("HCLSPEC_BIN", str(ROOT / "target" / "release" / "hclspec"))
WRONG = "wrong=python3 " + str(ROOT / "examples" / "export-pytest" / "constant_engine.py")
FILTERS = ["arith-0[0-4]?", "str-0??", "cmp-00?"]
HOSTILE = '</script><script>window.pwned = 1</script><!-- \x1b[31m <img src=x onerror="window.pwned = 2">'
SVG = "{http://www.w3.org/2000/svg}svg"


def run_json(*args):
    out = subprocess.run([HCLSPEC, "run", "--format", "json", "--corpus", str(ROOT / "spec-tests"), *args],
                         capture_output=True, text=True).stdout
    return out


@pytest.fixture(scope="module")
def page():
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    args = [HCLSPEC, "report", "--html", str(REPORT), "--corpus", str(ROOT / "spec-tests")]
    for f in FILTERS:
        args += ["--filter", f]
    # A saved report whose case text is hostile: markup that would run if
    # it were not escaped, and a control character.
    saved = run_json("--engine", WRONG.split("=", 1)[1], "--filter", "arith-001")
    assert '"source": "1 + 2"' in saved
    (OUT / "hostile.json").write_text(saved.replace('"source": "1 + 2"', '"source": %s' % json.dumps(HOSTILE)))
    subprocess.run(args + ["--engine", "reference", "--engine", WRONG, "--engine-version", "wrong=constant 1.0",
                           str(OUT / "hostile.json")], check=True)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"]:
        options.add_argument(arg)
    # The performance log holds every request the page makes (file:// too).
    options.set_capability("goog:loggingPrefs", {"browser": "ALL", "performance": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.get((REPORT / "index.html").as_uri())
        yield driver
    finally:
        driver.quit()


def texts(driver, css):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, css)]


def search_for(page, text):
    search = page.find_element(By.ID, "f-text")
    # Cleared with keys, as a person would: `clear()` sends no input event.
    search.send_keys(Keys.CONTROL, "a")
    search.send_keys(Keys.BACKSPACE)
    search.send_keys(text)
    return page.find_elements(By.CSS_SELECTOR, "#case-list li.case")


def entry_named(page, name, source=None):
    entries = [e for e in page.find_elements(By.CSS_SELECTOR, "#case-list li.case")
               if e.find_element(By.CSS_SELECTOR, "code.id").text == name
               and source in (None, e.find_element(By.CSS_SELECTOR, "code.src").text)]
    assert len(entries) == 1, [e.text for e in page.find_elements(By.CSS_SELECTOR, "#case-list li.case")]
    return entries[0]


def chips(entry):
    return [tuple(c.get_attribute("title").split(": ")) for c in entry.find_elements(By.CSS_SELECTOR, ".chip")]


def loaded_scripts(page):
    return page.execute_script("return [...document.querySelectorAll('script[src]')].map(s => s.getAttribute('src'))")


def test_summary_and_area_tables_render(page):
    assert [t.split()[0] for t in texts(page, "table.summary tbody th")] == ["reference", "wrong", "hostile"]
    reference, wrong, _ = page.find_elements(By.CSS_SELECTOR, "table.summary tbody tr")
    assert "100.0%" in reference.text and "0.0%" in wrong.text
    assert texts(page, "table.areas tbody th") == ["arithmetic", "comparison", "strings"]
    assert texts(page, "table.areas tfoot td b") == ["100.0%", "0.0%", "0.0%"]
    # The versions: hclspec's, the corpus's and each engine's.
    version = subprocess.run([HCLSPEC, "--version"], capture_output=True, text=True).stdout.split()[-1]
    versions = page.find_element(By.CSS_SELECTOR, "dl.versions").text
    assert "this page: hclspec %s" % version in versions, versions
    assert "corpus\n%s, directory" % version in versions, versions
    assert "reference: hclspec %s" % version in versions and "wrong: constant 1.0" in versions, versions
    assert texts(page, "table.summary td.version")[:2] == ["hclspec %s" % version, "constant 1.0"]


def test_a_failing_case_opens_with_its_answers(page):
    # Nothing but the page is loaded until a case is opened.
    assert loaded_scripts(page) == []
    search_for(page, "arith-001")
    # The hostile report has another arith-001 (another source).
    entry = entry_named(page, "arithmetic::arith-001", "1 + 2")
    assert ("reference", "pass") in chips(entry) and ("wrong", "fail") in chips(entry)
    entry.find_element(By.TAG_NAME, "summary").click()
    WebDriverWait(page, 5).until(lambda d: entry.find_elements(By.CSS_SELECTOR, ".body pre.diff"))
    assert loaded_scripts(page) == ["cases/arithmetic.js"]
    body = entry.find_element(By.CSS_SELECTOR, ".body")
    assert body.find_element(By.CSS_SELECTOR, "pre.source").text == "1 + 2"
    expected = body.find_element(By.CSS_SELECTOR, "pre.expected").text
    assert '"type": "number"' in expected and '"value": 3' in expected
    # The diff holds the whole answer, so it is the answer's only block.
    assert not body.find_elements(By.CSS_SELECTOR, "pre.actual")
    assert "actual, as a diff (- expected, + actual)" in texts(body, "section.run h3")
    assert any('"value": "constant"' in t for t in texts(body, "pre.diff span.add"))
    assert any('"value": 3' in t for t in texts(body, "pre.diff span.del"))
    assert body.find_element(By.CSS_SELECTOR, ".passed-by").text == "passed by reference"
    page.execute_script("arguments[0].scrollIntoView()", entry)
    shot = OUT / "report.png"
    page.save_screenshot(str(shot))
    print("\nscreenshot: %s" % shot.relative_to(ROOT))
    search_for(page, "")


def test_the_search_finds_every_case_by_id_and_by_source(page):
    page.execute_script("const run = document.getElementById('f-run'); run.value = '0';"
                        "run.dispatchEvent(new Event('change'))")
    outcome = page.find_element(By.ID, "f-outcome")
    assert outcome.get_attribute("value") == "not-passed"
    # The reference passes every case: searching widens the outcome filter
    # to every outcome, so a passing case is found, with its outcomes.
    found = search_for(page, "cmp-003")
    assert len(found) == 1 and outcome.get_attribute("value") == ""
    assert chips(found[0])[:2] == [("reference", "pass"), ("wrong", "fail")]
    # By a piece of its source, from the middle.
    case = json.loads(run_json("--filter", "strings::str-018"))["cases"][0]
    piece = case["source"][3:-1]
    assert len(piece) >= 6
    search_for(page, piece)
    entry = entry_named(page, "strings::str-018")
    assert piece in entry.find_element(By.CSS_SELECTOR, "code.src").text
    # A passing case opens too, with its expectation, from its area's file.
    entry.find_element(By.TAG_NAME, "summary").click()
    WebDriverWait(page, 5).until(lambda d: entry.find_elements(By.CSS_SELECTOR, ".body pre.expected"))
    assert entry.find_element(By.CSS_SELECTOR, ".body pre.source").text == case["source"]
    assert "cases/strings.js" in loaded_scripts(page)
    # Clearing the search narrows the list back to what did not pass.
    search_for(page, "")
    assert outcome.get_attribute("value") == "not-passed"
    assert page.find_element(By.ID, "f-count").text.startswith("0 of the ")
    page.execute_script("const run = document.getElementById('f-run'); run.value = '';"
                        "run.dispatchEvent(new Event('change'))")


def test_an_area_cell_opens_that_area(page):
    page.find_element(By.CSS_SELECTOR, 'table.areas a.open[data-run="1"][data-area="strings"]').click()
    ids = texts(page, "#case-list li.case code.id")
    assert ids and {i.split("::")[0] for i in ids} == {"strings"}
    assert page.find_element(By.ID, "f-count").text.startswith(str(len(ids)))


def test_badges_are_svg_files_the_page_shows(page):
    for name, value in [("reference", "100.0%"), ("wrong", "0.0%"), ("hostile", "0.0%")]:
        svg = ET.parse(REPORT / "badges" / ("%s.svg" % name)).getroot()
        assert svg.tag == SVG
        assert svg.get("aria-label") == "conformance: %s" % value
        assert int(svg.get("width")) > 60 and svg.get("height") == "20"
    images = page.find_elements(By.CSS_SELECTOR, "table.summary img.badge")
    assert [i.get_attribute("alt") for i in images] == ["conformance: 100.0%", "conformance: 0.0%", "conformance: 0.0%"]
    assert all(page.execute_script("return arguments[0].complete && arguments[0].naturalWidth", i) > 60 for i in images)


def test_hostile_text_is_shown_not_run(page):
    page.execute_script(
        "document.getElementById('f-area').value = '';"
        "document.getElementById('f-outcome').value = 'not-passed';"
        "document.getElementById('f-text').value = '';"
        "const run = document.getElementById('f-run');"
        "run.value = '2'; run.dispatchEvent(new Event('change'))")
    entry = page.find_element(By.CSS_SELECTOR, "#case-list li.case")
    assert "window.pwned" in entry.find_element(By.CSS_SELECTOR, "code.src").text
    entry.find_element(By.TAG_NAME, "summary").click()
    # The body is drawn when the entry opens: wait for it, as above.
    WebDriverWait(page, 5).until(lambda d: entry.find_elements(By.CSS_SELECTOR, ".body pre.source"))
    source = entry.find_element(By.CSS_SELECTOR, ".body pre.source")
    assert source.text == HOSTILE.replace("\x1b", "\\u{1b}")
    assert page.execute_script("return window.pwned") is None
    assert not page.find_elements(By.CSS_SELECTOR, "#case-list img")


def test_no_request_leaves_the_directory_and_the_console_has_no_errors(page):
    here = REPORT.as_uri() + "/"
    requests = [json.loads(e["message"])["message"] for e in page.get_log("performance")]
    urls = [m["params"]["request"]["url"] for m in requests if m["method"] == "Network.requestWillBeSent"]
    # The page, the area files opened above and the badges; nothing else.
    assert here + "index.html" in urls and here + "cases/arithmetic.js" in urls, urls
    assert here + "badges/reference.svg" in urls, urls
    assert all(u.startswith(here) or u.startswith("data:") for u in urls), urls
    # The log is really read: a message the test writes comes back.
    page.execute_script("console.error('probe from the test')")
    logs = page.get_log("browser")
    assert any("probe from the test" in e["message"] for e in logs), logs
    errors = [e for e in logs if e["level"] == "SEVERE" and "probe from the test" not in e["message"]]
    assert errors == []
    timing = page.execute_script(
        "const t = performance.getEntriesByType('navigation')[0]; return [t.domContentLoadedEventEnd, t.loadEventEnd]")
    print("\nreport loaded in %.0f ms (DOMContentLoaded %.0f ms)" % (timing[1], timing[0]))
