"""What a host's data reads back as, in any system, printed as one JSON object, so that two
dumps (before and after an upgrade, on the same database) can be compared value by value.

``benchmarks/upgrade_rehearsal/any_system/rehearse.sh`` runs it in either tree (before/, the
release; after/, the upgraded code) inside ``manage.py shell -v 0 -c "exec(open(...).read())"``
and compares the two dumps with ``benchmarks/upgrade_rehearsal/any_system/compare.py``. It
reads the models through ``apps.get_model`` and every stored column (``values()``), so it
needs no code of one release or the other, and adds what each release computes:

- ``characters``: every character's stored columns (sheet JSON, xp_available, xp_total...),
  its ledger sums (``ledger_sums``: available, total, banked) and every ledger entry with
  all its columns and its kind's label (``get_kind_display()``);
- ``rolls``: every roll's columns (kind, outcome, net, summary, result, pool, description,
  gm_only, parent id, code...) with ``get_kind_display()`` and ``get_outcome_display()``;
- ``requests``: every requested roll's columns (data, description, note, answer);
- ``campaigns``: every campaign's columns (system_data...), and ``sessions``;
- ``constraints``: the characters table's constraints as the database reports them
  (``connection.introspection.get_constraints``), by name;
- ``pages``: the visible text of every page of every campaign's roll log
  (``rolls:roll-list``, 25 rolls a page) as the campaign's GM sees it: the text of
  ``<main>`` and of the whole ``<body>``, tags, scripts, styles and templates removed.
"""
import json
import re
from html import unescape

from django.apps import apps
from django.db import connection
from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

Campaign = apps.get_model("campaigns", "Campaign")
Session = apps.get_model("campaigns", "Session")
Character = apps.get_model("characters", "Character")
XpEntry = apps.get_model("characters", "XpEntry")
Roll = apps.get_model("rolls", "Roll")
RequestedRoll = apps.get_model("rolls", "RequestedRoll")


def row(obj):
    """Every concrete column of ``obj`` by attribute name (foreign keys as ids)."""
    return {f.attname: getattr(obj, f.attname) for f in obj._meta.concrete_fields}


def visible(html):
    html = re.sub(r"<!--.*?-->", " ", html, flags=re.S)
    html = re.sub(r"<(script|style|template)\b.*?</\1>", " ", html, flags=re.S | re.I)
    html = re.sub(r"<[^>]+>", " ", html)
    return " ".join(unescape(html).split())


def part(html, tag):
    found = re.search(rf"<{tag}\b.*?</{tag}>", html, re.S)
    return visible(found.group(0)) if found else ""


out = {"characters": {}, "rolls": {}, "requests": {}, "campaigns": {}, "sessions": {},
       "constraints": {}, "pages": {}}

for c in Character.objects.order_by("pk"):
    entries = []
    for e in XpEntry.objects.filter(character=c).order_by("pk"):
        entries.append({**row(e), "kind_display": e.get_kind_display()})
    out["characters"][c.pk] = {
        **row(c),
        "status_display": c.get_status_display(),
        "review_display": c.get_review_display(),
        "ledger_sums": [sum(e["available_delta"] for e in entries),
                        sum(e["total_delta"] for e in entries),
                        sum(e["banked_delta"] for e in entries)],
        "ledger": entries,
    }

for r in Roll.objects.order_by("pk"):
    out["rolls"][r.pk] = {**row(r), "kind_display": r.get_kind_display(),
                          "outcome_display": r.get_outcome_display()}

for q in RequestedRoll.objects.order_by("pk"):
    out["requests"][q.pk] = row(q)

for campaign in Campaign.objects.order_by("pk"):
    out["campaigns"][campaign.pk] = row(campaign)

for s in Session.objects.order_by("pk"):
    out["sessions"][s.pk] = row(s)

with connection.cursor() as cursor:
    constraints = connection.introspection.get_constraints(cursor, Character._meta.db_table)
out["constraints"] = {name: dict(info) for name, info in sorted(constraints.items())}
out["constraint_names"] = sorted(constraints)

client = Client()
with override_settings(ALLOWED_HOSTS=["testserver", "*"], SECURE_SSL_REDIRECT=False):
    for campaign in Campaign.objects.order_by("pk"):
        gm = campaign.memberships.get(role="gm").user
        client.force_login(gm)
        url = reverse("rolls:roll-list", args=[campaign.pk])
        shown = Roll.objects.filter(campaign=campaign, parent__isnull=True).count()
        for number in range(1, max(1, (shown + 24) // 25) + 1):
            response = client.get(url, {"page": number})
            html = response.content.decode()
            out["pages"][f"{campaign.pk}:{number}"] = {
                "url": f"{url}?page={number}", "status": response.status_code,
                "main": part(html, "main"), "body": part(html, "body"),
            }

print(json.dumps(out, default=str, sort_keys=True))
