"""TypeScript types generated from the service's OpenAPI document by openapi-typescript
(pinned in tests/clients/typescript/package.json, installed from the npm registry) let a
strict client type-check: tests/clients/typescript/client.ts."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).parent / "typescript"


def _run(*command: str, cwd: Path) -> str:
    run = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, f"{' '.join(command)}:\n{run.stdout}\n{run.stderr}"
    return run.stdout


def test_a_typescript_client_type_checks_against_the_generated_types(
    openapi_file: Path, tmp_path: Path
) -> None:
    npm = shutil.which("npm")
    assert npm is not None, "node and npm are needed (.ci/run installs them when missing)"
    for name in ("package.json", "client.ts"):
        shutil.copy(HERE / name, tmp_path / name)
    _run(npm, "install", "--no-audit", "--no-fund", "--loglevel=error", cwd=tmp_path)
    bin_dir = tmp_path / "node_modules" / ".bin"
    # Fields with a default are optional in what a client sends; the generator's default
    # would make them required.
    _run(
        str(bin_dir / "openapi-typescript"),
        str(openapi_file),
        "-o",
        "schema.d.ts",
        "--default-non-nullable",
        "false",
        cwd=tmp_path,
    )
    types = (tmp_path / "schema.d.ts").read_text(encoding="utf-8")
    assert '"generic.attack"' in types
    _run(
        str(bin_dir / "tsc"),
        "--noEmit",
        "--strict",
        "--target",
        "es2022",
        "--module",
        "es2022",
        "--moduleResolution",
        "bundler",
        "client.ts",
        cwd=tmp_path,
    )
