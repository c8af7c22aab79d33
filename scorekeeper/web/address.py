"""The address other phones reach this server at: the share page's links and ``flask address``.

The scorer's phone (or the computer serving the app) often opens it as ``localhost``; links and
QR codes built from that name lead every other phone to itself. The server's own address on the
local network is found once per process without sending anything, and ``PUBLIC_URL`` (config or
environment) can name the address to use instead.
"""

from __future__ import annotations

import functools
import ipaddress
import socket
from collections.abc import Mapping
from dataclasses import dataclass
from urllib.parse import urlsplit, urlunsplit

import click
from flask import Flask, current_app
from flask.cli import with_appcontext

from . import qr

#: Names that mean "this computer" (besides every name under .localhost, RFC 6761).
LOCAL_NAMES = frozenset({"localhost", "localhost.localdomain", "ip6-localhost", "ip6-loopback"})
#: Any address outside this computer: a UDP socket's connect() only picks the interface a packet
#: to it would leave by, and sends nothing.
PROBE = ("10.254.254.254", 9)


def is_loopback(host: str) -> bool:
    """Whether a host (a name, or an IPv4 or IPv6 address, bracketed or not) is this computer
    itself.

    >>> [is_loopback(h) for h in ("localhost", "127.0.0.1", "[::1]", "app.localhost", "0.0.0.0")]
    [True, True, True, True, False]
    >>> [is_loopback(h) for h in ("192.168.1.20", "scores.example.org", "")]
    [False, False, False]
    """
    host = host.strip("[]").rstrip(".").lower()
    if host in LOCAL_NAMES or host.endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def keeps_offline(url: str) -> bool:
    """Whether a phone opening this link may keep the app's pages for opening without a connection:
    browsers give service workers only to https pages and to this computer itself.

    >>> [keeps_offline(u) for u in ("https://cards.example.org/g/t", "http://localhost:5000/", "http://[::1]/")]
    [True, True, True]
    >>> keeps_offline("http://192.168.1.20:5000/g/t")
    False
    """
    link = urlsplit(url)
    return link.scheme == "https" or is_loopback(link.hostname or "")


@functools.cache
def lan_address() -> str | None:
    """This computer's IPv4 address on its network (found once per process); None without one."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(PROBE)
            found: str = probe.getsockname()[0]
    except OSError:  # no network, or no route out of this computer
        return None
    address = ipaddress.ip_address(found)
    return None if address.is_loopback or address.is_unspecified else found


def on_host(url: str, host: str) -> str:
    """The same link on another host: scheme, port, path and query kept.

    >>> on_host("http://localhost:5000/v/abc?x=1", "192.168.1.20")
    'http://192.168.1.20:5000/v/abc?x=1'
    >>> on_host("http://[::1]/g/t", "10.0.0.7")
    'http://10.0.0.7/g/t'
    """
    link = urlsplit(url)
    return urlunsplit(link._replace(netloc=host if link.port is None else f"{host}:{link.port}"))


def on_base(url: str, base: str) -> str:
    """The same link under a public address: the base's scheme and host (and port), the link's path.

    >>> on_base("http://127.0.0.1:5000/v/abc", "https://cards.example.org/")
    'https://cards.example.org/v/abc'
    """
    link, public = urlsplit(url), urlsplit(base)
    return urlunsplit(link._replace(scheme=public.scheme, netloc=public.netloc))


@dataclass(frozen=True)
class Shared:
    """The links a share page shows, and why they are on the address they are.

    ``why``: "" (as the page was opened), "public" (PUBLIC_URL), "lan" (moved from a loopback host
    to the network address), "loopback" (a loopback host and no network address found) or
    "local-only" (a loopback host, and the server listens on this computer only).
    """

    links: dict[str, str]
    why: str
    opened_as: str
    address: str = ""


def share_links(links: Mapping[str, str], listening_on: str, public_url: str = "") -> Shared:
    """The links other phones can open, given the links as the page was opened and the address
    the server listens on (the request's SERVER_NAME: werkzeug and gunicorn put the bound address
    there)."""
    opened_as = urlsplit(next(iter(links.values()), "")).hostname or ""
    if public_url:
        return Shared({k: on_base(v, public_url) for k, v in links.items()}, "public", opened_as,
                      urlsplit(public_url).netloc)
    if not is_loopback(opened_as):
        return Shared(dict(links), "", opened_as)
    if is_loopback(listening_on):  # started without --host: a network address would lead nowhere
        return Shared(dict(links), "local-only", opened_as)
    lan = lan_address()
    if lan is None:
        return Shared(dict(links), "loopback", opened_as)
    return Shared({k: on_host(v, lan) for k, v in links.items()}, "lan", opened_as, lan)


@click.command("address")
@click.option("--port", default=5000, show_default=True, help="The port the server listens on.")
@click.option("--host", default="0.0.0.0", show_default=True,
              help="The address the server listens on.")
@with_appcontext
def address_command(port: int, host: str) -> None:
    """Print the address other phones can open, with a QR code of it, before the server starts; or,
    when the server listens on this computer only, the address it answers on there."""
    public = current_app.config.get("PUBLIC_URL", "")
    if is_loopback(host) and not public:
        shown = f"[{host.strip('[]')}]" if ":" in host else host
        click.echo(f"Only this computer can open http://{shown}:{port}/ (the server listens on "
                   f"{host} only: HOST=0.0.0.0 lets the other phones on this network in)")
        return
    lan = lan_address()
    url = public or (f"http://{lan}:{port}/" if lan else "")
    if not url:
        click.echo("No network address found: "
                   f"only this computer can open http://localhost:{port}/")
        return
    click.echo(f"\nOther phones on this network can open {url}\n{qr.terminal(url)}\n")


def init_app(app: Flask) -> None:
    """Add ``flask address`` to the app's commands."""
    app.cli.add_command(address_command)
