"""Maelstrom's character creation wizard: one URL, five steps, the draft in the session.

``?step=<slug>`` picks the step on GET; POSTs carry ``step`` in the form. A step that is not
reachable yet (an earlier one is not done, or was broken by a later change) redirects to the
first open one. The starting-XP step previews its total: HTMX POSTs with ``preview`` get the
``xp-summary`` partial only; without JavaScript the "Update total" button does a full POST.

The generic ``characters:character-create`` sends a Maelstrom campaign here
(``SheetSystem.creation_url``). This module sits with the services and views: it writes the
finished character through ``characters.services.character_create``.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods

from campaigns.models import Campaign
from campaigns.permissions import get_membership
from characters import services
from core.http import AuthenticatedHttpRequest
from rulesets import maelstrom
from systems.maelstrom import creation, creation_forms
from systems.maelstrom.creation import STEP_SLUGS, STEPS, Draft
from systems.maelstrom.sheet import SLUG
from systems.maelstrom.system import SYSTEM

TEMPLATE = SYSTEM.template("create.html")
FORM_STEPS: dict[str, Any] = {
    "concept": creation_forms.ConceptForm,
    "attributes": creation_forms.AttributesForm,
    "abilities": creation_forms.AbilitiesForm,
}


@require_http_methods(["GET", "POST"])
@login_required
def character_create(request: AuthenticatedHttpRequest, campaign_id: int) -> HttpResponse:
    """Create a Maelstrom character in five checked steps (Maelstrom rules.md, Character
    Creation); any member of the campaign may. Non-members get 404, and so does a campaign
    of another rule system (its creation page is the generic one)."""
    campaign = get_membership(request.user, campaign_id).campaign
    if campaign.ruleset != SLUG:
        raise Http404("This campaign does not use the Maelstrom rules.")
    draft = creation.draft_load(request.session, campaign.pk)
    open_step = creation.first_open_step(draft, campaign.starting_xp)
    source = request.POST if request.method == "POST" else request.GET
    step = source.get("step") or open_step
    if step not in STEP_SLUGS or STEP_SLUGS.index(step) > STEP_SLUGS.index(open_step):
        if request.method == "POST":  # a stale or tampered form: say why nothing was saved
            title = STEPS[STEP_SLUGS.index(open_step)].title
            messages.warning(request, f"That step is not open yet: continue with “{title}”.")
        return redirect(_step_url(campaign, open_step))
    if step in FORM_STEPS:
        return _form_step(request, campaign, draft, open_step, step)
    if step == "review" and request.method == "POST" and _is_preview(request):
        # Only the XP step previews; a preview posted to the review (hostile or stale)
        # must not make the character. The review as a GET shows what it would be.
        return redirect(_step_url(campaign, "review"))
    handler = _xp_step if step == "xp" else _review_step
    return handler(request, campaign, draft, open_step)


def _form_step(
    request: AuthenticatedHttpRequest, campaign: Campaign, draft: Draft, open_step: str, slug: str
) -> HttpResponse:
    """The name, attributes and abilities steps: a form the rules engine checks, applied to
    the draft when valid."""
    form_class = FORM_STEPS[slug]
    if request.method == "POST":
        form = form_class(request.POST)
        # Only the XP step previews; a preview posted to another step (a hostile or stale
        # request) is still a preview: it is checked and shown, never kept.
        if form.is_valid() and not _is_preview(request):  # (character_create: never kept)
            form.apply(draft)
            return _advance(request, campaign, draft, slug)
    else:
        form = form_class(initial=form_class.initial_from(draft))
    return _render(request, campaign, draft, slug, open_step, {"form": form})


def _xp_step(
    request: AuthenticatedHttpRequest, campaign: Campaign, draft: Draft, open_step: str
) -> HttpResponse:
    if request.method == "GET":
        xp = creation_forms.XpStep(draft)
        return _render(request, campaign, draft, "xp", open_step, _xp_context(xp, draft, campaign))

    xp = creation_forms.XpStep(draft, data=request.POST)
    valid = xp.is_valid()
    candidate = xp.candidate()
    context = _xp_context(xp, candidate, campaign)
    if _is_preview(request):
        return render(request, f"{TEMPLATE}#xp-summary", context)
    if not valid:
        return _render(request, campaign, draft, "xp", open_step, context)

    # Valid entries are kept even when the step cannot be left yet (e.g. overspent): the
    # gate re-checks the step before the review opens, and nothing is in the database.
    creation.draft_save(request.session, campaign.pk, candidate)
    if request.POST.get("action") != "next":
        return redirect(_step_url(campaign, "xp"))
    problems = creation.check_purchases(candidate, campaign.starting_xp)
    if problems:
        context["step_errors"] = [str(problem) for problem in problems]
        return _render(request, campaign, candidate, "xp", open_step, context)
    return _advance(request, campaign, candidate, "xp")


def _review_step(
    request: AuthenticatedHttpRequest, campaign: Campaign, draft: Draft, open_step: str
) -> HttpResponse:
    context: dict[str, Any] = {"summary": _summary(draft, campaign.starting_xp)}
    if request.method == "POST":
        try:
            finished = creation.finished_character(draft, campaign.starting_xp)
        except ValueError as error:  # RuleError included: the draft changed under us
            context["step_errors"] = [str(error)]
        else:
            character = services.character_create(
                campaign=campaign, owner=request.user, name=finished.name,
                concept=finished.concept, sheet=finished.sheet, entries=finished.entries,
            )
            creation.draft_clear(request.session, campaign.pk)
            messages.success(request, f"{character.name} is ready to play.")
            return redirect(character.get_absolute_url())
    context["review"] = _review_rows(draft)
    return _render(request, campaign, draft, "review", open_step, context)


# ---------------------------------------------------------------------------------------------


def _is_preview(request: AuthenticatedHttpRequest) -> bool:
    """Whether the POST asks only to see what it would do (htmx, with ``preview``): the XP
    step's running total. A preview writes nothing, not even the draft in the session."""
    return bool(request.htmx and request.POST.get("preview"))


