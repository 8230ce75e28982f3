"""On the NEW code, after the upgrade: every upgraded character makes a roll and an XP spend;
follow-ups on rolls the OLD code made (an experience die, willpower spent to succeed,
Shahquest's choice of dice), an undo of a spend the OLD code made, a bank; then every roll
log, sheet and XP page answers 200 to the GM.
``benchmarks/upgrade_rehearsal/any_system/rehearse.sh`` runs it in after/ (the working tree)
inside ``manage.py shell -v 0 -c "exec(open(...).read())"``."""
import itertools
import random

from django.test import Client
from django.test.utils import override_settings
from django.urls import reverse

import rolls
import systems
from campaigns.models import Campaign
from characters import services as cs
from characters.models import Character, XpEntry
from rolls import services as rs
from rolls.models import Roll
from rulesets.errors import RuleError

print("code from:", rolls.__file__)
rng = random.Random(3232)


def valid(form):
    if not form.is_valid():
        raise ValueError(f"{type(form).__name__}: {form.errors.as_text()}")
    return form.cleaned_data


def roll(character, data, by, answers=None):
    character = Character.objects.get(pk=character.pk)
    system = systems.for_campaign(character.campaign)
    made = rs.roll_create(character=character, data=valid(system.roll_form(character, data)),
                          by=by, rng=rng, answers=answers)
    print(f"  {character.campaign.ruleset}: {made.kind} ({made.get_kind_display()}) roll by "
          f"{character.name}: {made.summary}")
    return made


def follow(old, name, data, by):
    action = systems.for_ruleset(old.ruleset).roll_actions[name]
    made = rs.roll_act(roll=old, action=action, data=valid(action.form(data)), by=by, rng=rng)
    print(f"  {old.ruleset}: follow-up {made.kind} ({made.get_kind_display()}) on OLD roll "
          f"{old.label}: {made.summary}")
    return made


def spend(character, key, by):
    character = Character.objects.get(pk=character.pk)
    entry = cs.xp_spend(character=character, key=key, by=by)
    print(f"  {character.campaign.ruleset}: spend {entry.reason} ({entry.cost} XP), "
          f"{entry.get_kind_display()}")
    return entry


def first_affordable(character):
    character = Character.objects.get(pk=character.pk)
    for advance in systems.for_campaign(character.campaign).advances(character):
        if advance.cost <= character.xp_available:
            return advance.key
    raise RuleError(f"{character.name}: nothing affordable", "")


camp = {c.ruleset: c for c in Campaign.objects.all()}
OLD_MAX = Roll.objects.order_by("-pk").values_list("pk", flat=True).first()  # the old code's
gm = camp["maelstrom"].created_by

m = camp["maelstrom"]
ana, ben = m.characters.order_by("name")
roll(ana, {"kind": "action", "trait": ["Wits", "Alertness"], "difficulty": "6",
           "threshold": "0"}, ana.owner)
spend(ana, "ability:Firearms", ana.owner)
old_spend = XpEntry.objects.filter(character=ana, kind="spend", reason__startswith="Stealth").get()
undone = cs.xp_undo(entry=old_spend, by=gm, as_gm=True)
print(f"  maelstrom: undo of an OLD spend: {undone.reason} ({undone.get_kind_display()})")
bank = systems.for_campaign(m).actions["bank"]
cs.sheet_change(character=Character.objects.get(pk=ana.pk), action=bank,
                data=valid(bank.form({"trait": "attribute:Wits", "amount": "1"},
                                     character=ana)), by=ana.owner)
print("  maelstrom: banked 1 in Wits:",
      XpEntry.objects.filter(character=ana).order_by("-id").first().get_kind_display())
# Follow-ups on rolls the old code made (no follow-up yet, not botched).
old_action = (Roll.objects.filter(character=ana, kind="action", parent=None, followups=None,
                                  imported=False, pk__lte=OLD_MAX)
              .exclude(outcome="botch").order_by("pk").first())
follow(old_action, "experience-die", {"key": "attribute:Precision"}, ana.owner)
old_wp = Roll.objects.filter(character=ben, kind="willpower", followups=None,
                             pk__lte=OLD_MAX).order_by("pk").first()
