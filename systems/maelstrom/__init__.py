"""Maelstrom's sheet layer: for now its import schema (``schema.py``); its sheet, creation and
rolls still live in the apps until issue 15 moves them here."""
