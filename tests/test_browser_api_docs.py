"""The API's docs work with no network (issue #20 item 7): in a real browser whose every
request off the site is refused, /api/docs/ draws Swagger UI with the API's operations
(and /api/redoc/ draws ReDoc), at a phone's width and a desk's, with no script error and
no sideways scroll.

Headless Debian chromium through Playwright, against pytest-django's live server.
"""

from __future__ import annotations

from typing import Any

import pytest

pytestmark = [pytest.mark.browser]


def offline_page(browser: Any, url: str, width: int) -> tuple[Any, list[str], list[str]]:
    """A page that may only reach ``url``; what it tried elsewhere, and its errors."""
    page = browser.new_context(viewport={"width": width, "height": 900}).new_page()
    page.set_default_timeout(30_000)
    outside: list[str] = []
    errors: list[str] = []

    def route(r: Any) -> None:
        if r.request.url.startswith(url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.route("**/*", route)
    page.on("pageerror", lambda e: errors.append(str(e)))
    return page, outside, errors


@pytest.mark.parametrize("width", [390, 1280])
def test_swagger_ui_draws_the_operations_with_no_network(
    live_server: Any, db: None, browser: Any, width: int
) -> None:
    page, outside, errors = offline_page(browser, live_server.url, width)
    page.goto(f"{live_server.url}/api/docs/")
    page.wait_for_selector("#swagger-ui .opblock")
    assert page.locator("#swagger-ui .opblock").count() > 10
    assert page.locator('#swagger-ui .opblock[id*="protests"]').count() >= 2
    assert outside == [] and errors == []
    assert page.evaluate("document.documentElement.scrollWidth") <= width


def test_redoc_draws_with_no_network(live_server: Any, db: None, browser: Any) -> None:
    page, _outside, errors = offline_page(browser, live_server.url, 1280)
    page.goto(f"{live_server.url}/api/redoc/")
    page.wait_for_selector("[data-section-id]")
    assert page.locator("[data-section-id]").count() > 10
    assert errors == []
