#!/usr/bin/env python3
"""A new user in a real browser (headless Chromium over WebDriver), reading real mail.

Sign-up from the sign-in page's "Create account" link, the mailed code, then a password sign-in,
then "Forgot password?" with the mailed link opened and a new password chosen. Mail is read from
the test's SMTP sink folder (`<n>.eml`, written by scripts/testing/mail_sink.py) with Python's own
`email` package. Settings come from the environment: SIGNET_START_URLS (three authorization URLs,
space separated), SIGNET_REDIRECT_PREFIX, SIGNET_MAIL_DIR, SIGNET_EMAIL, SIGNET_PASSWORD,
SIGNET_NEW_PASSWORD, SIGNET_TEST_LOG, SIGNET_TOKEN_URL, SIGNET_REDIRECT_URI, SIGNET_CODE_VERIFIERS
(the app's part: each code is redeemed as soon as it arrives), SIGNET_SCREENSHOTS (a folder: each
page at 390x844 and 1280x800). Prints one JSON line: the redirects and token responses, or the error.
"""
import email
import email.policy
import json
import os
import re
import time
import traceback
import urllib.error
import urllib.parse
import urllib.request

from selenium.webdriver.common.by import By

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)


def log(message):
    path = os.environ.get("SIGNET_TEST_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(message + "\n")


def shoot(driver, name):
    chromium_driver.screenshots(driver, name)


def mail(number):
    """The text part of the sink's message `number`, waiting (bounded) for it to arrive."""
    folder = os.environ["SIGNET_MAIL_DIR"]
    meta = os.path.join(folder, "%d.json" % number)
    deadline = time.monotonic() + 30
    while not os.path.exists(meta):
        if time.monotonic() > deadline:
            raise RuntimeError("mail %d did not arrive" % number)
        time.sleep(0.1)
    with open(os.path.join(folder, "%d.eml" % number), "rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    return message.get_body(preferencelist=("plain",)).get_content()


def redeem(redirect, verifier):
    """Redeems the code of `redirect` at the token endpoint as the app would; returns the JSON."""
    code = urllib.parse.parse_qs(urllib.parse.urlparse(redirect).query)["code"][0]
    body = urllib.parse.urlencode({"grant_type": "authorization_code", "code": code, "client_id": "native",
                                   "redirect_uri": os.environ["SIGNET_REDIRECT_URI"], "code_verifier": verifier}).encode()
    try:
        with urllib.request.urlopen(urllib.request.Request(os.environ["SIGNET_TOKEN_URL"], data=body), timeout=10) as response:
            return {"status": response.status, "body": json.loads(response.read())}
    except urllib.error.HTTPError as error:
        return {"status": error.code, "body": json.loads(error.read() or b"{}")}


def main():
    starts = os.environ["SIGNET_START_URLS"].split()
    prefix = os.environ["SIGNET_REDIRECT_PREFIX"]
    address, password, new_password = os.environ["SIGNET_EMAIL"], os.environ["SIGNET_PASSWORD"], os.environ["SIGNET_NEW_PASSWORD"]
    driver = chromium_driver.start()
    wait = chromium_driver.wait(driver, 20)
    verifiers = os.environ["SIGNET_CODE_VERIFIERS"].split()
    result = {"redirects": [], "tokens": []}
    try:
        # 1. Sign up from the sign-in page.
        driver.get(starts[0])
        wait.until(lambda d: d.find_elements(By.LINK_TEXT, "Create account"))
        shoot(driver, "accounts-sign-in")
        driver.find_element(By.LINK_TEXT, "Create account").click()
        wait.until(lambda d: d.find_elements(By.NAME, "name"))
        driver.find_element(By.NAME, "email").send_keys(address)
        driver.find_element(By.NAME, "password").send_keys(password)
        driver.find_element(By.NAME, "name").send_keys("New Person")
        driver.find_element(By.XPATH, "//button[@value='show']").click()
        wait.until(lambda d: d.find_elements(By.XPATH, "//input[@name='password' and @type='text']"))
        shoot(driver, "accounts-sign-up")
        driver.find_element(By.XPATH, "//button[@value='create']").click()
        wait.until(lambda d: d.find_elements(By.NAME, "code"))
        shoot(driver, "accounts-code")
        code = re.search(r"^    (\d{6})$", mail(1), re.M).group(1)
        driver.find_element(By.NAME, "code").send_keys(code)
        driver.find_element(By.XPATH, "//button[@value='submit']").click()
        wait.until(lambda d: d.current_url.startswith(prefix))
        result["redirects"].append(driver.current_url)
        result["tokens"].append(redeem(driver.current_url, verifiers[0]))

        # 2. Sign in with the new password.
        driver.get(starts[1])
        wait.until(lambda d: d.find_elements(By.NAME, "password"))
        driver.find_element(By.NAME, "email").send_keys(address)
        driver.find_element(By.NAME, "password").send_keys(password)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(lambda d: d.current_url.startswith(prefix))
        result["redirects"].append(driver.current_url)
        result["tokens"].append(redeem(driver.current_url, verifiers[1]))

        # 3. Forgot password: the mailed link, a new password.
        driver.get(starts[2])
        wait.until(lambda d: d.find_elements(By.LINK_TEXT, "Forgot password?"))
        driver.find_element(By.LINK_TEXT, "Forgot password?").click()
        wait.until(lambda d: d.find_elements(By.NAME, "email"))
        shoot(driver, "accounts-forgot")
        driver.find_element(By.NAME, "email").send_keys(address)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(lambda d: d.find_elements(By.NAME, "code"))
        link = re.search(r"^Choose a new password: (\S+)$", mail(2), re.M).group(1)
        driver.get(link)
        wait.until(lambda d: d.find_elements(By.NAME, "password"))
        shoot(driver, "accounts-reset")
        driver.find_element(By.NAME, "password").send_keys(new_password)
        driver.find_element(By.XPATH, "//button[@value='submit']").click()
        wait.until(lambda d: "Your password is changed" in d.page_source)
        shoot(driver, "accounts-reset-done")
        result["resetDone"] = True
    except Exception:
        log("failed at " + driver.current_url + " (" + driver.title + ")\n" + traceback.format_exc())
        log("page: " + driver.page_source[:3000])
        result["error"] = traceback.format_exc().splitlines()[-1]
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
