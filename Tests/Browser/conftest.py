"""Fixtures of the dashboard's browser tests: a real `workoutd` over TLS with a household of
three (an owner, a member who shares and whose name holds markup, a member who does not share),
and headless Chromium sessions driven by Selenium.

The server's key is self-made, so Chromium runs with --ignore-certificate-errors (the tests'
browsers only; a household that wants browsers to trust its server without a click-through
brings its own certificate chain). Screenshots go to $DASHBOARD_ARTIFACTS (a temporary folder
by default)."""

import json
import os
import re
import ssl
import subprocess
import tempfile
import time
import urllib.request

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException, TimeoutException
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

PASSWORD = "correct horse battery"
ZONE = "Europe/Berlin"


class Household:
    """The running server and its members."""

    def __init__(self, workoutd, data, log):
        self.workoutd = workoutd
        self.data = data
        self.log = log
        self.server = None
        self.port = 0
        self.members = {}

    @property
    def base(self):
        return f"https://127.0.0.1:{self.port}"

    def start(self):
        """Starts `workoutd serve` (on a free port the first time, on the same one after)."""
        self.server = subprocess.Popen([self.workoutd, "serve", "--data-dir", self.data, "--host", "127.0.0.1", "--port", str(self.port), "--log-level", "info"],
                                       stdout=subprocess.PIPE, stderr=self.log, text=True)
        line = self.server.stdout.readline()
        match = re.search(r"serving on 127\.0\.0\.1:(\d+)", line)
        assert match, f"workoutd said: {line} (its log: {self.log.name})"
        self.port = int(match.group(1))

    def stop(self):
        self.server.terminate()
        self.server.wait(timeout=30)

    def restart(self):
        """Stops the server and starts it again on the same port and store."""
        self.stop()
        self.start()

    def call(self, method, body, token=None):
        """Calls a unary method over the HTTP face (JSON), answering the decoded response."""
        service, name = method.split(".")
        request = urllib.request.Request(
            f"{self.base}/workout.v1.{service}Service/{name}", data=json.dumps(body).encode(), method="POST",
            headers={"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})})
        context = ssl.create_default_context()
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
        with urllib.request.urlopen(request, context=context, timeout=10) as response:
            return json.loads(response.read() or b"{}")


def _run(arguments, stdin=None):
    done = subprocess.run(arguments, input=stdin, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"{arguments}: {done.stderr}"
    return done.stdout


@pytest.fixture(scope="session")
def artifacts():
    folder = os.environ.get("DASHBOARD_ARTIFACTS") or tempfile.mkdtemp(prefix="dashboard-artifacts-")
    os.makedirs(folder, exist_ok=True)
    print(f"\nscreenshots and measurements in {folder}")
    return folder


@pytest.fixture(scope="session")
def household(artifacts):
    workoutd = os.environ.get("WORKOUTD")
    assert workoutd and os.path.exists(workoutd), "set WORKOUTD to the built workoutd (Tests/Browser/run does)"
    data = tempfile.mkdtemp(prefix="dashboard-household-")
    os.chmod(data, 0o700)
    _run([workoutd, "create-owner", "--data-dir", data, "--email", "olga@example.com", "--first-name", "Olga",
          "--last-name", "Owner", "--time-zone", ZONE, "--password-stdin"], stdin=PASSWORD + "\n")
    codes = [re.search(r"Invite code: (\S+)", _run([workoutd, "invite", "--data-dir", data])).group(1) for _ in range(2)]
    log = open(os.path.join(artifacts, "workoutd.log"), "w")
    house = Household(workoutd, data, log)
    house.start()
    try:
        house.members["olga"] = {"email": "olga@example.com", "name": "Olga"}
        for code, key, profile in [
            (codes[0], "eve", {"email": "eve@example.com", "firstName": "Eve", "displayName": "<script>window.pwned=1</script>Eve <b>bold</b>", "shareWithHousehold": True}),
            (codes[1], "nina", {"email": "nina@example.com", "firstName": "Nina", "lastName": "Private", "shareWithHousehold": False}),
        ]:
            house.call("Auth.Register", {"inviteCode": code, "password": PASSWORD, "deviceName": "test",
                                         "profile": {**profile, "timeZone": ZONE}})
            house.members[key] = {"email": profile["email"], "name": profile.get("displayName") or profile["firstName"]}
        # The owner shares too, so the leaderboard has two names and one statement.
        token = house.call("Auth.Login", {"email": "olga@example.com", "password": PASSWORD})["sessionToken"]
        revision = house.call("Profile.GetProfile", {}, token)["profile"].get("revision", "0")
        house.call("Profile.UpdateProfile", {"shareWithHousehold": True, "expectedRevision": revision}, token)
        yield house
    finally:
        house.stop()
        log.close()


def _browser():
    options = webdriver.ChromeOptions()
    for argument in ["--headless=new", "--ignore-certificate-errors", "--no-sandbox", "--disable-dev-shm-usage",
                     "--disable-gpu", "--window-size=1100,900", "--disable-extensions", "--no-first-run"]:
        options.add_argument(argument)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    options.binary_location = os.environ.get("CHROMIUM", "/usr/bin/chromium")
    driver = webdriver.Chrome(service=Service(os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")), options=options)
    driver.set_script_timeout(20)
    return driver


class Page:
    """One browser tab on the dashboard, with the steps the tests take."""

    def __init__(self, driver, household):
        self.driver = driver
        self.household = household

    def wait(self, condition, timeout=15, message=""):
        try:
            return WebDriverWait(self.driver, timeout, poll_frequency=0.1, ignored_exceptions=(StaleElementReferenceException, NoSuchElementException)).until(lambda _: condition(), message)
        except TimeoutException:
            console = "\n".join(entry["message"] for entry in self.driver.get_log("browser"))
            raise TimeoutException(f"{message}; the browser's console:\n{console}") from None

    def drawn(self):
        return int(self.driver.find_element(By.ID, "main").get_attribute("data-drawn") or 0)

    def open(self):
        """Loads the page afresh (through a blank page, so no earlier document is reused)."""
        self.driver.get("about:blank")
        self.driver.get(self.household.base + "/")
        self.wait(lambda: self.drawn() > 0, message="the page never drew")

    def sign_in(self, member, password=PASSWORD):
        before = self.drawn()
        form = self.driver.find_element(By.CSS_SELECTOR, "form.sign-in")
        email = form.find_element(By.NAME, "email")
        email.clear()
        email.send_keys(self.household.members[member]["email"])
        field = form.find_element(By.NAME, "password")
        field.clear()
        field.send_keys(password)
        assert email.get_attribute("value") == self.household.members[member]["email"]
        form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
        return before

    def go(self, screen):
        """Shows `screen` (#today …) and waits until it is drawn and settled."""
        before = self.drawn()
        self.driver.execute_script(
            "if (location.hash === arguments[0]) window.dispatchEvent(new HashChangeEvent('hashchange')); else location.hash = arguments[0]",
            "#" + screen)
        self.wait(lambda: self.drawn() > before and self.screen() == screen, message=f"{screen} was not drawn")
        self.settle()

    def settle(self, quiet=0.4):
        """Waits until the screen has not been redrawn for `quiet` seconds (a write's own redraw
        and the one Watch brings after it)."""
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline:
            seen = self.drawn()
            time.sleep(quiet)
            if self.drawn() == seen and not self.driver.find_element(By.ID, "main").get_attribute("aria-busy"):
                return
        raise AssertionError("the screen kept redrawing")

    def screen(self):
        return self.driver.find_element(By.ID, "main").get_attribute("data-screen")

    def stat(self, name):
        return self.driver.find_element(By.CSS_SELECTOR, f"[data-stat='{name}'] .stat-value").text

    def form(self, label):
        return self.driver.find_element(By.CSS_SELECTOR, f"form[aria-label='{label}']")

    def status_of(self, form, text):
        self.wait(lambda: text in form.find_element(By.CSS_SELECTOR, ".status").text,
                  message=f"no '{text}': {form.find_element(By.CSS_SELECTOR, '.status').text}")

    def fill(self, form, name, value, index=0):
        field = form.find_elements(By.NAME, name)[index]
        self.driver.execute_script("arguments[0].value = ''", field)
        field.send_keys(str(value))

    def shot(self, folder, name):
        self.driver.save_screenshot(os.path.join(folder, f"{name}.png"))


@pytest.fixture(scope="session")
def browser(household):
    driver = _browser()
    yield Page(driver, household)
    driver.quit()


@pytest.fixture(scope="session")
def second_browser(household):
    driver = _browser()
    yield Page(driver, household)
    driver.quit()
