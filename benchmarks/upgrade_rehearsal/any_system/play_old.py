"""On the OLD code (72e132e), after ``manage.py load_demo``: play every demo campaign through
the old services so that every kind of roll and ledger entry exists.
``benchmarks/upgrade_rehearsal/any_system/rehearse.sh`` runs it in before/ (``git archive`` of
the release) inside ``manage.py shell -v 0 -c "exec(open(...).read())"``.

Maelstrom: action, an action ignoring the wound penalty, willpower, soak, an experience die
follow-up, willpower spent to succeed, a bank, a spend paid partly from the bank and its undo,
a specialty bought, session awards, damage marked and healed, a willpower dot spent.
Shahquest: action, the dice choice follow-up, general danger (open and GM-only), a
specialization learned. Genesys: check, a spend and its undo. 3d6: test, contest, a spend.
Shattered World: action, an achievement and its undo. Every campaign: an NPC quick roll, a
GM-only NPC roll, a roll request answered and one left open."""
import datetime
import itertools
import random

import systems
from campaigns.models import Campaign
from characters import services as cs
from rolls import services as rs
from rulesets.errors import RuleError
from table import services as ts

rng = random.Random(32)
done = []


def note(text):
    done.append(text)
    print("done:", text)


def valid(form):
    if not form.is_valid():
        raise ValueError(f"{type(form).__name__}: {form.errors.as_text()}")
    return form.cleaned_data


def act(character, name, data, by):
    """A sheet change through its TrackAction, as characters:character-action does."""
    system = systems.for_campaign(character.campaign)
    action = system.actions[name]
    form = (action.form(data, character=character) if action.needs_character
            else action.form(data))
    character, message = cs.sheet_change(character=character, action=action,
                                         data=valid(form), by=by)
    note(f"{character.campaign.ruleset}: {name} on {character.name}: {message}")
    return type(character).objects.get(pk=character.pk)


def roll(character, data, by, answers=None):
    """A roll through the system's roll dialog form, as rolls:roll-create does."""
    system = systems.for_campaign(character.campaign)
    character = type(character).objects.get(pk=character.pk)
    cleaned = valid(system.roll_form(character, data))
    made = rs.roll_create(character=character, data=cleaned, by=by, rng=rng, answers=answers)
    note(f"{character.campaign.ruleset}: {made.kind} roll by {character.name}: {made.summary}")
    return made


def follow(roll_, name, data, by):
    system = systems.for_ruleset(roll_.ruleset)
    action = system.roll_actions[name]
    made = rs.roll_act(roll=roll_, action=action, data=valid(action.form(data)), by=by,
                       rng=rng)
    note(f"{roll_.ruleset}: follow-up {made.kind} on {roll_.label}: {made.summary}")
    return made


def campaign_act(campaign, name, data, by):
    system = systems.for_campaign(campaign)
    change = system.campaign_actions[name]
    campaign, message, made = ts.campaign_system_change(
        campaign=campaign, action=change, data=valid(change.form(data)), by=by, rng=rng)
    note(f"{campaign.ruleset}: campaign action {name}: {message}")
    return campaign, made


def npc(campaign, text, gm_only, by):
    made = rs.npc_roll_create(campaign=campaign, text=text, gm_only=gm_only, by=by, rng=rng)
    note(f"{campaign.ruleset}: NPC roll {text!r} gm_only={gm_only}: {made.summary}")
    return made


def ask(campaign, characters, what, note_text, by):
    system = systems.for_campaign(campaign)
    cleaned = valid(system.request_form(campaign, what))
    made = rs.requested_roll_create(characters=characters, system=system, what=cleaned,
                                    note=note_text, by=by)
    note(f"{campaign.ruleset}: requested {[q.description for q in made]}")
    return made


def answer(request, by):
    return roll(request.character, request.data, by, answers=request.pk)


def spend(character, key, by):
    entry = cs.xp_spend(character=character, key=key, by=by)
    note(f"{character.campaign.ruleset}: spend {entry.reason} ({entry.cost} XP)")
    return entry


def undo(entry, by):
    made = cs.xp_undo(entry=entry, by=by, as_gm=True)
    note(f"{entry.character.campaign.ruleset}: {made.reason}")
    return made


