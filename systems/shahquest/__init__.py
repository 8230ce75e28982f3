"""Shahquest's sheet layer, one package: the system (``system.py``, its ``SYSTEM``), the
stored sheet (``sheet.py``) and tension pool (``tension.py``), its forms (``forms.py``),
actions (``actions.py``), checks of stored data (``checks.py``), demo (``demo.py``), import
schema (``schema.py``), its templates (``templates/``) and stylesheet (``static/``).

Kept free of imports: Django imports this package while it loads the apps, before models
may be imported.
"""
