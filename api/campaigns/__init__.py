"""Campaigns in the service: the routes' bodies (``schemas``) and the carry-over process
manager (``carrier``), run in every process as the webhook deliverer is."""
