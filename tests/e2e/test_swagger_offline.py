"""Swagger UI works without the internet: every script, style and icon the page names is
served by the service itself, from the files packaged with it."""

from __future__ import annotations

import re

import pytest

from api.openapi.ui import ASSETS_DIR, SWAGGER_UI_VERSION
from tests.e2e.helpers import Client


@pytest.mark.parametrize("page", ["/schema", "/schema/swagger"])
async def test_the_page_loads_only_assets_of_this_service(client: Client, page: str) -> None:
    response = await client.get(page)
    assert response.status_code == 200
    assert "SwaggerUIBundle" in response.text
    urls = re.findall(r"""(?:src|href)=["']([^"']+)["']""", response.text)
    assert len(urls) >= 4, urls
    for url in urls:
        assert url.startswith("/schema/assets/swagger/"), url
        asset = await client.get(url)
        assert asset.status_code == 200, url
        assert asset.content == (ASSETS_DIR / url.rsplit("/", 1)[1]).read_bytes()


async def test_the_vendored_copy_is_the_pinned_version_with_its_licence() -> None:
    bundle = (ASSETS_DIR / "swagger-ui-bundle.js").read_text(encoding="utf-8")
    assert SWAGGER_UI_VERSION in bundle
    assert "Apache License" in (ASSETS_DIR / "LICENSE").read_text(encoding="utf-8")
