"""The family dashboard in a real browser (headless Chromium) against a real workoutd over TLS.

Tests run in this file's order on one household (conftest.py): the first signs the owner in,
the later ones use that tab."""

import datetime
import json
import os
import statistics
import urllib.error
import zoneinfo

from selenium.webdriver.common.by import By

from conftest import PASSWORD, ZONE

SCREENS = ["today", "week", "weight", "history", "achievements", "household", "log", "profile"]


def today_key():
    return datetime.datetime.now(zoneinfo.ZoneInfo(ZONE)).strftime("%Y-%m-%d")


def ensure_signed_in(page, member="olga"):
    if page.driver.current_url.startswith(page.household.base) and page.screen() not in (None, "sign-in"):
        return
    page.open()
    if page.screen() != "sign-in":
        return
    before = page.sign_in(member)
    page.wait(lambda: page.drawn() > before and page.screen() == "today", message="not signed in")


def test_sign_in_refuses_a_wrong_password_then_takes_the_right_one(browser, artifacts):
    browser.open()
    assert browser.screen() == "sign-in"
    browser.shot(artifacts, "sign-in")
    browser.sign_in("olga", password="not the password")
    form = browser.driver.find_element(By.CSS_SELECTOR, "form.sign-in")
    browser.wait(lambda: "error" in form.find_element(By.CSS_SELECTOR, ".status").get_attribute("class"), message="no refusal shown")
    assert form.find_element(By.CSS_SELECTOR, ".status").text
    assert browser.screen() == "sign-in"
    before = browser.sign_in("olga")
    browser.wait(lambda: browser.drawn() > before and browser.screen() == "today", message="the right password did not sign in")
    assert browser.driver.find_element(By.ID, "who").text == "Olga Owner"
    assert not browser.driver.find_element(By.ID, "nav").get_attribute("hidden")
    # A reload within the tab stays signed in (the token is in sessionStorage).
    browser.driver.refresh()
    browser.wait(lambda: browser.drawn() > 0 and browser.screen() == "today", message="a reload signed out")


def week_value(page, series):
    page.go("week")
    bar = page.driver.find_element(By.CSS_SELECTOR, f"rect[data-series='{series}'][data-key='{today_key()}']")
    return float(bar.get_attribute("data-value")), float(bar.get_attribute("height"))


def test_a_meal_with_two_items_shows_in_today_and_grows_the_weeks_bar(browser):
    ensure_signed_in(browser)
    eaten_before, _ = week_value(browser, "eaten")
    browser.go("log")
    form = browser.form("Log a meal")
    browser.fill(form, "name", "Sunday lunch")
    form.find_element(By.XPATH, ".//button[text()='Add item']").click()
    for index, (food, kcal, protein) in enumerate([("Lentil soup", 420, 21), ("Rye bread", 180, 6)]):
        browser.fill(form, "item-name", food, index)
        browser.fill(form, "item-calories", kcal, index)
        browser.fill(form, "item-protein", protein, index)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.status_of(form, "Meal logged.")
    browser.go("today")
    text = browser.driver.find_element(By.ID, "main").text
    assert "Lentil soup" in text and "Rye bread" in text and "Sunday lunch" in text
    assert browser.stat("eaten").replace(",", "").replace("\u202f", "").startswith(str(int(eaten_before) + 600))
    assert "Protein 27 g" in text
    eaten_after, height = week_value(browser, "eaten")
    assert eaten_after == eaten_before + 600
    assert height > 0


def test_a_weigh_in_from_another_device_appears_without_a_reload(browser, second_browser):
    ensure_signed_in(browser)
    browser.go("weight")
    chart = lambda: browser.driver.find_element(By.CSS_SELECTOR, "svg.chart")
    points_before = int(chart().get_attribute("data-points"))
    browser.driver.execute_script("window.sameDocument = true")
    browser.wait(lambda: browser.driver.find_element(By.ID, "live").text == "Live", message="Watch not live")

    # The same member's other device: a second browser session signs in and logs a weigh-in.
    ensure_signed_in(second_browser, "olga")
    second_browser.go("log")
    form = second_browser.form("Log a weigh-in")
    second_browser.fill(form, "weight", "71.4")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    second_browser.status_of(form, "Weigh-in logged.")

    browser.wait(lambda: int(chart().get_attribute("data-points")) == points_before + 1, timeout=15, message="the chart did not change")
    browser.settle()
    assert browser.driver.execute_script("return window.sameDocument") is True
    values = [float(dot.get_attribute("data-value")) for dot in browser.driver.find_elements(By.CSS_SELECTOR, "svg.chart circle.dot")]
    assert 71.4 in values
    assert browser.stat("latest").startswith("71.4")


