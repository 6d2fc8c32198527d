#!/usr/bin/env python3
"""A person's whole account life in headless Chromium over WebDriver, reading real mail.

From SIGNET_START_URL (Signet's /account) to the sign-in page it leads to, "Create account"
(SIGNET_EMAIL, SIGNET_PASSWORD), the mailed code (which signs in and returns to /account), then
with the cookies cleared a password sign-in, "Forgot password?" with the mailed link and a new
password SIGNET_NEW_PASSWORD (then a sign-in with it), the name changed to SIGNET_NAME, the email changed to
SIGNET_NEW_EMAIL with the code mailed there, the account deleted with the password, and last a
sign-in with the new address that must fail. Mail is read from the sink folder SIGNET_MAIL_DIR
(`<n>.eml`). With SIGNET_SCREENSHOTS (a folder) each step is saved at 390 px and at 1280 px,
each at the page's whole height. Prints one JSON line: what each step saw, or {"error": …}.
"""
import email
import email.policy
import json
import os
import re
import time
import traceback

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)

from federated_signin import log  # the same SIGNET_TEST_LOG diagnostics


def shoot(driver, name):
    """NAME-phone.png at 390 px and NAME-desktop.png at 1280 px, each the page's whole height,
    into $SIGNET_SCREENSHOTS."""
    folder = os.environ.get("SIGNET_SCREENSHOTS")
    if not folder:
        return
    for suffix, width, least in (("phone", 390, 844), ("desktop", 1280, 900)):
        driver.set_window_size(width, least)
        height = driver.execute_cdp_cmd("Page.getLayoutMetrics", {})["cssContentSize"]["height"]
        driver.set_window_size(width, max(least, int(height) + 40))
        driver.save_screenshot(os.path.join(folder, "%s-%s.png" % (name, suffix)))
    driver.set_window_size(1280, 900)


def mail(number):
    """(To, Subject, text) of the sink's message `number`, waiting (bounded) for it to arrive."""
    folder = os.environ["SIGNET_MAIL_DIR"]
    deadline = time.monotonic() + 30
    while not os.path.exists(os.path.join(folder, "%d.json" % number)):
        if time.monotonic() > deadline:
            raise RuntimeError("mail %d did not arrive" % number)
        time.sleep(0.1)
    with open(os.path.join(folder, "%d.eml" % number), "rb") as handle:
        message = email.message_from_binary_file(handle, policy=email.policy.default)
    return str(message["To"]), str(message["Subject"]), message.get_body(preferencelist=("plain",)).get_content()


def code_of(text):
    return re.search(r"^    (\d{6})$", text, re.M).group(1)


def notice(driver):
    found = driver.find_elements(By.CSS_SELECTOR, "[role=status], [role=alert]")
    return found[0].text if found else None


def submit(driver, action, fields):
    form = driver.find_element(By.CSS_SELECTOR, 'form[action="%s"]' % action)
    for name, value in fields.items():
        field = form.find_element(By.NAME, name)
        field.clear()
        field.send_keys(value)
    form.find_element(By.CSS_SELECTOR, "button[type=submit]").click()


def sign_in(driver, wait, address, password):
    wait.until(expected_conditions.presence_of_element_located((By.NAME, "password")))
    driver.find_element(By.NAME, "email").clear()
    driver.find_element(By.NAME, "email").send_keys(address)
    driver.find_element(By.NAME, "password").send_keys(password)
    driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()


