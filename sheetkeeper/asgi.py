"""ASGI entry point (``uvicorn sheetkeeper.asgi:application``)."""

import os
import sys

from django.core.asgi import get_asgi_application

SWITCH_INTERVAL_S = 0.001
"""How long a thread of a server process may hold the interpreter while another waits for
it (Python's default is 0.005 s). Each request runs in a thread of its own beside the event
loop serving the open streams; a request coming back from each of its dozen database round
trips waits for the interpreter, up to the whole interval when another thread is busy.
At 200 live tables on 2 CPUs, 1 ms against 5 ms, three pairs run back to back: p95 274, 337
and 425 ms against 476, 529 and 692, a roll POST's time in its statements p95 54-66 ms
against 83-102, its CPU the same (docs/performance.md, issue 18's fourth round)."""

sys.setswitchinterval(SWITCH_INTERVAL_S)
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "sheetkeeper.settings")
application = get_asgi_application()
