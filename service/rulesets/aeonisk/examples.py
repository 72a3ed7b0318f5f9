from __future__ import annotations

import msgspec

EXAMPLES: tuple[msgspec.Struct, ...] = ()
