#!/usr/bin/env python3
"""A real browser for a federated sign-in across sites: headless Chromium over WebDriver.

Signet serves https under a name of its own (mapped to 127.0.0.1 with --host-resolver-rules), the
upstream provider plain http on 127.0.0.1: two different sites, so an Apple-style form_post back to
Signet is a cross-site POST, with the browser's real SameSite rules. The script opens the app's
authorization URL, follows "Sign in with <connection>", lets the provider answer, gives the
existing account's password if Signet asks for it, and stops at the app's redirect URI. Then it
lists Signet's cookies and redeems the code at Signet's token endpoint (trusting only Signet's
self-signed certificate). It prints one JSON object.

Environment: SIGNET_START_URL, SIGNET_HOST_RULES, SIGNET_CONNECTION (display name),
SIGNET_REDIRECT_PREFIX, SIGNET_ISSUER, SIGNET_TOKEN_URL, SIGNET_CA_FILE, SIGNET_CLIENT_ID,
SIGNET_CODE_VERIFIER, SIGNET_REDIRECT_URI, SIGNET_PASSWORD (optional), SIGNET_TEST_LOG (optional),
SIGNET_UPSTREAM_ORIGIN, SIGNET_UPSTREAM_EMAIL and SIGNET_UPSTREAM_PASSWORD (optional: the upstream is
itself a Signet whose sign-in page asks for them).

Headless mode (SIGNET_HEADLESS_BODY set): the script plays the app instead of opening a sign-in
page. It POSTs the JSON body to SIGNET_HEADLESS_START_URL, then {requestId, connection:
SIGNET_HEADLESS_CONNECTION} to SIGNET_HEADLESS_PROVIDER_URL (both over https, trusting only Signet's
certificate), and opens the returned authorizationUrl in Chromium, as an app opens the system browser.
"""
import http.client
import json
import os
import re
import ssl
import sys
import traceback
import urllib.parse

from selenium.webdriver.common.by import By

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)


def log(message):
    path = os.environ.get("SIGNET_TEST_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(message + "\n")


def post(url, body, content_type):
    target = urllib.parse.urlsplit(url)
    if target.scheme == "https":
        context = ssl.create_default_context(cafile=os.environ["SIGNET_CA_FILE"])
        context.check_hostname = False  # the certificate names Signet's site; we connect to 127.0.0.1
        connection = http.client.HTTPSConnection(target.hostname, target.port, context=context, timeout=20)
    else:
        connection = http.client.HTTPConnection(target.hostname, target.port, timeout=20)
    connection.request("POST", target.path, body, {"Content-Type": content_type})
    response = connection.getresponse()
    return {"status": response.status, "body": json.loads(response.read().decode())}


def redeem(code):
    body = urllib.parse.urlencode({
        "grant_type": "authorization_code", "code": code, "client_id": os.environ["SIGNET_CLIENT_ID"],
        "redirect_uri": os.environ["SIGNET_REDIRECT_URI"], "code_verifier": os.environ["SIGNET_CODE_VERIFIER"]})
    return post(os.environ["SIGNET_TOKEN_URL"], body, "application/x-www-form-urlencoded")


def headless_authorization_url():
    started = post(os.environ["SIGNET_HEADLESS_START_URL"], os.environ["SIGNET_HEADLESS_BODY"], "application/json")
    if started["status"] != 200:
        raise RuntimeError("headless start: %s" % started)
    provider = post(os.environ["SIGNET_HEADLESS_PROVIDER_URL"], json.dumps({
        "requestId": started["body"]["requestId"], "connection": os.environ["SIGNET_HEADLESS_CONNECTION"]}), "application/json")
    if provider["status"] != 200:
        raise RuntimeError("headless provider start: %s" % provider)
    return provider["body"]["authorizationUrl"]


def main():
    prefix = os.environ["SIGNET_REDIRECT_PREFIX"]
    result = {"linkPage": False}
    driver = chromium_driver.start(extra=("--ignore-certificate-errors", "--host-resolver-rules=" + os.environ["SIGNET_HOST_RULES"]))
    try:
        if os.environ.get("SIGNET_HEADLESS_BODY"):
            url = headless_authorization_url()
            result["authorizationUrl"] = url.split("?")[0]
            driver.get(url)
        else:
            driver.get(os.environ["SIGNET_START_URL"])
            chromium_driver.wait(driver, 20).until(lambda d: d.find_elements(By.PARTIAL_LINK_TEXT, "Sign in with "))
            log("sign-in page: " + driver.title)
            driver.find_element(By.PARTIAL_LINK_TEXT, "Sign in with " + os.environ["SIGNET_CONNECTION"]).click()
        if os.environ.get("SIGNET_UPSTREAM_EMAIL"):
            # The upstream provider is another Signet: its own sign-in page.
            origin = os.environ["SIGNET_UPSTREAM_ORIGIN"]
            chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(origin) and d.find_elements(By.NAME, "email"))
            result["upstreamPage"] = driver.current_url.split("?")[0]
            driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_UPSTREAM_EMAIL"])
            driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_UPSTREAM_PASSWORD"])
            driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
        chromium_driver.wait(driver, 20).until(
            lambda d: d.current_url.startswith(prefix) or "/federation/link" in d.current_url or "Sign-in not completed" in d.title)
        if "/federation/link" in driver.current_url:
            result["linkPage"] = True
            log("link page: " + driver.title)
            driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_PASSWORD"])
            driver.find_element(By.CSS_SELECTOR, "form button[type=submit]").click()
            chromium_driver.wait(driver, 20).until(lambda d: d.current_url.startswith(prefix))
        result["finalURL"] = driver.current_url
        result["pageTitle"] = driver.title
        # Signet's cookies as the browser keeps them (name and attributes; values stay here).
        driver.get(os.environ["SIGNET_ISSUER"] + "/healthz")
        result["cookies"] = [{"name": c["name"], "secure": c.get("secure", False), "httpOnly": c.get("httpOnly", False),
                              "sameSite": c.get("sameSite", "")} for c in driver.get_cookies()]
    except Exception:
        log("failed at " + driver.current_url + " (" + driver.title + ")\n" + traceback.format_exc())
        try:
            log("console: " + json.dumps(driver.get_log("browser"))[:1500])
        except Exception:
            pass
        log("page: " + re.sub(r"\s+", " ", re.sub(r"<style>.*?</style>", "", driver.page_source, flags=re.S))[:1500])
        result["error"] = traceback.format_exc(limit=2)
        result["stoppedAt"] = driver.title
    finally:
        driver.quit()
    query = urllib.parse.parse_qs(urllib.parse.urlsplit(result.get("finalURL", "")).query)
    if "code" in query:
        result["token"] = redeem(query["code"][0])
    result["query"] = {name: values[0] for name, values in query.items() if name != "code"}
    print(json.dumps(result))


if __name__ == "__main__":
    sys.exit(main())
