"""Alembic's migrations of the ladder's schema (see :mod:`..schema`).

A new ladder's tables are made whole from :data:`..schema.METADATA` and stamped
with the newest revision; ``tajmahal ladder upgrade`` runs the revisions in
``versions/`` from a ladder's revision up to the newest.
"""