def first_affordable(character):
    character = type(character).objects.get(pk=character.pk)
    system = systems.for_campaign(character.campaign)
    for advance in system.advances(character):
        if advance.cost <= character.xp_available:
            return advance.key
    raise RuleError(f"{character.name}: nothing affordable", "")


camp = {c.ruleset: c for c in Campaign.objects.all()}
gm = camp["maelstrom"].created_by

# --- Maelstrom -------------------------------------------------------------------------------
m = camp["maelstrom"]
ana, ben = m.characters.order_by("name")
for c in (ana, ben):
    cs.xp_award(character=c, amount=30, reason="Rehearsal award", by=gm)
    note(f"maelstrom: award 30 to {c.name}")
session = ts.session_create(campaign=m, date=datetime.date(2026, 12, 1), title="Rehearsal night")
ts.session_award(session=session, awards={ana.pk: ["Heroism", "Victory"], ben.pk: ["Creativity"]},
                 custom={ben.pk: (2, "Saved the ship")}, by=gm)
note("maelstrom: session awards (named and custom)")
ana = act(ana, "bank", {"trait": "ability:Driving", "amount": "3"}, ana.owner)
ana.refresh_from_db()
spent = spend(ana, "ability:Driving", ana.owner)  # 3 banked + available
undo(spent, gm)
ana.refresh_from_db()
spend(ana, "specialty:Driving:Cars", ana.owner)
ana.refresh_from_db()
spend(ana, "ability:Stealth", ana.owner)
ben.refresh_from_db()
spend(ben, "willpower", ben.owner)
# An action, then its experience die (not on a botch).
while True:
    action_roll = roll(ana, {"kind": "action", "trait": ["Precision", "Driving"],
                             "specialty": ["Driving: Motorcycles"], "difficulty": "6",
                             "threshold": "0"}, ana.owner)
    if action_roll.outcome != "botch":
        break
follow(action_roll, "experience-die", {"key": "ability:Driving"}, ana.owner)
# Willpower, then willpower spent to succeed.
ben.refresh_from_db()
wp_roll = roll(ben, {"kind": "willpower", "difficulty": "7", "threshold": "0"}, ben.owner)
follow(wp_roll, "willpower-spend", {}, ben.owner)
# An experience die on a willpower roll (banked in Willpower).
while True:
    wp2 = roll(ana, {"kind": "willpower", "difficulty": "6", "threshold": "0"}, ana.owner)
    if wp2.outcome != "botch":
        break
follow(wp2, "experience-die", {"key": "willpower"}, ana.owner)
roll(ben, {"kind": "soak", "damage_kind": "lethal", "armor": "1", "difficulty": "6",
           "threshold": "0"}, ben.owner)
roll(ana, {"kind": "soak", "damage_kind": "bashing", "armor": "", "difficulty": "6",
           "threshold": "0"}, ana.owner)
ana = act(ana, "damage", {"kind": "lethal", "levels": "3"}, gm)
roll(ana, {"kind": "action", "trait": ["Reflexes", "Piloting"], "difficulty": "6",
           "threshold": "1", "ignore_wound_penalty": "on",
           "required_specialties": "Close Quarters, Extreme Range"}, ana.owner)
ana = act(ana, "heal", {"kind": ""}, gm)
ben = act(ben, "willpower", {"action": "spend"}, ben.owner)
asked = ask(m, [ana, ben], {"kind": "action", "traits": "Perception + Alertness",
                            "difficulty": "7", "threshold": "1"}, "Listen at the hatch", gm)
answer(asked[0], ana.owner)
ask(m, [ben], {"kind": "willpower", "traits": "", "difficulty": "8", "threshold": "0"}, "", gm)
npc(m, "5 dice diff 7 threshold 1", False, gm)
npc(m, "6d10 diff 6", True, gm)

# --- Shahquest -------------------------------------------------------------------------------
s = camp["shahquest"]
demetri = s.characters.get()
player = demetri.owner
cs.xp_award(character=demetri, amount=20, reason="Rehearsal award", by=gm)
demetri = act(demetri, "plot-points", {"change": "1"}, gm)
for _ in range(20):
    sq_roll = roll(demetri, {"feature": ["1", "3", "8"], "specialization": ["6:0"],
                             "setting_die": "6"}, player)
    faces = [d["face"] for d in sq_roll.result.get("dice", [])]
    good = [i for i, f in enumerate(faces) if f != 1]
    chosen = None
    for e1, e2, ef in itertools.permutations(good, 3):
        if e1 > e2:
            continue
        try:
            chosen = follow(sq_roll, "choose", {"effort": [str(e1), str(e2)],
                                                "effect": [str(ef)]}, player)
            break
        except RuleError:
            continue
    if chosen:
        break
