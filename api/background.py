"""Tasks that live as long as a block: started on entry, cancelled and awaited on exit,
so a shutdown leaves no task behind and no "Task was destroyed" warning."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Coroutine
from typing import Any


@contextlib.asynccontextmanager
async def running_tasks(*work: Coroutine[Any, Any, None], name: str) -> AsyncIterator[None]:
    tasks = [asyncio.create_task(coroutine, name=name) for coroutine in work]
    try:
        yield
    finally:
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
