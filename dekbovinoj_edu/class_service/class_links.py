"""Where students go, as the teacher's dashboard shows it: the address they type (one of
those the service listens at) and the link of one class (its QR code's).

>>> from dekbovinoj_edu.classroom.assignment import codes_assignment
>>> from dekbovinoj_edu.classroom.store import SQLiteStore
>>> from .state import Service
>>> store = SQLiteStore(":memory:")
>>> store.add_class(codes_assignment("4a", "68VN-AV66-GGK"))
>>> service = Service(store, "4a")
>>> service.student_urls = ["http://pc-12:8870/", "http://192.0.2.7:8870/"]
>>> students_address(service), class_link(service, "4a")
('http://192.0.2.7:8870/', 'http://192.0.2.7:8870/')
>>> service.close()
"""

from __future__ import annotations

import ipaddress
import urllib.parse

from .state import Service
from .static import CLASS_PAGE, class_page_address

__all__ = ["class_link", "students_address"]


def students_address(service: Service) -> str:
    """The address students type, of those the service listens at: a network's address
    before a computer's name (a tablet may not know the name), "" when none is known."""
    urls = service.student_urls
    for url in urls:
        host = urllib.parse.urlsplit(url).hostname or ""
        try:
            if not ipaddress.ip_address(host).is_loopback:
                return url
        except ValueError:
            continue
    return urls[0] if urls else ""


def class_link(service: Service, name: str) -> str:
    """The address students of class ``name`` open (a QR code's): the site's class page, the
    app's address with the class, or the service's own address; "" when the class is not
    served to students here."""
    address = students_address(service)
    if not service.students or not service.serves(name):
        return ""
    if service.site is not None and (service.site / CLASS_PAGE).is_file() and address:
        return address.rstrip("/") + class_page_address(name)
    if service.app_url:
        joiner = "&" if "?" in service.app_url else "?"
        return f"{service.app_url}{joiner}class={urllib.parse.quote(name, safe='')}"
    return address
