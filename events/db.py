"""Type names for what the store functions accept: a pool, or a connection from one."""

from __future__ import annotations

from typing import TypeAlias

import asyncpg
from asyncpg.pool import PoolConnectionProxy

Connection: TypeAlias = "asyncpg.Connection[asyncpg.Record] | PoolConnectionProxy[asyncpg.Record]"
"""A connection the caller holds, usually inside a transaction."""

Database: TypeAlias = "asyncpg.Pool[asyncpg.Record] | Connection"
"""Anything that can run a query: reads take this."""
