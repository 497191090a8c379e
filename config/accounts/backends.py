"""The lockout in front of the password check (django-axes) and the client's address."""

from __future__ import annotations

from typing import Any

from axes.backends import AxesStandaloneBackend
from django.conf import settings
from django.http import HttpRequest


class LockoutBackend(AxesStandaloneBackend):  # type: ignore[misc]
    """Axes' backend, which refuses a locked-out username and address before any password
    is checked. Without a request (a shell, ``Client.login`` in a test) there is no
    address to lock, so it steps aside; every log-in over HTTP passes its request."""

    def authenticate(
        self,
        request: HttpRequest | None,
        username: str | None = None,
        password: str | None = None,
        **kwargs: Any,
    ) -> None:
        if request is None:
            return None
        super().authenticate(request, username, password, **kwargs)
        return None


def client_ip(request: HttpRequest) -> str | None:
    """The client's address: REMOTE_ADDR, or behind ``TRUSTED_PROXY_COUNT`` proxies the
    address the nearest of them appended to X-Forwarded-For (a client can forge the
    rest of that header, never the hops our own proxies add)."""
    proxies = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0))
    remote: str | None = request.META.get("REMOTE_ADDR")
    if proxies <= 0:
        return remote
    hops = [h.strip() for h in request.META.get("HTTP_X_FORWARDED_FOR", "").split(",") if h.strip()]
    if len(hops) < proxies:
        return remote
    return str(hops[-proxies])
