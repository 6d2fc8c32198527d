"""A real SMTP server for the tests: aiosmtpd on 127.0.0.1, every message written to a folder.

Usage: mail_sink.py DIR [--tls-cert CERT --tls-key KEY] [--require-starttls] [--auth USER:PASSWORD]
                        [--reject-rcpt ADDRESS:CODE]...

It binds port 0 on 127.0.0.1, then prints `READY <port>` on stdout. Each accepted message is
written to DIR as `<n>.eml` (the DATA bytes as received) and `<n>.json` (the envelope: mail_from,
rcpt_tos, whether the session was under TLS, the authenticated user), the JSON file last and by
rename, so a reader that sees the JSON sees the whole message.
"""

import argparse
import asyncio
import json
import os
import signal
import ssl
import sys

import socket

from aiosmtpd.smtp import SMTP, AuthResult, LoginPassword


class Sink:
    def __init__(self, folder, rejections):
        self.folder = folder
        self.count = 0
        self.rejections = rejections

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        code = self.rejections.get(address.lower())
        if code is not None:
            return f"{code} refused by the test sink"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.count += 1
        base = os.path.join(self.folder, str(self.count))
        with open(base + ".eml", "wb") as out:
            out.write(envelope.original_content or envelope.content)
        meta = {
            "mail_from": envelope.mail_from,
            "rcpt_tos": envelope.rcpt_tos,
            "tls": session.ssl is not None,
            "user": session.auth_data.login.decode() if isinstance(session.auth_data, LoginPassword) else None,
        }
        with open(base + ".json.tmp", "w") as out:
            json.dump(meta, out)
        os.rename(base + ".json.tmp", base + ".json")
        return "250 Message accepted for delivery"


def authenticator_for(user, password):
    def authenticate(server, session, envelope, mechanism, auth_data):
        if isinstance(auth_data, LoginPassword) and auth_data.login.decode() == user and auth_data.password.decode() == password:
            return AuthResult(success=True, auth_data=auth_data)
        return AuthResult(success=False, handled=False)
    return authenticate


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("folder")
    parser.add_argument("--tls-cert")
    parser.add_argument("--tls-key")
    parser.add_argument("--require-starttls", action="store_true")
    parser.add_argument("--auth")
    parser.add_argument("--reject-rcpt", action="append", default=[])
    args = parser.parse_args()

    rejections = {}
    for item in args.reject_rcpt:
        address, code = item.rsplit(":", 1)
        rejections[address.lower()] = int(code)

    options = {}
    if args.tls_cert:
        context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
        context.load_cert_chain(args.tls_cert, args.tls_key)
        options["tls_context"] = context
        options["require_starttls"] = args.require_starttls
    if args.auth:
        user, password = args.auth.split(":", 1)
        options["authenticator"] = authenticator_for(user, password)
        options["auth_required"] = True
        options["auth_require_tls"] = bool(args.tls_cert)

    # Bound here, port 0, so no other process can take the port between choosing and binding.
    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    sink = Sink(args.folder, rejections)
    loop = asyncio.new_event_loop()
    server = loop.run_until_complete(loop.create_server(
        lambda: SMTP(sink, hostname="sink.test", **options), sock=listener))
    print(f"READY {listener.getsockname()[1]}", flush=True)

    stop = asyncio.Event()
    for name in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(name, stop.set)
    loop.run_until_complete(stop.wait())
    server.close()

if __name__ == "__main__":
    sys.exit(main())
