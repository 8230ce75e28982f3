"""3d6's sheet layer, one package: the system (``system.py``, its ``SYSTEM``), the stored
sheet and its readers (``sheet.py``), its forms (``forms.py``), actions (``actions.py``), a
roll's two sides (``pools.py``), checks of stored data (``checks.py``), its demo campaign
(``demo.py``), its import schema (``schema.py``), its templates (``templates/``) and
stylesheet (``static/``).

Kept free of imports: Django imports this package while it loads the apps, before models
may be imported.
"""
