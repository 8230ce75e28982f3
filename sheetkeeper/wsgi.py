"""WSGI entry point (``gunicorn sheetkeeper.wsgi``)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheetkeeper.settings")
application = get_wsgi_application()