def main():
    start = os.environ["SIGNET_START_URL"]
    address, new_address = os.environ["SIGNET_EMAIL"], os.environ["SIGNET_NEW_EMAIL"]
    password = os.environ["SIGNET_PASSWORD"]
    driver = chromium_driver.start(window="1280,900")
    wait = chromium_driver.wait(driver, 20)
    result = {"mails": []}
    try:
        # 1. Sign up from the sign-in page /account leads to.
        driver.get(start)
        wait.until(lambda d: d.find_elements(By.LINK_TEXT, "Create account"))
        driver.find_element(By.LINK_TEXT, "Create account").click()
        wait.until(expected_conditions.presence_of_element_located((By.NAME, "name")))
        driver.find_element(By.NAME, "email").send_keys(address)
        driver.find_element(By.NAME, "password").send_keys(password)
        shoot(driver, "journey-1-sign-up")
        driver.find_element(By.XPATH, "//button[@value='create']").click()

        # 2. The mailed code confirms the address, signs in and returns to /account.
        wait.until(expected_conditions.presence_of_element_located((By.NAME, "code")))
        shoot(driver, "journey-2-code")
        to, subject, text = mail(1)
        result["mails"].append({"to": to, "subject": subject})
        driver.find_element(By.NAME, "code").send_keys(code_of(text))
        driver.find_element(By.XPATH, "//button[@value='submit']").click()
        wait.until(expected_conditions.presence_of_element_located((By.ID, "delete")))
        result["afterVerify"] = driver.current_url

        # 3. A new visit (cookies cleared): the password signs in.
        driver.delete_all_cookies()
        driver.get(start)
        sign_in(driver, wait, address, password)
        wait.until(expected_conditions.presence_of_element_located((By.ID, "delete")))
        result["signedIn"] = driver.current_url

        # 3b. Forgot password (a new visit): the mailed link, a new password, then a sign-in with it.
        driver.delete_all_cookies()
        driver.get(start)
        wait.until(lambda d: d.find_elements(By.LINK_TEXT, "Forgot password?"))
        driver.find_element(By.LINK_TEXT, "Forgot password?").click()
        wait.until(lambda d: d.find_elements(By.NAME, "email"))
        driver.find_element(By.NAME, "email").send_keys(address)
        driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        wait.until(lambda d: d.find_elements(By.NAME, "code"))
        to, subject, text = mail(2)
        result["mails"].append({"to": to, "subject": subject})
        driver.get(re.search(r"^Choose a new password: (\S+)$", text, re.M).group(1))
        wait.until(lambda d: d.find_elements(By.NAME, "password"))
        shoot(driver, "journey-2b-reset")
        password = os.environ["SIGNET_NEW_PASSWORD"]
        driver.find_element(By.NAME, "password").send_keys(password)
        driver.find_element(By.XPATH, "//button[@value='submit']").click()
        wait.until(lambda d: "Your password is changed" in d.page_source)
        driver.delete_all_cookies()
        driver.get(start)
        sign_in(driver, wait, address, password)
        wait.until(expected_conditions.presence_of_element_located((By.ID, "delete")))
        result["signedInAfterReset"] = driver.current_url

        # 4. The name.
        submit(driver, "/account/name", {"name": os.environ["SIGNET_NAME"]})
        wait.until(lambda d: "notice=name-saved" in d.current_url)
        result["nameNotice"] = notice(driver)

        # 5. The email: the code goes to the new address; the old one is told.
        submit(driver, "/account/email", {"email": new_address, "password": password})
        wait.until(expected_conditions.presence_of_element_located((By.NAME, "code")))
        shoot(driver, "journey-3-email-code")
        to, subject, text = mail(3)
        result["mails"].append({"to": to, "subject": subject})
        driver.find_element(By.NAME, "code").send_keys(code_of(text))
        driver.find_element(By.XPATH, "//button[@value='submit']").click()
        wait.until(lambda d: "notice=email-changed" in d.current_url)
        result["emailNotice"] = notice(driver)
        result["shownAddress"] = driver.find_element(By.XPATH, "//p[starts-with(normalize-space(.), 'Signed in as')]/strong").text
        shoot(driver, "journey-4-account")
        to, subject, _ = mail(4)
        result["mails"].append({"to": to, "subject": subject})

        # 6. Delete the account with the password.
        submit(driver, "/account/delete", {"password": password})
        wait.until(lambda d: "deleted" in d.title.lower())
        result["deletedTitle"] = driver.title
        shoot(driver, "journey-5-deleted")

        # 7. Signing in with the new address fails now.
        driver.get(start)
        sign_in(driver, wait, new_address, password)
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "[role=alert], .error"))
        result["signInAfter"] = driver.find_element(By.CSS_SELECTOR, "[role=alert], .error").text
        result["signInAfterPath"] = driver.current_url.split("?")[0]
        # No passkey was tried: the autofill request the page started must not have put up a message.
        status = driver.find_elements(By.ID, "passkey-status")
        result["passkeyStatusShown"] = bool(status) and status[0].is_displayed()
        shoot(driver, "journey-6-sign-in-fails")
    except Exception:
        log("failed at " + driver.current_url + " (" + driver.title + ")\n" + traceback.format_exc())
        log("page: " + driver.page_source[:3000])
        result["error"] = traceback.format_exc().splitlines()[-1]
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
