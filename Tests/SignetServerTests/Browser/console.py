#!/usr/bin/env python3
"""The console in headless Chromium over WebDriver, as an operator uses it.

Opens SIGNET_START_URL (the admin listener's /console), signs in on the issuer's sign-in page it
leads to (SIGNET_EMAIL, SIGNET_PASSWORD), opens the app form, types a bad redirect URI and reads
the script's verdict, fixes it, registers a native app (SIGNET_APP_SCHEME:/oauth/callback) and
reads its quick start, registers a web app and reads its secret (shown once), opens the web app
again, and visits every console page. With SIGNET_SCREENSHOTS (a folder) it saves each page at
390 px (phone) and 1280 px (desktop), the whole page height each, as console-NAME-phone.png and
console-NAME-desktop.png. Prints one JSON line with what it saw, or {"error": …}.
"""
import json
import os
import traceback

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)

from federated_signin import log  # the same SIGNET_TEST_LOG diagnostics


def full_page_shots(driver, name):
    folder = os.environ.get("SIGNET_SCREENSHOTS")
    if not folder:
        return
    for width, label in ((390, "phone"), (1280, "desktop")):
        driver.set_window_size(width, 900)
        height = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]["height"]
        driver.set_window_size(width, int(height) + 120)
        driver.save_screenshot(os.path.join(folder, "console-%s-%s.png" % (name, label)))
    driver.set_window_size(1280, 900)


def sign_in(driver, wait, result):
    """Opens SIGNET_START_URL, signs in on the issuer's page it leads to (SIGNET_EMAIL,
    SIGNET_PASSWORD) and waits for the dashboard; notes signInURL and consoleURL in `result`."""
    driver.get(os.environ["SIGNET_START_URL"])
    wait.until(expected_conditions.presence_of_element_located((By.NAME, "password")))
    result["signInURL"] = driver.current_url.split("?")[0]
    driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_EMAIL"])
    driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_PASSWORD"])
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    wait.until(expected_conditions.presence_of_element_located((By.ID, "sign-ins-today")))
    result["consoleURL"] = driver.current_url


def main():
    driver = chromium_driver.start(window="1280,900")
    wait = chromium_driver.wait(driver, 20)
    result = {}
    base = os.environ["SIGNET_START_URL"].rsplit("/console", 1)[0]
    try:
        sign_in(driver, wait, result)
        full_page_shots(driver, "dashboard")

        driver.get(base + "/console/apps/new")
        area = wait.until(expected_conditions.presence_of_element_located((By.ID, "redirect-uris")))
        area.send_keys("http://localhost/callback")
        wait.until(lambda d: d.find_element(By.ID, "redirect-status").text != "")
        result["badVerdict"] = driver.find_element(By.ID, "redirect-status").text
        result["badInvalid"] = area.get_attribute("aria-invalid")
        full_page_shots(driver, "app-form")
        area.clear()
        scheme = os.environ["SIGNET_APP_SCHEME"]
        area.send_keys(scheme + ":/oauth/callback")
        wait.until(lambda d: d.find_element(By.ID, "redirect-status").get_attribute("class").endswith("good"))
        result["goodVerdict"] = driver.find_element(By.ID, "redirect-status").text
        driver.find_element(By.ID, "name").send_keys("Notes")
        driver.find_element(By.CSS_SELECTOR, "#app-form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "quick-start")))
        result["nativeClientID"] = driver.find_element(By.ID, "app-client-id").text
        result["nativeQuickStart"] = driver.find_element(By.ID, "quick-start").text
        result["nativeSecretShown"] = len(driver.find_elements(By.ID, "client-secret")) > 0
        full_page_shots(driver, "app-native")

        driver.get(base + "/console/apps/new?type=web")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "redirect-uris")))
        # The rules beside the field follow the type picked.
        def rules_shown():
            return [r.get_attribute("data-rules") for r in driver.find_elements(By.CSS_SELECTOR, "[data-rules]") if r.is_displayed()]
        result["rulesForWeb"] = rules_shown()
        driver.find_element(By.CSS_SELECTOR, "input[name=type][value=native]").click()
        result["rulesAfterNative"] = rules_shown()
        driver.find_element(By.CSS_SELECTOR, "input[name=type][value=web]").click()
        driver.find_element(By.ID, "name").send_keys("Shop")
        driver.find_element(By.ID, "client-id").send_keys("shop")
        driver.find_element(By.ID, "redirect-uris").send_keys("https://shop.example.com/callback")
        driver.find_element(By.CSS_SELECTOR, "#app-form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "client-secret")))
        result["webSecret"] = driver.find_element(By.ID, "client-secret").text
        full_page_shots(driver, "app-secret")
        driver.get(base + "/console/apps/shop")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "quick-start")))
        result["webSecretShownAgain"] = result["webSecret"] in driver.page_source
        # The stored type (web) drives the check of the edit form: a private-use scheme is refused as typed.
        result["rulesOnWebPage"] = rules_shown()
        driver.find_element(By.ID, "redirect-uris").send_keys("\ncom.example.shop:/cb")
        wait.until(lambda d: d.find_element(By.ID, "redirect-status").get_attribute("class").endswith("bad"))
        result["webPageVerdict"] = driver.find_element(By.ID, "redirect-status").text

        for name, path, marker in (("apps", "/console/apps", "table"), ("users", "/console/users", "q"),
                                   ("connections", "/console/connections", "h1"), ("keys", "/console/keys", "rotate"),
                                   ("audit", "/console/audit", "event")):
            driver.get(base + path)
            wait.until(expected_conditions.presence_of_element_located(
                (By.TAG_NAME, marker) if marker in ("table", "h1") else (By.ID, marker)))
            full_page_shots(driver, name)
        driver.get(base + "/console/users")
        driver.find_element(By.CSS_SELECTOR, "table a").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "sessions")))
        full_page_shots(driver, "user")
        # Organizations: the list and one organization (the test made one with a member, an invitation and a domain).
        driver.get(base + "/console/orgs")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "new-org")))
        full_page_shots(driver, "orgs")
        driver.find_element(By.CSS_SELECTOR, "#orgs a").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "domains")))
        full_page_shots(driver, "orgs-detail")
        # Dark mode (prefers-color-scheme: dark), the dashboard and the app form at both widths.
        driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
        driver.get(base + "/console")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "sign-ins-today")))
        full_page_shots(driver, "dashboard-dark")
        driver.get(base + "/console/apps/new")
        wait.until(expected_conditions.presence_of_element_located((By.ID, "redirect-uris"))).send_keys("myapp:/cb")
        wait.until(lambda d: d.find_element(By.ID, "redirect-status").text != "")
        full_page_shots(driver, "app-form-dark")
        result["consoleErrors"] = [entry["message"] for entry in driver.get_log("browser") if entry.get("level") == "SEVERE"]
    except Exception as error:  # the test reads the error and the log
        log("console: " + traceback.format_exc())
        result["error"] = repr(error)
        result["url"] = driver.current_url
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
