"""Second factor: TOTP devices (django-otp) and checking a code with the lockout."""

from __future__ import annotations

from typing import Any

from axes.handlers.proxy import AxesProxyHandler
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.signals import user_login_failed
from django.http import HttpRequest
from django_otp import match_token, user_has_device
from django_otp.models import Device
from django_otp.plugins.otp_totp.models import TOTPDevice

#: A device's name; one confirmed TOTP device per user.
DEVICE_NAME = "totp"


def has_second_factor(user: AbstractBaseUser | Any) -> bool:
    return bool(user_has_device(user, confirmed=True))


def code_is_locked_out(request: HttpRequest, username: str) -> bool:
    """The same lockout as passwords: too many wrong codes lock the username too."""
    return not AxesProxyHandler.is_allowed(request, {"username": username})


def check_code(request: HttpRequest, user: Any, code: str) -> Device | None:
    """The user's device that accepts ``code``, or None; a wrong code is a failed
    log-in, counted and logged by the lockout like a wrong password."""
    code = (code or "").strip().replace(" ", "")
    device = match_token(user, code) if code.isascii() and code.isdigit() else None
    if device is None:
        user_login_failed.send(
            sender=__name__,
            credentials={"username": user.get_username()},
            request=request,
        )
    return device


def pending_device(user: Any) -> TOTPDevice:
    """The user's unconfirmed device to enrol (a new secret the first time)."""
    device = TOTPDevice.objects.filter(user=user, confirmed=False).order_by("-pk").first()
    if device is None:
        device = TOTPDevice.objects.create(user=user, name=DEVICE_NAME, confirmed=False)
    return device


def confirm_device(device: TOTPDevice, code: str) -> bool:
    code = (code or "").strip().replace(" ", "")
    if not (code.isascii() and code.isdigit()) or not device.verify_token(code):
        return False
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    TOTPDevice.objects.filter(user=device.user).exclude(pk=device.pk).delete()
    return True


def remove_devices(user: Any) -> int:
    deleted, _ = TOTPDevice.objects.filter(user=user).delete()
    return int(deleted)
