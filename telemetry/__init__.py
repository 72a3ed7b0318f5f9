"""Operating the service: Prometheus metrics, structured logs and optional traces.

A package of its own below every layer (``api``, ``service``, ``projections`` and
``events`` may all import it; it imports none of them), so the code that knows a fact
records it with one call and this package alone says how it is named and exported.
"""