def _wizard_url(campaign: Campaign) -> str:
    return reverse(f"{SLUG}:character-create", args=[campaign.pk])


def _step_url(campaign: Campaign, slug: str) -> str:
    return f"{_wizard_url(campaign)}?step={slug}"


def _advance(
    request: AuthenticatedHttpRequest, campaign: Campaign, draft: Draft, slug: str
) -> HttpResponse:
    """Mark ``slug`` done, keep the draft, and go to the next step still needing the player."""
    draft.complete(slug)
    creation.draft_save(request.session, campaign.pk, draft)
    following = STEP_SLUGS[STEP_SLUGS.index(slug) + 1]
    open_step = creation.first_open_step(draft, campaign.starting_xp)
    if STEP_SLUGS.index(open_step) < STEP_SLUGS.index(following):
        following = open_step
    return redirect(_step_url(campaign, following))


def _render(
    request: AuthenticatedHttpRequest,
    campaign: Campaign,
    draft: Draft,
    step: str,
    open_step: str,
    context: dict[str, Any],
) -> HttpResponse:
    reachable = STEP_SLUGS.index(open_step)
    current = STEP_SLUGS.index(step)
    steps = [
        {
            "number": index + 1,
            "slug": item.slug,
            "title": item.title,
            "url": _step_url(campaign, item.slug),
            "current": index == current,
            "reachable": index <= reachable,
        }
        for index, item in enumerate(STEPS)
    ]
    return render(
        request,
        TEMPLATE,
        {
            "campaign": campaign,
            "system": SYSTEM,
            "draft": draft,
            "step": step,
            "step_title": STEPS[current].title,
            "steps": steps,
            "earlier_steps": steps[:current],
            "wizard_url": _wizard_url(campaign),
            "dots_max": maelstrom.DOTS_MAX,
            "willpower_max": maelstrom.WILLPOWER_MAX,
            "starting_willpower": maelstrom.STARTING_WILLPOWER,
            **context,
        },
    )


def _xp_context(xp: creation_forms.XpStep, draft: Draft, campaign: Campaign) -> dict[str, Any]:
    summary = _summary(draft, campaign.starting_xp)
    summary["problems"] = xp.error_messages() + [
        str(problem)
        for problem in maelstrom.check_combinations(draft.specialties, draft.merits_flaws)
    ]
    return {
        "xp": xp,
        "summary": summary,
        "suggestions": creation_forms.specialty_suggestions(),
        "merits": list(maelstrom.MERITS.values()),
        "flaws": list(maelstrom.FLAWS.values()),
        "campaign": campaign,
    }


def _summary(draft: Draft, starting_xp: int) -> dict[str, Any]:
    """What the xp-summary partial shows."""
    try:
        lines, remaining = creation.xp_breakdown(draft, starting_xp)
    except maelstrom.RuleError as error:  # only from a draft the gate would refuse anyway
        return {"starting_xp": starting_xp, "error": str(error), "lines": [], "problems": []}
    return {
        "starting_xp": starting_xp,
        "purchases": [line for line in lines if line.kind == "spend"],
        "merits": [line for line in lines if line.kind == "merit"],
        "flaws": [line for line in lines if line.kind == "flaw"],
        "remaining": remaining,
        "available": sum(line.delta for line in lines if line.delta > 0),
        "spent": sum(line.cost for line in lines if line.delta < 0),
        "short": -remaining,
        "problems": [],
    }


def _dots(rank: int, maximum: int) -> str:
    return "●" * rank + "○" * max(0, maximum - rank)


def _review_rows(draft: Draft) -> dict[str, Any]:
    def row(name: str, start: int, final: int, maximum: int) -> dict[str, Any]:
        return {"name": name, "start": start, "final": final, "dots": _dots(final, maximum)}

    return {
        "attribute_groups": [
            (group, [row(n, draft.attribute_start(n), draft.attribute_final(n),
                         maelstrom.DOTS_MAX) for n in names])
            for group, names in maelstrom.ATTRIBUTE_GROUPS.items()
        ],
        "ability_groups": [
            (group, [row(n, draft.ability_start(n), draft.ability_final(n),
                         maelstrom.DOTS_MAX) for n in names])
            for group, names in maelstrom.ABILITY_GROUPS.items()
        ],
        "willpower": row("Willpower", maelstrom.STARTING_WILLPOWER, draft.willpower,
                         maelstrom.WILLPOWER_MAX),
    }