def history_totals(page):
    page.go("history")
    return {name: page.stat(name) for name in ["workouts", "total-burned", "streak"]}


def test_editing_and_deleting_a_workout_moves_totals_and_streak(browser):
    ensure_signed_in(browser)
    assert history_totals(browser)["streak"] == "0 days"
    browser.go("log")
    form = browser.form("Log a workout")
    browser.fill(form, "type", "running")
    browser.fill(form, "minutes", 30)
    browser.fill(form, "calories", 300)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.status_of(form, "Workout logged.")
    totals = history_totals(browser)
    assert totals == {"workouts": "1", "total-burned": "300 kcal", "streak": "1 day"}

    item = browser.driver.find_element(By.CSS_SELECTOR, "li[data-workout]")
    item.find_element(By.XPATH, ".//button[text()='Edit']").click()
    form = browser.form("Edit workout")
    browser.fill(form, "minutes", 45)
    browser.fill(form, "calories", 450)
    before = browser.drawn()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait(lambda: browser.drawn() > before and browser.screen() == "history", message="no redraw after the edit")
    browser.settle()
    assert "45 min · 450 kcal" in browser.driver.find_element(By.CSS_SELECTOR, "li[data-workout]").text
    assert browser.stat("total-burned") == "450 kcal"
    assert browser.stat("streak") == "1 day"

    delete = browser.driver.find_element(By.CSS_SELECTOR, "li[data-workout] button.danger")
    delete.click()
    assert delete.text == "Confirm delete"
    before = browser.drawn()
    delete.click()
    browser.wait(lambda: browser.drawn() > before, message="no redraw after the delete")
    browser.settle()
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "li[data-workout]")
    assert {name: browser.stat(name) for name in ["workouts", "total-burned", "streak"]} == {"workouts": "0", "total-burned": "0 kcal", "streak": "0 days"}


def test_a_name_with_markup_is_shown_as_text(browser):
    ensure_signed_in(browser)
    browser.go("household")
    names = [cell.text for cell in browser.driver.find_elements(By.CSS_SELECTOR, "th.member-name")]
    assert "<script>window.pwned=1</script>Eve <b>bold</b>" in names
    assert browser.driver.execute_script("return window.pwned") is None
    assert not browser.driver.find_elements(By.CSS_SELECTOR, "main b, main script")


def test_the_household_says_who_does_not_share(browser, second_browser, artifacts):
    ensure_signed_in(browser)
    browser.go("household")
    table = browser.driver.find_element(By.CSS_SELECTOR, "table.leaderboard").text
    assert "Olga" in table and "Eve" in table and "Nina" not in table
    statement = browser.driver.find_element(By.CSS_SELECTOR, ".statement").text
    assert "Nina Private does not share" in statement

    # Nina herself is told that she does not share.
    second_browser.driver.execute_script("sessionStorage.clear()")
    second_browser.open()
    before = second_browser.sign_in("nina")
    second_browser.wait(lambda: second_browser.drawn() > before and second_browser.screen() == "today",
                        message=f"Nina was not signed in: {second_browser.driver.find_element(By.ID, 'main').text}")
    second_browser.go("household")
    assert "You do not share" in second_browser.driver.find_element(By.CSS_SELECTOR, ".statement").text
    assert "(you)" in second_browser.driver.find_element(By.CSS_SELECTOR, "table.leaderboard").text
    second_browser.shot(artifacts, "household-not-sharing")


