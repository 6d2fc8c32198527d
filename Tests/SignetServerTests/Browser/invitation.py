#!/usr/bin/env python3
"""An organization invitation taken from real mail to a new membership in headless Chromium.

Reads the sink's first message (SIGNET_MAIL_DIR, `1.eml`), opens its "Accept the invitation"
link, checks that the address is the invited one and fixed, types SIGNET_PASSWORD and SIGNET_NAME
into the sign-up through the invitation, and creates the account. With SIGNET_SCREENSHOTS (a
folder) the invitation page and the welcome page are saved at 390 px and at 1280 px, each at the
page's whole height (invitation-*.png, invitation-accepted-*.png). Prints one JSON line: what
each step saw, or {"error": …}.
"""
import json
import os
import traceback

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)

from account_journey import mail  # the sink reader
from federated_signin import log  # the same SIGNET_TEST_LOG diagnostics


def shoot(driver, name):
    """NAME-phone.png at 390 px and NAME-desktop.png at 1280 px into $SIGNET_SCREENSHOTS, each
    tall enough for the whole page (its scroll height, which includes the form's last button)."""
    folder = os.environ.get("SIGNET_SCREENSHOTS")
    if not folder:
        return
    for suffix, width, least in (("phone", 390, 844), ("desktop", 1280, 900)):
        driver.set_window_size(width, least)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        # The window's own frame takes part of its height: add it back.
        frame = driver.execute_script("return window.outerHeight - window.innerHeight")
        driver.set_window_size(width, max(least, int(height) + int(frame) + 24))
        driver.save_screenshot(os.path.join(folder, "%s-%s.png" % (name, suffix)))
    driver.set_window_size(1280, 900)


def main():
    driver = chromium_driver.start(window="1280,900")
    wait = chromium_driver.wait(driver, 20)
    result = {}
    try:
        to, subject, text = mail(1)
        result["to"], result["subject"] = to, subject
        link = next(line.split(": ", 1)[1].strip() for line in text.splitlines() if line.startswith("Accept the invitation: "))
        driver.get(link)
        wait.until(expected_conditions.presence_of_element_located((By.NAME, "password")))
        result["title"] = driver.title
        fixed = driver.find_element(By.ID, "email")
        result["address"] = fixed.get_attribute("value")
        result["addressReadOnly"] = fixed.get_attribute("readonly") is not None
        result["scripts"] = len(driver.find_elements(By.TAG_NAME, "script"))
        # At 390 px nothing is wider than the window (no sideways scrolling).
        driver.set_window_size(390, 844)
        result["phoneOverflow"] = driver.execute_script(
            "return document.documentElement.scrollWidth - document.documentElement.clientWidth")
        driver.set_window_size(1280, 900)
        driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_PASSWORD"])
        driver.find_element(By.NAME, "name").send_keys(os.environ["SIGNET_NAME"])
        shoot(driver, "invitation")
        driver.find_element(By.XPATH, "//button[@value='signup']").click()
        wait.until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "[role=status]")))
        result["notice"] = driver.find_element(By.CSS_SELECTOR, "[role=status]").text
        result["acceptedTitle"] = driver.title
        shoot(driver, "invitation-accepted")
        # The way on: the account page, already signed in.
        driver.find_element(By.LINK_TEXT, "Go to your account").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "profile")))
        result["account"] = driver.current_url
    except Exception as error:  # reported as JSON so the Swift test shows it
        log(traceback.format_exc())
        result["error"] = "%s: %s" % (type(error).__name__, error)
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
