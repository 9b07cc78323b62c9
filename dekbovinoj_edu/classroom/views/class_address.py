"""Where students go, as the dashboard shows it: the address they type, in large type, and a
QR code of the class's link to project (an SVG drawn here by ``segno``: nothing is loaded
from another server).

>>> block = address_html("en", "http://192.0.2.7:8870/", "http://192.0.2.7:8870/?class=4a")
>>> "192.0.2.7:8870" in block and "<svg" in block and "dkb-address" in block
True
>>> qr_svg("http://192.0.2.7:8870/").startswith("<svg")
True
>>> address_html("en", "", "")
''
"""

from __future__ import annotations

import html
import io

from ...i18n import gettext
from ..errors import DOMAIN

__all__ = ["ADDRESS_CSS", "address_html", "qr_svg"]

ADDRESS_CSS = """
.dkb-address { display: flex; flex-wrap: wrap; align-items: center; gap: 1em; margin: 0.5em 0; }
.dkb-address-text { font-size: 2em; font-weight: bold; word-break: break-all; margin: 0; }
.dkb-address-qr svg { width: 12em; height: 12em; display: block; }
.dkb-projecting .dkb-address-text { font-size: 3em; }
.dkb-projecting .dkb-address-qr svg { width: 18em; height: 18em; }
"""
"""The look of the address and its QR code (larger in projector mode)."""


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as inline SVG (its size from the page's CSS), or "" when
    ``segno`` (the ``serve`` and ``hub`` extras) is not installed."""
    try:
        import segno
    except ImportError:
        return ""
    out = io.BytesIO()
    segno.make(text, error="m", micro=False).save(
        out, kind="svg", xmldecl=False, svgns=False, nl=False, omitsize=True, border=2
    )
    return out.getvalue().decode("utf-8").replace("<svg", "<svg aria-hidden='true'", 1)


def address_html(lang: str, address: str, link: str) -> str:
    """The address students type (``address``) in large type, and the QR code of the class's
    ``link``; "" when there is neither."""
    if not address and not link:
        return ""
    say = html.escape(gettext(lang, DOMAIN, "Students open:"))
    shown = html.escape(address or link)
    label = html.escape(gettext(lang, DOMAIN, "QR code of the class's link"), quote=True)
    code = qr_svg(link or address)
    picture = (
        f"<div class='dkb-address-qr' role='img' aria-label='{label}' "
        f"data-link='{html.escape(link or address, quote=True)}'>{code}</div>"
        if code
        else ""
    )
    return (
        f"<div class='dkb-address'><div><p>{say}</p>"
        f"<p class='dkb-address-text'>{shown}</p></div>{picture}</div>"
    )