def seed_a_month(household):
    """A month of the owner's life, logged over HTTP, so the screenshots show something."""
    token = household.call("Auth.Login", {"email": "olga@example.com", "password": PASSWORD})["sessionToken"]
    now = datetime.datetime.now(zoneinfo.ZoneInfo(ZONE))
    for back in range(28, 0, -3):
        at = now - datetime.timedelta(days=back)
        household.call("Logging.LogWeight", {"entry": {"weightKg": round(74.2 - (28 - back) * 0.1, 1), "measuredAtMs": str(int(at.timestamp() * 1000))}}, token)
    for back, (kind, minutes, kcal) in enumerate([("cycling", 50, 480), ("yoga", 30, 120), ("running", 35, 390), ("strength", 45, 260)], start=2):
        at = now - datetime.timedelta(days=back)
        household.call("Logging.LogWorkout", {"workout": {"workoutType": kind, "durationSeconds": minutes * 60, "caloriesBurned": kcal, "performedAtMs": str(int(at.timestamp() * 1000))}}, token)
    for back in range(6, -1, -1):
        day = (now - datetime.timedelta(days=back)).date()
        household.call("Logging.ReportSteps", {"report": {"day": {"year": day.year, "month": day.month, "day": day.day}, "source": "phone",
                                                          "steps": 4000 + back * 1100, "reportedAtMs": str(int(now.timestamp() * 1000))}}, token)
        if back:
            at = now - datetime.timedelta(days=back)
            household.call("Logging.LogMeal", {"meal": {"mealType": "MEAL_TYPE_DINNER", "eatenAtMs": str(int(at.timestamp() * 1000)),
                                                        "items": [{"name": "Pasta", "calories": 900 + back * 60}, {"name": "Salad", "calories": 250}]}}, token)


def test_a_phone_sized_window_has_no_horizontal_scroll_on_any_screen(browser, artifacts):
    ensure_signed_in(browser)
    seed_a_month(browser.household)
    browser.driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True})
    try:
        assert browser.driver.execute_script("return window.innerWidth") == 390
        for screen in SCREENS:
            browser.go(screen)
            scroll, width = browser.driver.execute_script("return [document.documentElement.scrollWidth, window.innerWidth]")
            assert scroll <= width, f"{screen}: {scroll} px wide in a {width} px window"
            browser.shot(artifacts, screen)
    finally:
        browser.driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def test_measure_todays_first_draw(browser, artifacts):
    """A measurement, not a timed test: milliseconds from the navigation's start to the mark the
    page sets when Today is drawn with its data, over reloads of a signed-in tab."""
    ensure_signed_in(browser)
    browser.go("today")
    figures = []
    for _ in range(7):
        browser.driver.refresh()
        browser.wait(lambda: browser.driver.execute_script("return performance.getEntriesByName('today-drawn').length") == 1)
        figures.append(browser.driver.execute_script(
            "const [n] = performance.getEntriesByType('navigation');"
            "return {drawn: performance.getEntriesByName('today-drawn')[0].startTime, domContentLoaded: n.domContentLoadedEventEnd, load: n.loadEventEnd}"))
    drawn = [f["drawn"] for f in figures[1:]]
    report = {"runs": figures, "median_ms": statistics.median(drawn), "max_ms": max(drawn)}
    with open(os.path.join(artifacts, "today-first-draw.json"), "w") as f:
        json.dump(report, f, indent=2)
    print(f"\nToday drawn {report['median_ms']:.0f} ms after navigation start (median of {len(drawn)}, max {report['max_ms']:.0f} ms)")
    assert drawn


def test_the_profile_is_edited_in_place(browser):
    ensure_signed_in(browser)
    browser.go("profile")
    form = browser.form("Profile")
    browser.fill(form, "displayName", "Olga O.")
    browser.fill(form, "heightCm", "168")
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.status_of(form, "Profile saved.")
    assert browser.driver.find_element(By.ID, "who").text == "Olga O."
    browser.go("profile")
    assert browser.form("Profile").find_element(By.NAME, "heightCm").get_attribute("value") == "168"


def test_a_device_token_is_made_shown_once_used_and_revoked(browser):
    ensure_signed_in(browser)
    browser.go("profile")
    form = browser.form("New device token")
    browser.fill(form, "name", "Home Assistant")
    form.find_element(By.ID, "scope-TOKEN_SCOPE_READ").click()
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()
    browser.wait(lambda: form.find_elements(By.CSS_SELECTOR, ".token-value"), message="the new token was not shown")
    token = form.find_element(By.CSS_SELECTOR, ".token-value").get_attribute("value")
    assert len(token) >= 43
    listed = browser.driver.find_element(By.CSS_SELECTOR, "ul.tokens")
    browser.wait(lambda: "Home Assistant" in listed.text and "Read" in listed.text, message=f"not listed: {listed.text}")
    # The token reads, and may not log.
    assert browser.household.call("Profile.GetProfile", {}, token)["profile"]["email"] == "olga@example.com"
    try:
        browser.household.call("Logging.LogWeight", {"entry": {"weightKg": 70, "measuredAtMs": "1764100000000"}}, token)
        assert False, "a read token logged a weigh-in"
    except urllib.error.HTTPError as error:
        assert error.code == 403
    listed.find_element(By.CSS_SELECTOR, "button[aria-label='Revoke Home Assistant']").click()
    browser.wait(lambda: "Home Assistant" not in listed.text, message="the revoked token is still listed")
    try:
        browser.household.call("Profile.GetProfile", {}, token)
        assert False, "a revoked token still reads"
    except urllib.error.HTTPError as error:
        assert error.code == 401


