"""The replay log as a document: Markdown for a campaign wiki or a Discord post."""

from __future__ import annotations

from collections.abc import Sequence

from projections.log_queries import LogEntry


def _escaped(text: str) -> str:
    """Markdown that shows the text as written (a '*' in a name stays a '*')."""
    return "".join("\\" + c if c in "\\`*_[]<>#~|" else c for c in text)


def log_markdown(entries: Sequence[LogEntry]) -> str:
    lines: list[str] = []
    section: int | str | None = "none yet"
    for entry in entries:
        if entry.round != section:
            section = entry.round
            heading = "Setup" if entry.round is None else f"Round {entry.round}"
            lines.append(("\n" if lines else "") + f"## {heading}\n\n")
        text = _escaped(entry.text)
        if entry.undone is not None:
            text = f"~~{text}~~ (undone at #{entry.undone.undo_version})"
        lines.append(f"- **#{entry.version}** {text}\n")
    return "".join(lines)
