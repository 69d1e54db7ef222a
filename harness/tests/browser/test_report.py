"""`hclspec report --html` in a real browser: Debian's chromium, headless,
driven through chromedriver by selenium.

The report is made here from a small run with two engines: the reference,
and an engine that answers every case with the string "constant", so that
there are failures to open. The test checks that the summary and area
tables render, that a failing case opens with its expected and actual
answers and their diff, that an area cell filters the list, and that the
browser console stays free of errors. It leaves a screenshot in
target/browser-test/ and prints its path.

    .venv/bin/pytest -s harness/tests/browser
"""
import json
import os
import pathlib
import shutil
import subprocess

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

ROOT = pathlib.Path(__file__).resolve().parents[3]
OUT = ROOT / "target" / "browser-test"
HCLSPEC = os.environ.get("HCLSPEC_BIN", str(ROOT / "target" / "release" / "hclspec"))
WRONG = "wrong=python3 " + str(ROOT / "examples" / "export-pytest" / "constant_engine.py")
FILTERS = ["arith-0[0-4]?", "str-0??", "cmp-00?"]
HOSTILE = '</script><script>window.pwned = 1</script><!-- \x1b[31m <img src=x onerror="window.pwned = 2">'


@pytest.fixture(scope="module")
def page():
    shutil.rmtree(OUT, ignore_errors=True)
    OUT.mkdir(parents=True)
    args = [HCLSPEC, "report", "--html", str(OUT / "report"), "--corpus", str(ROOT / "spec-tests")]
    for f in FILTERS:
        args += ["--filter", f]
    # A saved report whose case text is hostile: markup that would run if
    # it were not escaped, and a control character.
    saved = subprocess.run([HCLSPEC, "run", "--engine", WRONG.split("=", 1)[1], "--format", "json",
                            "--corpus", str(ROOT / "spec-tests"), "--filter", "arith-001"],
                           capture_output=True, text=True).stdout
    assert '"source": "1 + 2"' in saved
    (OUT / "hostile.json").write_text(saved.replace('"source": "1 + 2"', '"source": %s' % json.dumps(HOSTILE)))
    subprocess.run(args + ["--engine", "reference", "--engine", WRONG, str(OUT / "hostile.json")], check=True)
    options = webdriver.ChromeOptions()
    options.binary_location = shutil.which("chromium") or "/usr/bin/chromium"
    for arg in ["--headless=new", "--no-sandbox", "--disable-gpu", "--window-size=1280,1600"]:
        options.add_argument(arg)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    service = Service(executable_path=shutil.which("chromedriver") or "/usr/bin/chromedriver")
    driver = webdriver.Chrome(options=options, service=service)
    try:
        driver.get((OUT / "report" / "index.html").as_uri())
        yield driver
    finally:
        driver.quit()


def texts(driver, css):
    return [e.text for e in driver.find_elements(By.CSS_SELECTOR, css)]


def test_summary_and_area_tables_render(page):
    assert [t.split()[0] for t in texts(page, "table.summary tbody th")] == ["reference", "wrong", "hostile"]
    reference, wrong, _ = page.find_elements(By.CSS_SELECTOR, "table.summary tbody tr")
    assert "100.0%" in reference.text and "0.0%" in wrong.text
    assert texts(page, "table.areas tbody th") == ["arithmetic", "comparison", "strings"]
    assert texts(page, "table.areas tfoot td b") == ["100.0%", "0.0%", "0.0%"]


def test_a_failing_case_opens_with_its_answers(page):
    search = page.find_element(By.ID, "f-text")
    search.clear()
    search.send_keys("arith-001")
    entry = page.find_element(By.CSS_SELECTOR, "#case-list li.case")
    assert "arithmetic::arith-001" in entry.text and "fail" in entry.text
    entry.find_element(By.TAG_NAME, "summary").click()
    WebDriverWait(page, 5).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#case-list .body pre.actual"))
    body = entry.find_element(By.CSS_SELECTOR, ".body")
    assert body.find_element(By.CSS_SELECTOR, "pre.source").text == "1 + 2"
    expected = body.find_element(By.CSS_SELECTOR, "pre.expected").text
    assert '"type": "number"' in expected and '"value": 3' in expected
    assert '"value": "constant"' in body.find_element(By.CSS_SELECTOR, "pre.actual").text
    assert any('"value": "constant"' in t for t in texts(body, "pre.diff span.add"))
    assert any('"value": 3' in t for t in texts(body, "pre.diff span.del"))
    shot = OUT / "report.png"
    page.save_screenshot(str(shot))
    print("\nscreenshot: %s" % shot.relative_to(ROOT))
    search.clear()


def test_an_area_cell_opens_that_area(page):
    page.find_element(By.CSS_SELECTOR, 'table.areas a.open[data-run="1"][data-area="strings"]').click()
    areas = {t.split()[1].split("::")[0] for t in texts(page, "#case-list li.case")}
    assert areas == {"strings"}
    assert page.find_element(By.ID, "f-count").text.startswith(str(len(texts(page, "#case-list li.case"))))


def test_hostile_text_is_shown_not_run(page):
    page.execute_script(
        "document.getElementById('f-area').value = '';"
        "const run = document.getElementById('f-run');"
        "run.value = '2'; run.dispatchEvent(new Event('change'))")
    entry = page.find_element(By.CSS_SELECTOR, "#case-list li.case")
    entry.find_element(By.TAG_NAME, "summary").click()
    # The body is drawn when the entry opens: wait for it, as above.
    WebDriverWait(page, 5).until(lambda d: entry.find_elements(By.CSS_SELECTOR, ".body pre.source"))
    source = entry.find_element(By.CSS_SELECTOR, ".body pre.source")
    assert source.text == HOSTILE.replace("\x1b", "\\u{1b}")
    assert page.execute_script("return window.pwned") is None
    assert not page.find_elements(By.CSS_SELECTOR, "#case-list img")


def test_the_console_has_no_errors(page):
    # The log is really read: a message the test writes comes back.
    page.execute_script("console.error('probe from the test')")
    logs = page.get_log("browser")
    assert any("probe from the test" in e["message"] for e in logs), logs
    errors = [e for e in logs if e["level"] == "SEVERE" and "probe from the test" not in e["message"]]
    assert errors == []
    timing = page.execute_script(
        "const t = performance.getEntriesByType('navigation')[0]; return [t.domContentLoadedEventEnd, t.loadEventEnd]")
    print("\nreport loaded in %.0f ms (DOMContentLoaded %.0f ms)" % (timing[1], timing[0]))
