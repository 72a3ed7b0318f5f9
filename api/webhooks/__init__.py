"""Durable subscriptions and signed webhooks (docs/webhooks.md)."""
