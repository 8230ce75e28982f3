"""Genesys's sheet layer, one package: the system (``system.py``, its ``SYSTEM``), its forms
(``forms.py``), its actions and their tables (``actions.py``), what XP buys (``xp.py``), its
checks of stored data (``checks.py``), reading the stored JSON (``sheet.py``), its import
schema (``schema.py``), its demo campaign (``demo.py``), its templates (``templates/``) and
stylesheet (``static/``).

Kept free of imports: Django imports this package while it loads the apps, before models
may be imported.
"""
