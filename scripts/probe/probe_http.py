"""What the black-box probes share: a cookie-keeping HTTP client that never follows redirects,
base64url, and reading a page's form."""
import base64, http.cookiejar, re
import urllib.error, urllib.parse, urllib.request


class NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):
        return None


class Browser:
    """Keeps cookies, never follows a redirect; `forwarded_for` is sent as X-Forwarded-For.
    A request that gets no answer returns status 0."""

    def __init__(self, forwarded_for=None, timeout=30):
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar), NoRedirect)
        self.forwarded_for = forwarded_for
        self.timeout = timeout

    def request(self, url, data=None, headers=None, method=None):
        body = urllib.parse.urlencode(data).encode() if isinstance(data, (dict, list)) else data
        headers = dict(headers or {})
        if self.forwarded_for:
            headers["X-Forwarded-For"] = self.forwarded_for
        req = urllib.request.Request(url, data=body, headers=headers, method=method)
        try:
            r = self.opener.open(req, timeout=self.timeout)
            return r.status, r.headers, r.read()
        except urllib.error.HTTPError as e:
            return e.code, e.headers, e.read()
        except (TimeoutError, OSError) as e:
            return 0, {}, f"no answer: {e}".encode()

    def cookie_names(self):
        return {c.name for c in self.jar}


def b64url(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def form_fields(html):
    """The first form's action and its input fields (name → value)."""
    fields = {}
    for tag in re.findall(r"<input[^>]*>", html):
        name = re.search(r'name="([^"]*)"', tag)
        value = re.search(r'value="([^"]*)"', tag)
        if name:
            fields[name.group(1)] = (value.group(1) if value else "").replace("&amp;", "&")
    action = re.search(r'<form[^>]*action="([^"]*)"', html)
    return (action.group(1).replace("&amp;", "&") if action else None), fields
