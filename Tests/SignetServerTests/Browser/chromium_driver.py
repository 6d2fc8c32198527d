"""The one Chromium set-up the browser tests share: headless Chromium from Debian driven by its
chromedriver over WebDriver, and the phone- and desktop-width screenshots for docs/images."""
import os

from selenium import webdriver
from selenium.webdriver.chrome.service import Service


def start(window="1280,800", extra=()):
    """A headless Chromium with a basic password store (no keyring prompt) and `extra` arguments."""
    options = webdriver.ChromeOptions()
    options.binary_location = "/usr/bin/chromium"
    for argument in ("--headless=new", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=" + window,
                     "--password-store=basic", *extra):
        options.add_argument(argument)
    if os.geteuid() == 0:
        options.add_argument("--no-sandbox")  # Chromium refuses to run as root with its sandbox
    return webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)


def screenshots(driver, name):
    """NAME-phone.png (390 px) and NAME-desktop.png (1280 px) into $SIGNET_SCREENSHOTS, when set;
    the window is left at desktop size."""
    folder = os.environ.get("SIGNET_SCREENSHOTS")
    if not folder:
        return
    driver.set_window_size(390, 844)
    driver.save_screenshot(os.path.join(folder, name + "-phone.png"))
    driver.set_window_size(1280, 800)
    driver.save_screenshot(os.path.join(folder, name + "-desktop.png"))


def wait(driver, seconds):
    """A WebDriverWait that also retries when the page was replaced between finding an element and
    reading it (StaleElementReferenceException: a navigation or a script re-render landed in between),
    as it already does for an element not found yet."""
    from selenium.common.exceptions import NoSuchElementException, StaleElementReferenceException
    from selenium.webdriver.support.ui import WebDriverWait
    return WebDriverWait(driver, seconds, ignored_exceptions=(NoSuchElementException, StaleElementReferenceException))
