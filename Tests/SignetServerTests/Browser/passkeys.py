#!/usr/bin/env python3
"""Passkeys in a real browser: headless Chromium over WebDriver with its virtual authenticator
(CTAP2, internal transport, resident keys, user verification), against Signet on
http://localhost:PORT (a secure context whose RP ID is "localhost").

Steps, each from one of the authorization URLs in SIGNET_AUTHORIZE_URLS (a JSON array):
 1. password sign-in; the offer page (the script reported a platform authenticator) adds a passkey;
 2. a new browser session signs in with "Sign in with a passkey";
 3. a new browser session waits for conditional UI (the email field's autofill) to sign in;
 4. /account/passkeys: rename the passkey, then remove it;
 5. a second virtual authenticator holding a passkey Signet never registered is refused.
Prints one JSON object: the codes of steps 1-3, what each page showed, and the credential counts.

Environment: SIGNET_AUTHORIZE_URLS, SIGNET_ISSUER, SIGNET_REDIRECT_PREFIX, SIGNET_EMAIL,
SIGNET_PASSWORD, SIGNET_TEST_LOG (optional), SIGNET_SCREENSHOTS (optional: a folder for PNGs).
"""
import json
import os
import re
import sys
import traceback
import urllib.parse

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec
from selenium.webdriver.common.by import By
from selenium.webdriver.common.virtual_authenticator import Credential, Protocol, Transport, VirtualAuthenticatorOptions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)


def log(message):
    path = os.environ.get("SIGNET_TEST_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(message + "\n")


def authenticator_options():
    options = VirtualAuthenticatorOptions()
    options.protocol = Protocol.CTAP2
    options.transport = Transport.INTERNAL
    options.has_resident_key = True
    options.has_user_verification = True
    options.is_user_verified = True
    options.is_user_consenting = True
    return options


def screenshot(driver, name):
    chromium_driver.screenshots(driver, "passkeys-" + name)


def code_of(url):
    return urllib.parse.parse_qs(urllib.parse.urlsplit(url).query).get("code", [None])[0]


def fresh_session(driver, url):
    """Leaves the app's callback (nothing listens there: an error page), forgets every cookie of
    every site (WebDriver's delete_all_cookies only clears the current page's), opens `url`."""
    try:
        driver.get("about:blank")
    except Exception:
        driver.get("about:blank")
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get(url)


def conditional_ui(driver, enabled, state={}):
    """Chromium's virtual authenticator completes a conditional request by itself as soon as the
    page starts one; to test the button alone, the page is told conditional mediation is not
    available (a script injected before the page's own, which the page's CSP does not govern)."""
    if enabled and "id" in state:
        driver.execute_cdp_cmd("Page.removeScriptToEvaluateOnNewDocument", {"identifier": state.pop("id")})
    elif not enabled and "id" not in state:
        added = driver.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {
            "source": "PublicKeyCredential.isConditionalMediationAvailable = () => Promise.resolve(false);"})
        state["id"] = added["identifier"]


def wait_for_button(driver):
    chromium_driver.wait(driver, 20).until(lambda d: d.find_elements(By.ID, "passkey-button")
                                    and d.find_element(By.ID, "passkey-button").is_displayed())


