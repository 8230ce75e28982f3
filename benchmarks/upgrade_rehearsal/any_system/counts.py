"""Rows per kind: rolls by (system, kind), ledger entries by (system, kind), and the rest.
``benchmarks/upgrade_rehearsal/any_system/rehearse.sh`` runs it inside ``manage.py shell -v 0
-c "exec(open(...).read())"`` on the release's data, after the upgrade and after the new code
has played (``<db>_counts_before.json``, ``_after.json``, ``_new.json``)."""
import json
from collections import Counter

from django.apps import apps

Roll = apps.get_model("rolls", "Roll")
RequestedRoll = apps.get_model("rolls", "RequestedRoll")
XpEntry = apps.get_model("characters", "XpEntry")
Character = apps.get_model("characters", "Character")
Campaign = apps.get_model("campaigns", "Campaign")

out = {
    "campaigns": Campaign.objects.count(),
    "characters": Character.objects.count(),
    "rolls": {f"{r}/{k}": n for (r, k), n in sorted(Counter(
        Roll.objects.values_list("ruleset", "kind")).items())},
    "rolls_gm_only": Roll.objects.filter(gm_only=True).count(),
    "rolls_followups": Roll.objects.filter(parent__isnull=False).count(),
    "ledger": {f"{r}/{k}": n for (r, k), n in sorted(Counter(
        XpEntry.objects.values_list("character__campaign__ruleset", "kind")).items())},
    "ledger_reversing": XpEntry.objects.filter(reverses__isnull=False).count(),
    "requests": RequestedRoll.objects.count(),
    "requests_answered": RequestedRoll.objects.filter(answer__isnull=False).count(),
}
print(json.dumps(out, indent=1))
