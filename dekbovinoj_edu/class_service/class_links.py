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
>>> service.app_url = "http://192.0.2.7:8866/?key=cow7"   # serve --class: Voilà runs 4a
>>> class_link(service, "4a"), class_link(service, "4b")
('http://192.0.2.7:8866/?key=cow7', '')
>>> service.close()
"""

from __future__ import annotations

import ipaddress
import urllib.parse

from ..classroom.assignment import class_key
from .state import Service
from .static import CLASS_PAGE, class_page_address

__all__ = ["class_link", "students_address", "typed_address"]


def typed_address(urls: list[str]) -> str:
    """Of the addresses a server listens at, the one students type: a network's address
    before a computer's name (a tablet may not know the name); "" for none.

    >>> typed_address(["http://pc-12:8866/", "http://192.0.2.7:8866/", "http://127.0.0.1:8866/"])
    'http://192.0.2.7:8866/'
    """
    for url in urls:
        host = urllib.parse.urlsplit(url).hostname or ""
        try:
            if not ipaddress.ip_address(host).is_loopback:
                return url
        except ValueError:
            continue
    return urls[0] if urls else ""


def students_address(service: Service) -> str:
    """The address students type: the app's, when another server runs it (``serve
    --class``'s Voilà), else the service's own (:func:`typed_address`)."""
    return service.app_url or typed_address(service.student_urls)


def class_link(service: Service, name: str) -> str:
    """The address students of class ``name`` open (a QR code's): the site's class page, or
    the service's own address; the app's address (which runs one class) for the service's
    own class; "" when students do not reach the class here."""
    address = students_address(service)
    if not service.students or not service.serves(name):
        return ""
    if service.app_url:
        own = service.only is not None and class_key(name) == class_key(service.only)
        return service.app_url if own else ""
    if service.site is not None and (service.site / CLASS_PAGE).is_file() and address:
        return address.rstrip("/") + class_page_address(name)
    return address
