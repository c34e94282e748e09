"""The schema's revisions, oldest first."""