def test_after_the_server_restarts_watch_reconnects_and_catches_up(browser):
    ensure_signed_in(browser)
    browser.go("weight")
    chart = lambda: browser.driver.find_element(By.CSS_SELECTOR, "svg.chart")
    points_before = int(chart().get_attribute("data-points"))
    browser.driver.execute_script("window.sameDocument = true")
    browser.wait(lambda: browser.driver.find_element(By.ID, "live").text == "Live", message="Watch not live")
    household = browser.household
    household.stop()
    browser.wait(lambda: browser.driver.find_element(By.ID, "live").text == "Reconnecting…", message="the stream's end was not seen")
    household.start()
    # Logged while the page may still be waiting to reconnect: it arrives through sinceRevision.
    token = household.call("Auth.Login", {"email": "olga@example.com", "password": PASSWORD})["sessionToken"]
    household.call("Logging.LogWeight", {"entry": {"weightKg": 70.9, "measuredAtMs": str(int(datetime.datetime.now().timestamp() * 1000))}}, token)
    browser.wait(lambda: int(chart().get_attribute("data-points")) == points_before + 1, timeout=30, message="the weigh-in did not arrive")
    assert browser.driver.find_element(By.ID, "live").text == "Live"
    assert browser.driver.execute_script("return window.sameDocument") is True


FILES_ONLY = (
    "return performance.getEntriesByType('navigation').concat(performance.getEntriesByType('resource'))"
    ".filter(e => e.name.startsWith(location.origin) && !e.name.includes('/workout.v1.'))"
    ".map(e => ({name: e.name.slice(location.origin.length), transfer: e.transferSize,"
    " encoded: e.encodedBodySize, decoded: e.decodedBodySize}))"
)


def test_the_pages_files_come_in_gzip_and_a_reload_only_revalidates_them(browser, artifacts):
    """The page's own files on the wire, as Chromium's Resource Timing counts them: a cold load
    (the cache cleared) gets each file of more than a kilobyte in gzip; a reload asks again by
    ETag and gets 304s without bodies. Also a measurement: the bytes of both, in artifacts."""
    ensure_signed_in(browser)
    browser.go("today")
    driver = browser.driver
    driver.execute_cdp_cmd("Network.enable", {})
    driver.execute_cdp_cmd("Network.clearBrowserCache", {})
    loads = {}
    for load in ("cold", "warm"):
        driver.refresh()
        browser.wait(lambda: driver.execute_script("return performance.getEntriesByName('today-drawn').length") == 1)
        loads[load] = driver.execute_script(FILES_ONLY)
    cold, warm = loads["cold"], loads["warm"]
    assert len(cold) >= 3 and {f["name"] for f in warm} == {f["name"] for f in cold}, loads
    for file in cold:
        if file["decoded"] > 1024:
            assert file["encoded"] < file["decoded"] * 0.6, f"{file['name']} came without compression: {file}"
    for file in warm:
        # A 304 carries headers only: no body crosses the wire again.
        assert file["transfer"] < 1000, f"{file['name']} was downloaded again: {file}"
    report = {
        "cold_transfer_bytes": sum(f["transfer"] for f in cold),
        "cold_decoded_bytes": sum(f["decoded"] for f in cold),
        "warm_transfer_bytes": sum(f["transfer"] for f in warm),
        "files": loads,
    }
    with open(os.path.join(artifacts, "page-weight.json"), "w") as f:
        json.dump(report, f, indent=2)
    print(f"\nThe page's files: {report['cold_transfer_bytes']} bytes cold ({report['cold_decoded_bytes']} inflated), "
          f"{report['warm_transfer_bytes']} bytes on a reload")


