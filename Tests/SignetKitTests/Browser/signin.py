#!/usr/bin/env python3
"""The "system browser" for `signet login` in tests: headless Chromium over WebDriver.

Called as `signin.py URL` (signet login's --browser-command). Opens the authorization URL, types
the user's email and password into Signet's sign-in page, submits, and waits for the loopback
listener's "you can close this window" page. Settings come from the environment:
SIGNET_TEST_EMAIL, SIGNET_TEST_PASSWORD (or SIGNET_TEST_CONNECTION: the name of a connection
whose "Sign in with ..." link to follow instead), SIGNET_TEST_LOG (a file for diagnostics),
SIGNET_SCREENSHOTS (a folder: screenshots of the sign-in page at 390x844 and 1280x800, light and dark, and
at 390x844 for a browser that prefers German).
"""
import os
import sys
import traceback

from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions
from selenium.webdriver.support.ui import WebDriverWait


def log(message):
    path = os.environ.get("SIGNET_TEST_LOG")
    if path:
        with open(path, "a") as handle:
            handle.write(message + "\n")


def main():
    url = sys.argv[1]
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1280,800",
                     "--password-store=basic"):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        driver.get(url)
        WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "password")))
        log("sign-in page: " + driver.title)
        # A branded logo, if any: its natural size shows it loaded (the page's CSP allowed it).
        logos = driver.find_elements(By.CSS_SELECTOR, "header.brand img")
        if logos:
            WebDriverWait(driver, 10).until(lambda d: d.execute_script("return arguments[0].complete", logos[0]))
            size = driver.execute_script("return arguments[0].naturalWidth + 'x' + arguments[0].naturalHeight", logos[0])
            log("logo: " + size)
        shots = os.environ.get("SIGNET_SCREENSHOTS")
        if shots:
            dark = [{"name": "prefers-color-scheme", "value": "dark"}]
            for width, height, name in ((390, 844, "phone"), (1280, 800, "desktop")):
                driver.set_window_size(width, height)
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
                driver.save_screenshot(os.path.join(shots, "sign-in-%s.png" % name))
                driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": dark})
                driver.save_screenshot(os.path.join(shots, "sign-in-%s-dark.png" % name))
            driver.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
            # The same page for a browser that prefers German (Accept-Language), at phone width.
            driver.set_window_size(390, 844)
            driver.execute_cdp_cmd("Network.enable", {})
            driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {"Accept-Language": "de-DE,de;q=0.9,en;q=0.5"}})
            driver.refresh()
            WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "password")))
            log("German sign-in page: " + driver.title)
            driver.save_screenshot(os.path.join(shots, "sign-in-phone-de.png"))
            driver.execute_cdp_cmd("Network.setExtraHTTPHeaders", {"headers": {}})
            driver.refresh()
            WebDriverWait(driver, 20).until(expected_conditions.presence_of_element_located((By.NAME, "password")))
            driver.set_window_size(1280, 800)
        connection = os.environ.get("SIGNET_TEST_CONNECTION")
        if connection:
            # Federated: follow "Sign in with <connection>" to the upstream provider, which
            # approves its user and sends the browser back through Signet.
            driver.find_element(By.PARTIAL_LINK_TEXT, "Sign in with " + connection).click()
        else:
            driver.find_element(By.NAME, "email").send_keys(os.environ["SIGNET_TEST_EMAIL"])
            driver.find_element(By.NAME, "password").send_keys(os.environ["SIGNET_TEST_PASSWORD"])
            driver.find_element(By.CSS_SELECTOR, "form button[type=submit], form input[type=submit]").click()
        WebDriverWait(driver, 20).until(lambda d: "close this window" in d.page_source)
        log("callback page reached")
    except Exception:
        log(traceback.format_exc())
        log("page: " + driver.page_source[:2000])
        raise
    finally:
        driver.quit()


if __name__ == "__main__":
    main()
