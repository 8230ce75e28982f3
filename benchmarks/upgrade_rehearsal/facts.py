"""What a host's users see of every Maelstrom character, roll and request, read from either
storage (the older one: ``Trait`` rows and track columns; the current one: the sheet JSON)
and printed as one JSON object: each character's traits, specialties, merits and flaws,
Willpower, health, balances, ledger sums and entries, the visible text of its sheet page as
its GM sees it; each campaign's roll count, (kind, outcome, net, summary) multiset, every
roll's dice and its requests. Run it inside ``manage.py shell -c "exec(open(...).read())"``
(README.md beside it)."""
import json
import re
from collections import Counter
from html import unescape

from django.apps import apps
from django.test import Client
from django.test.utils import override_settings

Character = apps.get_model("characters", "Character")
Roll = apps.get_model("rolls", "Roll")
RequestedRoll = apps.get_model("rolls", "RequestedRoll")
OLD = any(m.__name__ == "Trait" for m in apps.get_models())


def text(html: str) -> str:
    html = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    html = re.sub(r"<[^>]+>", " ", html)
    return " ".join(unescape(html).split())


def sheet_of(c):
    if OLD:
        traits = {t.name: t.dots for t in c.traits.exclude(kind="specialty")}
        specs = sorted((t.ability, t.name, t.advanced) for t in c.traits.filter(kind="specialty"))
        merits = sorted((m.kind, m.name, m.points, m.detail) for m in c.merits_flaws.all())
        wp = (c.willpower_permanent, c.willpower_current)
        hp = (c.health_bashing, c.health_lethal, c.health_aggravated, c.dead, c.huge_size)
    else:
        s = c.sheet
        traits = {**s["attributes"], **s["abilities"]}
        specs = sorted((x["ability"], x["name"], x["advanced"]) for x in s["specialties"])
        merits = sorted((m["kind"], m["name"], m["points"], m["detail"]) for m in s["merits_flaws"])
        wp = (s["willpower"]["permanent"], s["willpower"]["current"])
        h = s["health"]
        hp = (h["bashing"], h["lethal"], h["aggravated"], h["dead"], h["huge_size"])
    return {"traits": traits, "specialties": specs, "merits": merits, "willpower": wp,
            "health": hp}


def dice_of(r):
    if OLD:
        return [r.dice, r.bonus_dice, r.experience_die]
    res = r.result or {}
    return [res.get("dice", []), res.get("bonus_dice", []), res.get("experience_die", [])]


out = {"characters": {}, "campaigns": {}, "pages": {}}
gm_client = Client()
for c in Character.objects.filter(campaign__ruleset="maelstrom").order_by("pk"):
    ledger = list(c.xp_entries.values_list("kind", "available_delta", "total_delta",
                                            "banked_delta", "bank_key", "trait_key", "reason"))
    out["characters"][c.pk] = {
        "name": c.name, **sheet_of(c), "xp": [c.xp_available, c.xp_total],
        "ledger_sums": [sum(e[1] for e in ledger), sum(e[2] for e in ledger)],
        "ledger": sorted(map(list, ledger)),
    }
    gm = c.campaign.memberships.get(role="gm").user
    gm_client.force_login(gm)
    with override_settings(ALLOWED_HOSTS=["*"], SECURE_SSL_REDIRECT=False):
        page = gm_client.get(f"/characters/{c.pk}/")
        xp = gm_client.get(f"/characters/{c.pk}/xp/")
    main = re.search(r"<main.*?</main>", page.content.decode(), re.S)
    out["pages"][c.pk] = {"status": page.status_code, "xp_status": xp.status_code,
                          "text": text(main.group(0) if main else "")}
# order_by(): the roll log's default ordering would make every roll its own distinct row.
maelstrom_campaigns = (Roll.objects.filter(ruleset="maelstrom")
                       .values_list("campaign_id", flat=True).order_by().distinct())
for campaign_id in maelstrom_campaigns:
    rolls = Roll.objects.filter(campaign_id=campaign_id).order_by("pk")
    out["campaigns"][campaign_id] = {
        "count": rolls.count(),
        "outcomes": sorted(Counter((r.kind, r.outcome, r.net, r.summary) for r in rolls).items()),
        "dice": {r.pk: dice_of(r) for r in rolls},
        "requests": sorted(
            (q.pk, q.answer_id, (q.describe() if OLD else q.description), q.note)
            for q in RequestedRoll.objects.filter(campaign_id=campaign_id)),
    }
print(json.dumps(out, default=str, sort_keys=True))