def main():
    urls = json.loads(os.environ["SIGNET_AUTHORIZE_URLS"])
    issuer = os.environ["SIGNET_ISSUER"]
    prefix = os.environ["SIGNET_REDIRECT_PREFIX"]
    result = {"step": 0}
    driver = chromium_driver.start(extra=("--host-resolver-rules=MAP localhost 127.0.0.1",))
    driver.set_script_timeout(20)
    try:
        # 1. Password sign-in, then the offer.
        result["step"] = 1
        conditional_ui(driver, False)
        driver.get(urls[0])
        first = driver.add_virtual_authenticator(authenticator_options())
        driver.refresh()
        wait_for_button(driver)
        result["platformAuthenticator"] = driver.execute_async_script(
            "const done = arguments[0]; PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().then(done, () => done(false));")
        screenshot(driver, "signin")
        chromium_driver.wait(driver, 10).until(lambda d: d.find_elements(By.NAME, "passkey_capable") or not result["platformAuthenticator"])
        driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_EMAIL"])
        driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_PASSWORD"])
        driver.find_element(By.CSS_SELECTOR, "form[action='/signin'] button[type=submit]").click()
        chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(prefix) or "/passkeys/offer" in d.current_url)
        result["offerShown"] = "/passkeys/offer" in driver.current_url
        if result["offerShown"]:
            wait_for_button(driver)
            screenshot(driver, "offer")
            driver.find_element(By.ID, "passkey-button").click()
            chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(prefix))
        result["passwordCode"] = code_of(driver.current_url)
        result["credentialsAfterRegistration"] = len(driver.get_credentials())

        # 2. "Sign in with a passkey" in a new browser session.
        result["step"] = 2
        conditional_ui(driver, False)
        fresh_session(driver, urls[1])
        wait_for_button(driver)
        driver.find_element(By.ID, "passkey-button").click()
        chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(prefix))
        result["passkeyCode"] = code_of(driver.current_url)

        # 3. Conditional UI: the page starts a conditional request on load.
        result["step"] = 3
        conditional_ui(driver, True)
        fresh_session(driver, urls[2])
        try:
            result["conditionalAvailable"] = driver.execute_async_script(
                "const done = arguments[0]; PublicKeyCredential.isConditionalMediationAvailable().then(done, () => done(false));")
        except Exception:
            result["conditionalAvailable"] = "the page had already signed in"
        try:
            chromium_driver.wait(driver, 15).until(lambda d: d.current_url.startswith(prefix))
            result["conditionalCode"] = code_of(driver.current_url)
        except Exception:
            result["conditionalCode"] = None
            result["conditionalPage"] = driver.current_url.split("?")[0]

        # 4. /account/passkeys: signed in again with the button, rename, remove.
        result["step"] = 4
        conditional_ui(driver, False)
        fresh_session(driver, urls[3])
        wait_for_button(driver)
        driver.find_element(By.ID, "passkey-button").click()
        chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(prefix))
        try:
            driver.get("about:blank")
        except Exception:
            driver.get("about:blank")
        driver.get(issuer + "/account/passkeys")
        chromium_driver.wait(driver, 10).until(lambda d: d.find_elements(By.NAME, "name"))
        screenshot(driver, "account")
        field = driver.find_element(By.NAME, "name")
        field.clear()
        field.send_keys("Test laptop")
        driver.find_element(By.CSS_SELECTOR, "form[action='/account/passkeys/rename'] button").click()
        chromium_driver.wait(driver, 10).until(lambda d: "Test laptop" in d.find_element(By.TAG_NAME, "h2").text)
        result["renamed"] = driver.find_element(By.TAG_NAME, "h2").text
        driver.find_element(By.CSS_SELECTOR, "form[action='/account/passkeys/remove'] button").click()
        chromium_driver.wait(driver, 10).until(lambda d: "You have no passkeys yet." in d.page_source)
        result["removed"] = True

        # 5. Another authenticator, with a passkey for this RP ID that Signet never registered.
        result["step"] = 5
        driver.remove_virtual_authenticator()
        driver.add_virtual_authenticator(authenticator_options())
        key = ec.generate_private_key(ec.SECP256R1())
        pkcs8 = key.private_bytes(serialization.Encoding.DER, serialization.PrivateFormat.PKCS8, serialization.NoEncryption())
        driver.add_credential(Credential.create_resident_credential(os.urandom(16), "localhost", os.urandom(16), pkcs8, 0))
        fresh_session(driver, urls[4])
        wait_for_button(driver)
        driver.find_element(By.ID, "passkey-button").click()
        chromium_driver.wait(driver, 20).until(lambda d: "registered" in d.find_element(By.ID, "passkey-status").text)
        result["unregisteredStatus"] = driver.find_element(By.ID, "passkey-status").text
        result["unregisteredPage"] = driver.current_url.split("?")[0]
        result["step"] = "done"
        del first
    except Exception:
        log("failed at " + driver.current_url + " (" + driver.title + ")\n" + traceback.format_exc())
        try:
            log("console: " + json.dumps(driver.get_log("browser"))[:1500])
        except Exception:
            pass
        log("page: " + re.sub(r"\s+", " ", re.sub(r"<style>.*?</style>", "", driver.page_source, flags=re.S))[:1500])
        result["error"] = traceback.format_exc(limit=2)
    finally:
        driver.quit()
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
