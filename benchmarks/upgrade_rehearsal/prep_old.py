"""On the OLD code: the demos, the benchmark's 10,000-roll campaigns, and on the demo's
Maelstrom table a bank, a spend and its undo, an experience die, a willpower spent to
succeed, an open and an answered request."""
import random

from django.core.management import call_command

from benchmarks.http_seed import seed
from campaigns.models import Campaign
from characters import services as cs
from rolls import services as rs
from rolls.models import Roll

call_command("load_demo")
seed(small=10, large=10_000)
campaign = Campaign.objects.get(name="The Drift (demo)")
ana, ben = campaign.characters.order_by("name")
gm = campaign.created_by
rng = random.Random(11)
cs.xp_bank(character=ana, key="ability:Driving", amount=2, by=ana.owner)
spend = cs.xp_spend(character=ana, kind="ability", name="Stealth", by=ana.owner)
cs.xp_undo(entry=spend, by=gm, as_gm=True)
cs.xp_spend(character=ana, kind="specialty", name="Cars", ability="Driving", advanced=False,
            by=ana.owner)
roll = rs.roll_create(character=ana, by=ana.owner, rng=rng,
                      request=rs.RollRequest(traits=("Precision", "Driving")))
if roll.outcome != "botch":
    rs.roll_experience_die(roll=roll, key="ability:Driving", by=ana.owner, rng=rng)
wp = rs.roll_create(character=ben, by=ben.owner, rng=rng,
                    request=rs.RollRequest(kind="willpower", difficulty=6))
if wp.outcome != "botch":
    rs.roll_willpower_spend(roll=wp, by=ben.owner)
asked = rs.requested_roll_create(characters=[ana, ben], kind="action",
                                 traits=("Perception", "Alertness"), difficulty=7,
                                 threshold=1, note="Listen", by=gm)
rs.requested_roll_create(characters=[ben], kind="willpower", traits=(), difficulty=8,
                         threshold=0, note="", by=gm)
rs.roll_create(character=ana, by=ana.owner, rng=rng, answers=asked[0].pk,
               request=rs.RollRequest(traits=("Perception", "Alertness"), difficulty=7,
                                      threshold=1))
cs.damage_mark(character=ana, kind="lethal", levels=3)
cs.willpower_spend(character=ben)
print("rolls:", Roll.objects.count())
