"""Shared fixtures: the two engines, loaded once per test session; a headless Chromium for the
pages tried in a browser; every class `grade --json` writes in a test held to its schema."""

from __future__ import annotations

import os
import shutil
from typing import Any

import pytest
from results_schema import grade_schema

from minimax_lab.logic.engines import Engine, make_engine


@pytest.fixture(scope="session")
def logic_engine() -> Engine:
    return make_engine("logic")


@pytest.fixture(scope="session")
def reference_engine() -> Engine:
    return make_engine("reference")


@pytest.fixture(scope="session", params=["reference", "logic"])
def engine(request, logic_engine, reference_engine) -> Engine:
    """Each engine in turn: every test that takes it runs on both."""
    return {"logic": logic_engine, "reference": reference_engine}[request.param]


# --- the JSON of grade --json ----------------------------------------------------------------

@pytest.fixture(autouse=True)
def grade_json_meets_its_schema(monkeypatch):
    """Every class a test has `grade --json` (or any writer of it) write in this process meets
    the JSON Schema shipped with the package: the test fails otherwise."""
    from minimax_lab.compare.grader.outputs import results_json
    unmet: list[str] = []
    written = results_json.class_json

    def checked(graded: Any) -> dict[str, Any]:
        report = written(graded)
        unmet.extend(f"{list(error.absolute_path)}: {error.message}"
                     for error in grade_schema().iter_errors(report))
        return report

    monkeypatch.setattr(results_json, "class_json", checked)
    yield
    assert not unmet, f"grade --json wrote what its schema refuses: {unmet[:3]}"


# --- a browser ---------------------------------------------------------------------------

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
CHROMEDRIVER = shutil.which("chromedriver")
PAGE_SECONDS = 30
PROJECTOR = (1024, 768)


@pytest.fixture(scope="module")
def browser():
    """A headless Chromium driven by Selenium, every wait bounded, quit at the end."""
    webdriver = pytest.importorskip("selenium.webdriver",
                                    reason="selenium is not installed (pip install '.[browser]')")
    if CHROMIUM is None or CHROMEDRIVER is None:
        pytest.skip("Chromium or its driver is missing (apt-get install chromium "
                    "chromium-driver)")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--window-size=1024,768", "--disable-gpu",
                     "--no-first-run", "--disable-background-networking"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")
    options.set_capability("goog:loggingPrefs", {"performance": "ALL"})
    driver = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    try:
        driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {  # a projector's screen
            "width": PROJECTOR[0], "height": PROJECTOR[1], "deviceScaleFactor": 1,
            "mobile": False})
        driver.set_page_load_timeout(PAGE_SECONDS)
        driver.set_script_timeout(PAGE_SECONDS)
        yield driver
    finally:
        driver.quit()
