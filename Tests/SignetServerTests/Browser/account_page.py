#!/usr/bin/env python3
"""The account page in headless Chromium over WebDriver, as a person uses it.

Opens SIGNET_START_URL (Signet's /account), signs in on the sign-in page it leads to
(SIGNET_EMAIL, SIGNET_PASSWORD), changes the name to SIGNET_NEW_NAME, ends the other session
listed, then deletes the account with the password. With SIGNET_SCREENSHOTS (a folder) it saves
the page at 390 px (phone) and 1280 px (desktop), the whole page height each. Prints one JSON
line: the notices seen, the title after deletion, or {"error": …}. SIGNET_TEST_LOG: diagnostics.
"""
import json
import os
import sys
import traceback

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)

from federated_signin import log  # the same SIGNET_TEST_LOG diagnostics


def full_page_shot(driver, width, path):
    driver.set_window_size(width, 900)
    height = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]["height"]
    driver.set_window_size(width, int(height) + 120)
    driver.save_screenshot(path)


def notice(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "[role=status], [role=alert]")
    return found[0].text if found else None


def submit(driver, action, fields=None):
    form = driver.find_element(By.CSS_SELECTOR, 'form[action="%s"]' % action)
    for name, value in (fields or {}).items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def main():
    driver = chromium_driver.start(window="1280,900")
    wait = chromium_driver.wait(driver, 20)
    result = {}
    try:
        driver.get(os.environ["SIGNET_START_URL"])
        wait.until(expected_conditions.presence_of_element_located((By.NAME, "password")))
        result["signInPath"] = driver.current_url.split("?")[0]
        driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_EMAIL"])
        driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_PASSWORD"])
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "delete")))
        result["accountPath"] = driver.current_url.split("?")[0]

        submit(driver, "/account/name", {"name": os.environ["SIGNET_NEW_NAME"]})
        wait.until(lambda d: "notice=name-saved" in d.current_url)
        result["nameNotice"] = notice(driver)

        shots = os.environ.get("SIGNET_SCREENSHOTS")
        if shots:
            full_page_shot(driver, 390, os.path.join(shots, "account-phone.png"))
            full_page_shot(driver, 1280, os.path.join(shots, "account-desktop.png"))
            driver.set_window_size(1280, 900)

        submit(driver, "/account/sessions/end")
        wait.until(lambda d: "notice=session-ended" in d.current_url)
        result["sessionNotice"] = notice(driver)
        result["sessionFormsLeft"] = len(driver.find_elements(By.CSS_SELECTOR, 'form[action="/account/sessions/end"]'))

        submit(driver, "/account/delete", {"password": os.environ["SIGNET_PASSWORD"]})
        wait.until(lambda d: "deleted" in d.title.lower())
        result["deletedTitle"] = driver.title
        result["sessionCookie"] = driver.get_cookie("signet_session") is not None
        if shots:
            driver.set_window_size(390, 844)
            driver.save_screenshot(os.path.join(shots, "account-deleted-phone.png"))
    except Exception:
        log(traceback.format_exc())
        log("page: " + driver.page_source[:3000])
        result["error"] = traceback.format_exc().splitlines()[-1]
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
