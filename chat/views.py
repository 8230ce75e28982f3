"""The GM's page for the group's chat (``/campaigns/<pk>/chat/``): connect the campaign to
a Discord or Slack channel's webhook, change what it posts, send a test post, read how the
last delivery went, and disconnect (after a confirmation).

Whoever runs the table (the GM and the co-GMs, who keep the campaign's settings with the GM:
docs/decisions.md, "The co-GM") uses it; players and strangers get 404. The webhook URL is
never shown back, not even here (``ChatHook.masked`` is). Every form posts plainly and
comes back here with a message; with htmx the page's ``#chat-hook`` region comes back
alone. An archived campaign shows the page read-only and refuses its forms
(``campaigns.archive``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from campaigns.permissions import get_campaign_as_gm
from chat import services
from chat.forms import ChatHookForm
from chat.models import ChatHook

if TYPE_CHECKING:
    from django.http import HttpResponse

    from campaigns.models import Campaign
    from core.http import AuthenticatedHttpRequest

PAGE = "chat/campaign_chat.html"


def _context(campaign: Campaign, hook: ChatHook | None,
             form: ChatHookForm | None = None) -> dict[str, Any]:
    return {"campaign": campaign, "hook": hook,
            "form": form or ChatHookForm(hook=hook, disabled=campaign.is_archived)}


def _answer(request: AuthenticatedHttpRequest, campaign: Campaign, text: str) -> HttpResponse:
    """After a change: the region for htmx (the message in it), else a message and the
    page."""
    messages.success(request, text)
    if request.htmx:
        hook = ChatHook.objects.filter(campaign=campaign).first()
        return render(request, f"{PAGE}#chat-hook", _context(campaign, hook))
    return redirect("chat:campaign-chat", campaign.pk)


@login_required
def campaign_chat(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """The chat page. GET shows the connection (its masked URL, what it posts, its last
    delivery and error) and the form; POST saves the form (connects, or changes the
    connection) and comes back here, or shows the form again with the input and the
    reasons (a URL that is not https on a public host says why)."""
    campaign = get_campaign_as_gm(request.user, pk)
    hook = ChatHook.objects.filter(campaign=campaign).first()
    form = ChatHookForm(request.POST or None, hook=hook)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data
        try:
            services.chat_hook_save(
                campaign=campaign, url=data["url"], format=data["format"],
                switches={name: data[name] for name in services.SWITCHES}, by=request.user)
        except ValueError as exc:
            # UnsafeWebhook: resolved again when saved, the host's answer changed since the
            # form's check; or the hook was disconnected meanwhile and a blank URL keeps none.
            form.add_error("url", str(exc))
        else:
            return _answer(request, campaign, "Chat connected: send a test post to try it."
                           if hook is None else "Chat settings saved.")
    if request.method != "POST":
        form = ChatHookForm(hook=hook, disabled=campaign.is_archived)
    context = _context(campaign, hook, form)
    if request.htmx and request.method == "POST":
        return render(request, f"{PAGE}#chat-hook", context)
    return render(request, PAGE, context)


@require_POST
@login_required
def campaign_chat_test(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Queue a test post to the campaign's channel; its outcome shows in the status once the
    worker has sent it. Without a connection, says so."""
    campaign = get_campaign_as_gm(request.user, pk)
    hook = ChatHook.objects.filter(campaign=campaign).first()
    if hook is None:
        messages.error(request, "Connect a channel first.")
        return redirect("chat:campaign-chat", campaign.pk)
    services.chat_test_post(hook=hook)
    return _answer(request, campaign, "Test post sent to the worker: reload this page in a "
                                      "few seconds to see whether it arrived.")


@login_required
def campaign_chat_delete(request: AuthenticatedHttpRequest, pk: int) -> HttpResponse:
    """Ask, then disconnect the campaign from its channel: the URL is deleted here (the
    channel's webhook itself stays until someone deletes it in the chat). GET asks; POST
    disconnects and goes back to the chat page."""
    campaign = get_campaign_as_gm(request.user, pk)
    hook = ChatHook.objects.filter(campaign=campaign).first()
    if request.method == "POST":
        services.chat_hook_delete(campaign=campaign)
        return _answer(request, campaign, "Chat disconnected: nothing more is posted to it.")
    if hook is None:
        return redirect("chat:campaign-chat", campaign.pk)
    return render(request, "chat/campaign_chat_delete.html", {"campaign": campaign,
                                                               "hook": hook})
