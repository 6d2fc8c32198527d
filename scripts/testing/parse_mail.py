"""Reads one RFC 5322 message on stdin with Python's own email parser and prints what a mail
reader would show, as JSON: the decoded From name and address, To, Subject, Date, Message-ID,
Auto-Submitted, the content type, and the text and HTML bodies (decoded). The tests use it as an
independent check of what Signet renders."""

import email
import email.policy
import email.utils
import json
import sys

message = email.message_from_bytes(sys.stdin.buffer.read(), policy=email.policy.default)
name, address = email.utils.parseaddr(str(message["From"]))
text = message.get_body(preferencelist=("plain",))
html = message.get_body(preferencelist=("html",))
print(json.dumps({
    "from_name": name,
    "from": address,
    "to": str(message["To"]),
    "subject": str(message["Subject"]),
    "date": str(message["Date"]),
    "message_id": str(message["Message-ID"]),
    "auto_submitted": str(message["Auto-Submitted"]),
    "content_type": message.get_content_type(),
    "text": text.get_content() if text is not None else None,
    "html": html.get_content() if html is not None else None,
    "defects": [type(defect).__name__ for part in message.walk() for defect in part.defects],
}))
