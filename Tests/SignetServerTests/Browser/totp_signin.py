#!/usr/bin/env python3
"""Headless Chromium through Signet's second-factor pages (called by SecondFactorBrowserTests).

`totp_signin.py AUTHORIZE_URL REDIRECT_BASE OUT_DIR`, with SIGNET_TEST_EMAIL, SIGNET_TEST_PASSWORD
and SIGNET_TEST_TIME (the server's clock, Unix seconds) in the environment:
1. signs in with the password and lands on the setup page (mfa.required); saves the QR code as
   Chromium drew it (`qr.png`, an element screenshot) and the page at 390x844 and 1280x800;
2. computes the first code with pyotp from the key shown as text, submits it, saves the recovery
   codes page, presses Continue and waits for the client's redirect;
3. in a fresh browser session signs in again, saves the code page, types a recovery code and
   waits for the redirect.
Prints one JSON line: {"secret": …, "recovery_used": …}. SIGNET_SCREENSHOTS, when set, is where the
page screenshots go (docs/images); OUT_DIR gets qr.png.
"""
import json
import os
import sys
import traceback

import pyotp
from selenium.common.exceptions import WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)


def shots(driver, name):
    chromium_driver.screenshots(driver, name)


def sign_in(driver, url):
    driver.get(url)
    chromium_driver.wait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "password")))
    driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_TEST_EMAIL"])
    driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_TEST_PASSWORD"])
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    chromium_driver.wait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "code")))


def submit_to_client(driver, redirect_base):
    """Submits the page's form; the client's redirect URI has no listener, so Chromium's
    navigation may fail with ERR_CONNECTION_REFUSED: the URL it tried is what counts."""
    try:
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
    except WebDriverException as error:
        if "ERR_CONNECTION_REFUSED" not in str(error):
            raise
    chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(redirect_base))


def main():
    url, redirect_base, out = sys.argv[1], sys.argv[2], sys.argv[3]
    now = int(os.environ["SIGNET_TEST_TIME"])
    driver = chromium_driver.start()
    try:
        sign_in(driver, url)
        assert "/signin/second-factor/setup" in driver.current_url, driver.current_url
        shots(driver, "mfa-setup")
        driver.set_window_size(1280, 800)
        driver.find_element(By.CSS_SELECTOR, "div.qr").screenshot(os.path.join(out, "qr.png"))
        secret = driver.find_element(By.ID, "totp-secret").text.replace(" ", "")
        driver.find_element(By.NAME, "code").send_keys(pyotp.TOTP(secret).at(now))
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        chromium_driver.wait(driver, 20).until(expected_conditions.presence_of_element_located((By.ID, "recovery-codes")))
        codes = [element.text for element in driver.find_elements(By.CSS_SELECTOR, "#recovery-codes code")]
        shots(driver, "mfa-recovery-codes")
        submit_to_client(driver, redirect_base)

        # Cookies are deleted for the page's site: leave Chromium's error page for Signet's first.
        driver.get(url.split("/authorize")[0] + "/healthz")
        driver.delete_all_cookies()
        sign_in(driver, url)
        assert driver.current_url.split("?")[0].endswith("/signin/second-factor"), driver.current_url
        shots(driver, "mfa-code")
        driver.find_element(By.NAME, "code").send_keys(codes[0])
        submit_to_client(driver, redirect_base)
        print(json.dumps({"secret": secret, "recovery_used": codes[0], "codes": len(codes)}))
    except Exception:
        sys.stderr.write(traceback.format_exc())
        sys.stderr.write("page: " + driver.page_source[:3000] + "\n")
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
