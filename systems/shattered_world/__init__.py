"""Shattered World's sheet layer, one package: the system (``system.py``, its ``SYSTEM``), its
forms (``forms.py``), its track and campaign actions (``actions.py``), its checks of stored
data (``checks.py``), the buy-in catalogue and die steps (``catalogue.py``), the stored
sheet's helpers (``sheet.py``), its demo (``demo.py``), its import schema (``schema.py``),
its templates (``templates/``) and stylesheet (``static/``).

Within the package imports run one way: ``sheet``, ``catalogue`` <- ``forms``, ``checks``
<- ``actions`` <- ``system`` <- ``demo`` (which alone may import the services it composes).

Kept free of imports: Django imports this package while it loads the apps, before models
may be imported.
"""