follow(old_wp, "willpower-spend", {}, ben.owner)
roll(ben, {"kind": "soak", "damage_kind": "aggravated", "armor": "2", "difficulty": "6",
           "threshold": "0"}, ben.owner)
spend(ben, "attribute:Wits", ben.owner)
open_request = ben.requested_rolls.filter(answer=None).order_by("pk").first()
roll(ben, open_request.data, ben.owner, answers=open_request.pk)
print("  maelstrom: answered an OLD request:", open_request.description)

s = camp["shahquest"]
demetri = s.characters.get()
old_sq = (Roll.objects.filter(character=demetri, kind="action", followups=None, pk__lte=OLD_MAX)
          .order_by("pk").first())
faces = [d["face"] for d in old_sq.result["dice"]]
for e1, e2, ef in itertools.permutations([i for i, f in enumerate(faces) if f != 1], 3):
    if e1 < e2:
        try:
            follow(old_sq, "choose", {"effort": [str(e1), str(e2)], "effect": [str(ef)]},
                   demetri.owner)
            break
        except RuleError:
            continue
roll(demetri, {"feature": ["1", "3"], "setting_die": "8"}, demetri.owner)
cs.xp_award(character=demetri, amount=10, reason="After the upgrade", by=gm)
learn = systems.for_campaign(s).actions["specialization-learn"]
cs.sheet_change(character=Character.objects.get(pk=demetri.pk), action=learn,
                data=valid(learn.form({"skill": "Combat", "name": "Knives", "use": "spread"},
                                      character=demetri)), by=demetri.owner)
print("  shahquest: learned Knives:",
      XpEntry.objects.filter(character=demetri).order_by("-id").first().reason)

g = camp["genesys"]
kestrel = g.characters.get()
roll(kestrel, {"skill": "Cool", "difficulty": "Easy"}, kestrel.owner)
spend(kestrel, first_affordable(kestrel), kestrel.owner)

t = camp["three_d6"]
mara = t.characters.get()
rs.roll_create(character=mara, by=mara.owner, rng=rng, data={
    "mode": "test", "target": "t0", "td": 9, "situational": 0, "favor": 0, "disfavor": 0})
print("  three_d6: test roll:", Roll.objects.filter(character=mara).order_by("-id").first().summary)
spend(mara, first_affordable(mara), mara.owner)

w = camp["shattered_world"]
kaelin = w.characters.get()
old_request = kaelin.requested_rolls.filter(answer=None).get()
roll(kaelin, old_request.data, kaelin.owner, answers=old_request.pk)
try:
    spend(kaelin, first_affordable(kaelin), kaelin.owner)
except RuleError as exc:
    print("  shattered_world: no spend affordable:", exc)

for campaign in Campaign.objects.order_by("pk"):
    rs.npc_roll_create(campaign=campaign, text={
        "maelstrom": "4 dice diff 6", "shahquest": "d8 d6", "genesys": "2A vs 2D",
        "three_d6": "3d6", "shattered_world": "d8 vs 5"}[campaign.ruleset],
        gm_only=False, by=gm, rng=rng)

client = Client()
statuses = {}
with override_settings(ALLOWED_HOSTS=["testserver", "*"], SECURE_SSL_REDIRECT=False):
    for campaign in Campaign.objects.order_by("pk"):
        client.force_login(campaign.memberships.get(role="gm").user)
        urls = [reverse("rolls:roll-list", args=[campaign.pk])]
        for c in campaign.characters.all():
            urls += [c.get_absolute_url(), f"/characters/{c.pk}/xp/"]
        for r in Roll.objects.filter(campaign=campaign):
            urls.append(r.get_absolute_url())
        for url in urls:
            statuses[url] = client.get(url).status_code
bad = {u: s for u, s in statuses.items() if s != 200}
print(f"pages as the GM: {len(statuses)} fetched, not 200: {bad}")
balanced = all(c.xp_available == sum(e.available_delta for e in c.xp_entries.all())
               and c.xp_total == sum(e.total_delta for e in c.xp_entries.all())
               for c in Character.objects.all())
print("balances equal ledger sums:", balanced)
if bad or not balanced:
    raise SystemExit("play_new.py: a page did not answer 200 or a balance left its ledger")
