"""The schemas of the OpenAPI document made fit for client generators.

Litestar names a component after its Struct and, when two Structs share a name, after
its module (``generic_commands_Attack``), but keeps the bare class name as its title, and
generators name their types by title: six rule systems' ``Attack`` collided and
openapi-python-client dropped every schema that referred to one.  Here every schema gets
a unique name, used as both its key and its title; a tagged command or event is named
after its tag (``generic.attack`` is ``GenericAttack``), which is what a client knows it
by.  Tagged unions get their discriminator, so a generator can type them, and every
command its whole example from the rule systems' own (the ones ``GET /rulesets/{name}``
shows).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import msgspec

from service.registry import RULESETS
from service.ruleset import tag_of

_REF = "#/components/schemas/"
Json = dict[str, Any]


def _pascal(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^0-9A-Za-z]+", name))


def _tag(schema: Json) -> str | None:
    const = schema.get("properties", {}).get("type", {}).get("const")
    return const if isinstance(const, str) else None


def _nodes(node: Any) -> Iterator[Any]:
    yield node
    if isinstance(node, dict):
        for value in node.values():
            yield from _nodes(value)
    elif isinstance(node, list):
        for value in node:
            yield from _nodes(value)


def drop_any_alternatives(doc: Json) -> None:
    """``tuple[X, ...]`` comes out as ``items: {oneOf: [X, {}]}``: the ellipsis becomes an
    empty schema that matches everything, so every valid item matched two alternatives
    and failed ``oneOf``.  Dropping the empty alternative leaves ``X``."""
    for node in _nodes(doc):
        if isinstance(node, dict) and isinstance(node.get("oneOf"), list) and {} in node["oneOf"]:
            node["oneOf"] = [s for s in node["oneOf"] if s != {}]


def unique_names(doc: Json) -> None:
    schemas: Json = doc["components"]["schemas"]
    titles = Counter(s.get("title", key) for key, s in schemas.items())
    names: dict[str, str] = {}
    for key, schema in schemas.items():
        tag = _tag(schema)
        if tag is not None and "." in tag:
            names[key] = _pascal(tag)
        elif titles[schema.get("title", key)] > 1:
            names[key] = _pascal(key)
        else:
            names[key] = key
    clashes = [n for n, count in Counter(names.values()).items() if count > 1]
    if clashes:
        raise ValueError(f"OpenAPI schema names collide: {clashes}")
    doc["components"]["schemas"] = {names[k]: {**s, "title": names[k]} for k, s in schemas.items()}
    for node in _nodes(doc):
        if isinstance(node, dict) and isinstance(node.get("$ref"), str):
            target = node["$ref"].removeprefix(_REF)
            node["$ref"] = _REF + names.get(target, target)


def discriminate(doc: Json) -> None:
    """A ``oneOf`` whose alternatives are all tagged Structs is a tagged union on ``type``."""
    schemas: Json = doc["components"]["schemas"]
    for node in _nodes(doc):
        if not (isinstance(node, dict) and isinstance(node.get("oneOf"), list)):
            continue
        refs = [alt.get("$ref", "") for alt in node["oneOf"]]
        targets = [schemas.get(r.removeprefix(_REF), {}) for r in refs]
        tags = [_tag(t) for t in targets]
        if len(refs) > 1 and all(tags) and len(set(tags)) == len(tags):
            node["discriminator"] = {
                "propertyName": "type",
                "mapping": {tag: ref for tag, ref in zip(tags, refs, strict=True)},
            }


def command_examples(doc: Json) -> None:
    """Each tagged schema gets its rule system's example; a request body holding a
    ``command`` offers every command as a named example (Swagger UI lists them)."""
    schemas: Json = doc["components"]["schemas"]
    by_tag = {_tag(s): s for s in schemas.values() if _tag(s)}
    commands: dict[str, Any] = {}
    for ruleset in RULESETS.values():
        command_types = set(ruleset.command_types)
        for example in ruleset.examples:
            tag = tag_of(type(example))
            value = msgspec.to_builtins(example)
            if tag in by_tag:
                by_tag[tag]["examples"] = [value]
            if type(example) in command_types:
                commands[tag] = value
    for media in _json_bodies(doc):
        body = schemas.get(media.get("schema", {}).get("$ref", "").removeprefix(_REF), {})
        if "command" in body.get("properties", {}):
            media["examples"] = {
                tag: {"summary": tag, "value": {"command": value}}
                for tag, value in commands.items()
            }


def _json_bodies(doc: Json) -> Iterator[Json]:
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                content = operation.get("requestBody", {}).get("content", {})
                if "application/json" in content:
                    yield content["application/json"]


_NO_NUL = {"pattern": "\\u0000"}


def no_nul_in_text(doc: Json) -> None:
    """PostgreSQL stores no NUL character in text, so the service refuses one in any
    string it is sent (a 400): free text says so (``not`` a NUL), so that every string
    the document allows is one the service takes."""
    roots: list[Any] = [doc.get("components", {}).get("schemas", {})]
    for path_item in doc.get("paths", {}).values():
        for operation in path_item.values():
            if isinstance(operation, dict):
                roots += [p.get("schema") for p in operation.get("parameters", [])]
    for node in _nodes(roots):
        if (
            isinstance(node, dict)
            and node.get("type") == "string"
            and not {"const", "enum", "format"} & node.keys()
        ):
            node["not"] = _NO_NUL


_PYTHON_ONLY_SPACE = r"\x1c-\x1f\x85"
r"""Characters Python's ``\s`` matches and JavaScript's (which OpenAPI patterns use) does
not: information separators and NEL."""


def ecma_patterns(doc: Json) -> None:
    r"""The service checks patterns with Python's ``re``; the document's are read as
    ECMAScript regexes, where ``\S`` also matches the characters above.  Spelled out,
    a pattern allows in the document only what the service accepts."""
    for node in _nodes(doc):
        if isinstance(node, dict) and isinstance(node.get("pattern"), str):
            node["pattern"] = (
                node["pattern"]
                .replace(r"[^\s", rf"[^\s{_PYTHON_ONLY_SPACE}")
                .replace(r"\S", rf"[^\s{_PYTHON_ONLY_SPACE}]")
            )


def complete(doc: Json) -> None:
    drop_any_alternatives(doc)
    ecma_patterns(doc)
    no_nul_in_text(doc)
    unique_names(doc)
    discriminate(doc)
    command_examples(doc)
