#!/usr/bin/env python3
"""The console's cookies seen from another port, in headless Chromium over WebDriver.

Starts a listener on another 127.0.0.1 port (browsers do not isolate cookies by port), signs in
to the console at SIGNET_START_URL (SIGNET_EMAIL, SIGNET_PASSWORD) on the issuer's page it leads
to, then opens that listener at `/` and under `/console/` as a local app would get the browser to,
and records the Cookie header each request carried. Then has a page on that listener post a form
to the console (a same-site request with the console's cookies, without its CSRF field) and
reads where it ended. Prints one JSON line with what it saw, or {"error": …}.
"""
import http.server
import json
import os
import threading
import traceback

from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions

import chromium_driver  # the shared Chromium set-up (chromium_driver.py)

from console import sign_in  # the console's sign-in, as console.py does it
from federated_signin import log  # the same SIGNET_TEST_LOG diagnostics


class Listener(http.server.BaseHTTPRequestHandler):
    """Another local app: keeps the Cookie header of every request; `/post` is a page that posts
    a form to the console (SIGNET_POST_TARGET) on load."""
    received = {}

    def do_GET(self):
        Listener.received[self.path] = self.headers.get("Cookie") or ""
        if self.path == "/post":
            body = ('<form id="f" method="post" action="%s"><input name="type" value="native"></form>'
                    '<script>document.getElementById("f").submit()</script>' % os.environ["SIGNET_POST_TARGET"])
        else:
            body = "<p id=\"seen\">seen</p>"
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *arguments):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Listener)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    other = "http://127.0.0.1:%d" % server.server_address[1]
    driver = chromium_driver.start(window="1280,900")
    wait = chromium_driver.wait(driver, 20)
    result = {"otherOrigin": other}
    try:
        sign_in(driver, wait, result)
        for path in ("/", "/console/apps"):
            driver.get(other + path)
            wait.until(expected_conditions.presence_of_element_located((By.ID, "seen")))
        driver.get(other + "/post")
        wait.until(lambda d: not d.current_url.startswith(other))
        wait.until(expected_conditions.presence_of_element_located((By.TAG_NAME, "h1")))
        result["postURL"] = driver.current_url
        result["postHeading"] = driver.find_element(By.TAG_NAME, "h1").text
        result["received"] = Listener.received
    except Exception as error:  # the test reads the error and the log
        log("console cookie port: " + traceback.format_exc())
        result["error"] = repr(error)
        result["url"] = driver.current_url
    finally:
        driver.quit()
        server.shutdown()
    print(json.dumps(result))


if __name__ == "__main__":
    main()
