"""The product's URLs plus two bare Django views, the baselines of ``benchmarks/http.py``.
Only ``benchmarks.bench_settings`` points at this module; the product never serves them.

- ``/bench/static-page/``: a TemplateView of ``bench/static_page.html``, which the benchmark
  writes at seed time with exactly the bytes of a rendered sheet (no queries, no context);
- ``/bench/constant/``: a POST answered with a constant (no form, no database).

Both go through the same middleware as every product view.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST
from django.views.generic import TemplateView

STATIC_PAGE_TEMPLATE = "bench/static_page.html"


@csrf_exempt
@require_POST
def constant(request: HttpRequest) -> HttpResponse:
    """The roll POST's baseline: a POST answered with two constant bytes."""
    return HttpResponse(b"ok", content_type="text/plain")


urlpatterns = [
    path("bench/static-page/", TemplateView.as_view(template_name=STATIC_PAGE_TEMPLATE)),
    path("bench/constant/", constant),
    path("", include("sheetkeeper.urls")),
]
