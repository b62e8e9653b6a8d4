"""The copy of the current documents that tablets keep for reading and searching offline."""
