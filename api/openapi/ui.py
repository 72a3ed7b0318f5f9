"""The API browsers under /schema, with Swagger UI's files served from this package.

Litestar's render plugins load their scripts from a CDN by default, so the page showed
nothing offline or behind a proxy that blocks it; the vendored copy (api/static/swagger,
whose README says how it was taken) keeps the UI working wherever the service does.
"""

from __future__ import annotations

from pathlib import Path

from litestar.openapi.plugins import OpenAPIRenderPlugin, ScalarRenderPlugin, SwaggerRenderPlugin
from litestar.router import Router
from litestar.static_files import create_static_files_router

SWAGGER_UI_VERSION = "5.35.0"
ASSETS_PATH = "/schema/assets/swagger"
ASSETS_DIR = Path(__file__).parents[1] / "static" / "swagger"


def swagger_assets() -> Router:
    """The vendored files; their names carry no version, so caches revalidate them."""
    return create_static_files_router(
        path=ASSETS_PATH, directories=[ASSETS_DIR], name="swagger-assets", include_in_schema=False
    )


def render_plugins() -> list[OpenAPIRenderPlugin]:
    """Swagger UI at /schema and /schema/swagger, from the package; Scalar at
    /schema/scalar (it loads from its CDN, so it needs the internet)."""
    return [
        SwaggerRenderPlugin(
            path=["/", "/swagger"],
            js_url=f"{ASSETS_PATH}/swagger-ui-bundle.js",
            css_url=f"{ASSETS_PATH}/swagger-ui.css",
            standalone_preset_js_url=f"{ASSETS_PATH}/swagger-ui-standalone-preset.js",
            favicon=f"<link rel='icon' type='image/png' href='{ASSETS_PATH}/favicon-32x32.png'>",
        ),
        ScalarRenderPlugin(path="/scalar"),
    ]