else:
    raise RuntimeError("no Shahquest roll took a choice")
s, _ = campaign_act(s, "tension-start", {"dice": "3d6"}, gm)
s, _ = campaign_act(s, "tension-danger", {"setting_die": "8", "complications": "d6",
                                          "note": "The guards wake", "gm_only": ""}, gm)
s, _ = campaign_act(s, "tension-danger", {"setting_die": "", "complications": "",
                                          "note": "Secret", "gm_only": "on"}, gm)
demetri.refresh_from_db()
demetri = act(demetri, "specialization-learn", {"skill": "Physical", "name": "Climbing",
                                                "use": "spread"}, player)
asked = ask(s, [demetri], {"attribute": "Coordination", "skill": "Physical",
                           "specialization": "", "affiliation": "Partner", "setting_die": "6"},
            "Over the wall", gm)
answer(asked[0], player)
ask(s, [demetri], {"attribute": "Wits", "skill": "", "specialization": "", "affiliation": "",
                   "setting_die": ""}, "", gm)
npc(s, "d10 2d8 d6", False, gm)
npc(s, "2d6", True, gm)

# --- Genesys ---------------------------------------------------------------------------------
g = camp["genesys"]
kestrel = g.characters.get()
player = kestrel.owner
roll(kestrel, {"skill": "Stealth", "difficulty": "Daunting", "setback": "2"}, player)
key = first_affordable(kestrel)
kestrel.refresh_from_db()
entry = spend(kestrel, key, player)
undo(entry, gm)
kestrel.refresh_from_db()
spend(kestrel, first_affordable(kestrel), player)
asked = ask(g, [kestrel], {"skill": "Ranged", "difficulty": "Hard", "upgrade_difficulty": "1",
                           "boost": "1", "setback": "0"}, "Shoot the lamp", gm)
answer(asked[0], player)
ask(g, [kestrel], {"skill": "Cool", "difficulty": "Easy", "upgrade_difficulty": "0",
                   "boost": "0", "setback": "1"}, "", gm)
npc(g, "2A 1P vs 3D 1C", False, gm)
npc(g, "3A 2D", True, gm)

# --- 3d6 -------------------------------------------------------------------------------------
t = camp["three_d6"]
mara = t.characters.get()
player = mara.owner
mara.refresh_from_db()
entry = spend(mara, first_affordable(mara), player)
undo(entry, gm)
mara.refresh_from_db()
spend(mara, first_affordable(mara), player)
mara.refresh_from_db()
asked = ask(t, [mara], {"target": "t1", "td": "11", "favor": "1", "disfavor": "0"},
            "Steady the tiller", gm)
answer(asked[0], player)
ask(t, [mara], {"target": "t0", "td": "9", "favor": "0", "disfavor": "1"}, "", gm)
npc(t, "3d6+2 favor 1", False, gm)
npc(t, "3d6-1", True, gm)

# --- Shattered World -------------------------------------------------------------------------
w = camp["shattered_world"]
kaelin = w.characters.get()
player = kaelin.owner
kaelin = act(kaelin, "achievement", {"kind": "feat", "name": "Win a duel",
                                     "category": "universal"}, gm)
award = kaelin.xp_entries.filter(kind="award").order_by("-id").first()
kaelin = act(kaelin, "achievement_undo", {"entry": str(award.pk)}, gm)
asked = ask(w, [kaelin], {"die": "usual", "target": "6", "modifier": "1", "use_uam": "yes"},
            "Climb the cliff", gm)
answer(asked[0], player)
ask(w, [kaelin], {"die": "ad", "target": "4", "modifier": "", "use_uam": "no"}, "", gm)
npc(w, "d8+1 vs 6", False, gm)
npc(w, "d20 +3 x2 vs 15", True, gm)

print(f"{len(done)} steps done")
