"""Maelstrom's sheet layer (Maelstrom rules.md; docs/rules.md): the sheet
(``sheet.py``, ``system.py``), its in-place changes (``actions.py``), rolls and their
follow-ups (``rolling.py``), the creation steps on pages of its own (``creation.py``,
``creation_forms.py``, ``views.py``, ``urls.py``), its checks of stored data, its demo, and
the conversions from its storage of format version 1 (``legacy.py``). Imports nothing:
Django imports this package while the apps load."""
