"""Field schemas of msgspec Structs as msgspec itself states them.

Litestar drops a constraint that sits inside a container or an optional value (the
faces of ``manual_dice: list[list[Annotated[int, Meta(ge=1)]]] | None`` came out as any
integer), so the document allowed values the service refuses.  msgspec's own JSON
Schema is what the service decodes with; for every field that holds no other Struct,
its schema replaces Litestar's (fields holding Structs keep Litestar's, whose ``$ref``
points at the document's components).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import msgspec

Json = dict[str, Any]


def _structs(base: type[msgspec.Struct] = msgspec.Struct) -> Iterator[type[msgspec.Struct]]:
    for sub in base.__subclasses__():
        yield sub
        yield from _structs(sub)


def _by_component_key() -> dict[str, set[type[msgspec.Struct]]]:
    """Litestar keys a component by its class name, or, when names repeat, by the
    shortest tail of its module path that tells them apart (``generic_commands_Attack``):
    every such name of every Struct, with the classes it could name."""
    candidates: dict[str, set[type[msgspec.Struct]]] = {}
    for struct in set(_structs()):
        parts = struct.__module__.split(".")
        for start in range(len(parts) + 1):
            key = "_".join([*parts[start:], struct.__qualname__])
            candidates.setdefault(key, set()).add(struct)
    return candidates


def _documented(found: set[type[msgspec.Struct]], schema: Json) -> type[msgspec.Struct] | None:
    """The class a component was drawn from.  A name the document uses once may still
    name several classes (the write path's ``RevealRolls`` command beside the API's
    ``RevealRolls`` body): the one whose fields are the component's properties, and among
    those an API body or answer, the only Structs the document draws that are not events
    or commands of the domain."""
    if len(found) == 1:
        return next(iter(found))
    properties = set(schema.get("properties", {}))
    fitting = [
        struct
        for struct in found
        if {f.encode_name for f in msgspec.structs.fields(struct)}
        | ({struct.__struct_config__.tag_field} - {None})
        == properties
    ]
    if len(fitting) > 1:
        fitting = [struct for struct in fitting if struct.__module__.split(".")[0] == "api"]
    return fitting[0] if len(fitting) == 1 else None


def _own_properties(structs: list[type[msgspec.Struct]]) -> list[Json]:
    """Each Struct's field schemas, from one pass of msgspec over all of them."""
    refs, definitions = msgspec.json.schema_components(structs)
    return [definitions[ref["$ref"].rsplit("/", 1)[1]].get("properties", {}) for ref in refs]


def _typable(schema: Any) -> None:
    """msgspec writes a list of anything as ``{"type": "array"}``; generators want its
    items named, even as "any"."""
    if isinstance(schema, dict):
        if schema.get("type") == "array" and not {"items", "prefixItems"} & schema.keys():
            schema["items"] = {}
        for value in schema.values():
            _typable(value)
    elif isinstance(schema, list):
        for value in schema:
            _typable(value)


def _key_schema(key: msgspec.inspect.Type) -> Json | None:
    """msgspec states a mapping's values but not its keys; the service checks both."""
    while isinstance(key, msgspec.inspect.Metadata):
        key = key.type
    if isinstance(key, msgspec.inspect.LiteralType):
        return {"enum": list(key.values)}
    if isinstance(key, msgspec.inspect.StrType):
        limits = {
            "minLength": key.min_length,
            "maxLength": key.max_length,
            "pattern": key.pattern,
        }
        return {k: v for k, v in limits.items() if v is not None} or None
    return None


def _name_keys(field: msgspec.inspect.Type, stated: Json) -> None:
    types = field.types if isinstance(field, msgspec.inspect.UnionType) else (field,)
    for candidate in types:
        while isinstance(candidate, msgspec.inspect.Metadata):
            candidate = candidate.type
        if isinstance(candidate, msgspec.inspect.DictType):
            names = _key_schema(candidate.key_type)
            target = next(
                (alt for alt in stated.get("anyOf", [stated]) if alt.get("type") == "object"),
                None,
            )
            if names and target is not None:
                target["propertyNames"] = names


def complete(doc: Json) -> None:
    """Run before the schemas are renamed, while the keys are still Litestar's."""
    structs = _by_component_key()
    schemas = doc.get("components", {}).get("schemas", {})
    found = [
        (schema, struct)
        for key, schema in schemas.items()
        if key in structs and (struct := _documented(structs[key], schema)) is not None
    ]
    exact = _own_properties([struct for _, struct in found])
    # One walk of all the structs' types: one type_info per struct walks again each type
    # they share (the event unions), seconds for the whole document.
    infos = msgspec.inspect.multi_type_info([struct for _, struct in found])
    for (schema, struct), properties, info in zip(found, exact, infos, strict=True):
        tag_field = struct.__struct_config__.tag_field
        assert isinstance(info, msgspec.inspect.StructType)
        field_types = {f.encode_name: f.type for f in info.fields}
        for name, prop in schema.get("properties", {}).items():
            stated = properties.get(name)
            if stated is None or name == tag_field:
                continue
            if "$ref" in json.dumps(stated):
                # Litestar's own schema stays (its references are to Litestar's names),
                # but a mapping's keys are checked all the same: say how.
                if name in field_types:
                    _name_keys(field_types[name], prop)
                continue
            for kept in ("description", "examples"):
                if kept in prop and kept not in stated:
                    stated[kept] = prop[kept]
            _typable(stated)
            if name in field_types:
                _name_keys(field_types[name], stated)
            schema["properties"][name] = stated
