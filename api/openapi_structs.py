"""How a msgspec Struct appears in the OpenAPI document: as Litestar draws it, plus
``additionalProperties: false`` for the Structs that refuse unknown fields.

Without it the document allowed any extra member in a request body that the service
answers with a 400, so a client (or schemathesis) following the document was refused.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin

if TYPE_CHECKING:
    from litestar._openapi.schema_generation import SchemaCreator
    from litestar.openapi.spec import Schema
    from litestar.typing import FieldDefinition


class ClosedStructs(StructSchemaPlugin):
    def to_openapi_schema(
        self, field_definition: FieldDefinition, schema_creator: SchemaCreator
    ) -> Schema:
        schema = super().to_openapi_schema(field_definition, schema_creator)
        if field_definition.type_.__struct_config__.forbid_unknown_fields:
            schema.additional_properties = False
        return schema
