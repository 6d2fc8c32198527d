#!/usr/bin/env python3
"""Headless Chromium through Signet's organization page (called by OrganizationPickerBrowserTests).

`organization_picker.py AUTHORIZE_URL REDIRECT_BASE ORGANIZATION_ID`, with SIGNET_TEST_EMAIL and
SIGNET_TEST_PASSWORD in the environment: signs in with the password, lands on the organization
page (the user is in several organizations), saves it at 390x844 and 1280x800 when
SIGNET_SCREENSHOTS is set, presses the button of ORGANIZATION_ID and waits for the client's
redirect. Prints one JSON line: {"redirect": …, "choices": […]}.
"""
import json
import os
import sys
import traceback

from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)


def main():
    url, redirect_base, organization = sys.argv[1], sys.argv[2], sys.argv[3]
    driver = chromium_driver.start()
    try:
        driver.get(url)
        chromium_driver.wait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "password")))
        driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_TEST_EMAIL"])
        driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_TEST_PASSWORD"])
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        chromium_driver.wait(driver, 20).until(expected_conditions.presence_of_element_located((By.CSS_SELECTOR, "button.choice")))
        assert "/signin/organization" in driver.current_url, driver.current_url
        choices = [button.get_attribute("value") for button in driver.find_elements(By.CSS_SELECTOR, "button.choice")]
        chromium_driver.screenshots(driver, "organization-picker")
        # The client's redirect URI has no listener: Chromium's navigation may fail with
        # ERR_CONNECTION_REFUSED; the URL it tried is what counts.
        try:
            driver.find_element(By.CSS_SELECTOR, "button.choice[value='%s']" % organization).click()
        except WebDriverException as error:
            if "ERR_CONNECTION_REFUSED" not in str(error):
                raise
        chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(redirect_base))
        print(json.dumps({"redirect": driver.current_url, "choices": choices}))
    except Exception:
        traceback.print_exc()
        sys.exit(1)
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