def test_history_pages_through_twelve_workouts_once_and_a_new_member_sees_the_empty_text(household, artifacts):
    """History's "Show older" hides after the last page (a button rule used to beat the
    hidden attribute), pressing it then asks for nothing (it used to append page 1 again: 12
    workouts became 36 cards), and a member without workouts reads that they have none."""
    from conftest import Page, _browser

    owner = household.call("Auth.Login", {"email": "olga@example.com", "password": PASSWORD})["sessionToken"]
    page = Page(_browser(), household)
    try:
        for key in ("hana", "ines"):
            code = household.call("Admin.CreateInvite", {"role": "ROLE_MEMBER"}, owner)["code"]
            email = f"{key}@example.com"
            household.call("Auth.Register", {"inviteCode": code, "password": PASSWORD, "deviceName": "test",
                                             "profile": {"email": email, "firstName": key.title(), "timeZone": ZONE}})
            household.members[key] = {"email": email, "name": key.title()}
        hana = household.call("Auth.Login", {"email": "hana@example.com", "password": PASSWORD})["sessionToken"]
        now = int(datetime.datetime.now().timestamp() * 1000)
        for index in range(12):
            household.call("Logging.LogWorkout", {"workout": {
                "workoutType": "running", "durationSeconds": 1800, "caloriesBurned": 300,
                "performedAtMs": str(now - (index + 1) * 86_400_000)}}, hana)

        def history_shows():
            cards = page.driver.find_elements(By.CSS_SELECTOR, "section[aria-label='Workouts, newest first'] li")
            more = page.driver.find_element(By.XPATH, "//button[normalize-space()='Show older']")
            empty = page.driver.find_element(By.CSS_SELECTOR, "section[aria-label='Workouts, newest first'] p.empty")
            return len(cards), more.is_displayed(), empty.is_displayed()

        page.open()
        before = page.sign_in("hana")
        page.wait(lambda: page.drawn() > before and page.screen() == "today", message="Hana was not signed in")
        page.go("history")
        assert history_shows() == (10, True, False)
        page.driver.find_element(By.XPATH, "//button[normalize-space()='Show older']").click()
        page.wait(lambda: history_shows()[0] == 12, message=f"the second page did not come: {history_shows()}")
        page.settle()
        assert history_shows() == (12, False, False)
        # Pressed anyway (a script can), it asks for nothing: no page comes twice.
        page.driver.execute_script("document.evaluate(\"//button[normalize-space()='Show older']\", document, null, 9, null).singleNodeValue.click()")
        page.settle()
        assert history_shows() == (12, False, False)
        page.shot(artifacts, "history-twelve")

        page.driver.execute_script("sessionStorage.clear(); localStorage.clear()")
        page.open()
        before = page.sign_in("ines")
        page.wait(lambda: page.drawn() > before and page.screen() == "today", message="Ines was not signed in")
        page.go("history")
        assert history_shows() == (0, False, True)
        page.shot(artifacts, "history-empty")
    finally:
        page.driver.quit()


def test_the_header_says_not_connected_while_calls_fail_and_nothing_once_signed_out(browser):
    """The header said "● Live" while every call failed, and kept its green dot on the sign-in
    page after the session ended."""
    ensure_signed_in(browser)
    browser.go("today")
    live = lambda: browser.driver.find_element(By.ID, "live")
    dot = lambda: browser.driver.execute_script("return getComputedStyle(document.getElementById('live'), '::before').content")
    browser.wait(lambda: live().text == "Live", message="Watch not live")
    household = browser.household
    household.stop()
    try:
        browser.driver.execute_script("location.hash = '#week'")
        browser.wait(lambda: live().text == "Not connected", message=f"the header says {live().text!r} while calls fail")
        assert live().get_attribute("data-state") == "offline"
    finally:
        household.start()
    browser.go("today")
    browser.wait(lambda: live().text == "Live", timeout=30, message=f"the header says {live().text!r} with the server back")

    # The session ends elsewhere (signed out from another device): the sign-in page says nothing
    # of a connection, and shows no dot.
    token = browser.driver.execute_script("return sessionStorage.getItem('workout.token')")
    household.call("Auth.Logout", {}, token)
    browser.driver.execute_script("location.hash = '#week'")
    browser.wait(lambda: browser.driver.find_elements(By.CSS_SELECTOR, "form.sign-in"), message="the sign-in page did not come")
    assert live().text == "" and live().get_attribute("data-state") is None
    assert dot() in ("none", "normal"), dot()
