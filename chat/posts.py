"""What a post says, and its shape for each chat: a :class:`Post` in plain words, then
Discord's JSON (:func:`discord_body`: an embed, no mentions) or Slack's (:func:`slack_body`:
``text`` and blocks). Which entries are posted at all is :mod:`chat.relay`'s decision.

Discord's execute-webhook body and Slack's incoming-webhook body are documented by each
service ("Execute Webhook"; "Sending messages using incoming webhooks").
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from django.conf import settings
from django.urls import Resolver404, resolve

import systems
from campaigns.models import Session
from chat.models import ChatHook
from core.templatetags.text import display_name

if TYPE_CHECKING:
    from campaigns.models import Campaign
    from history.models import Activity
    from rolls.models import Roll

__all__ = ["Post", "activity_post", "body", "discord_body", "slack_body", "test_post"]

TITLE_LENGTH = 250
"""The longest title (Discord's embed titles hold 256 characters)."""

MARKDOWN_LENGTH = 2500
"""The most of a recap a post carries (Discord's embed descriptions hold 4,096 characters,
Slack's section blocks 3,000); the link leads to the rest."""


@dataclass(frozen=True)
class Post:
    """One post in plain words: ``title`` (what happened), ``lines`` below it (the outcome,
    who did it), an absolute ``link`` back to the table and its ``link_text``, and the
    campaign's name as ``footer``; each format escapes them. ``markdown`` is what a member
    wrote for the table to read (a session's recap), passed on as written (cut at
    :data:`MARKDOWN_LENGTH`): Discord renders it, Slack shows it as text."""

    title: str
    footer: str
    lines: tuple[str, ...] = ()
    link: str = ""
    link_text: str = field(default="Open in Sheetkeeper")
    markdown: str = ""


def absolute(path: str) -> str:
    """``path`` on this site (``settings.SITE_URL`` + path), or ``""`` when no site URL is
    set or the path is empty: a post then has no link rather than a wrong one."""
    base = settings.SITE_URL
    return f"{base}{path}" if base and path.startswith("/") else ""


def _outcome(roll: Roll) -> str:
    """The roll's verdict in the system's words ("Success · 2 successes"); the summary alone
    where the system gives no pass or fail, or where the summary already says it."""
    summary = roll.summary
    if roll.outcome == roll.Outcome.ROLLED:
        return summary
    label = roll.get_outcome_display()
    return summary if label.lower() in summary.lower() else f"{label} · {summary}"


def roll_post(activity: Activity, roll: Roll) -> Post:
    """A roll as the channel reads it: who rolled what ("Vex rolled Precision + Driving ·
    7 dice · diff 6", the system's own header of the pool), the outcome, and a link to the
    roll's page."""
    campaign = activity.campaign
    header = systems.for_campaign(campaign).roll_header(roll)
    who = activity.character.name if activity.character is not None else "The GM"
    lines = [_outcome(roll)]
    if activity.actor is not None and (activity.character is None
                                       or activity.character.owner_id != activity.actor_id):
        lines.append(f"Rolled by {display_name(activity.actor)}")
    return Post(title=f"{who} rolled {header.short}", lines=tuple(lines),
                link=absolute(roll.get_absolute_url()), link_text="See the roll",
                footer=campaign.name)


def activity_post(activity: Activity) -> Post:
    """The post of one relayed entry of the activity log: a roll's (:func:`roll_post`), or
    for anything else the entry's own words ("Awarded 3 XP: the heist") with who did it, to
    whom, and a link to the page the entry names (the session's, the encounter's), else the
    character's, else the campaign's."""
    if activity.roll is not None:
        return roll_post(activity, activity.roll)
    campaign = activity.campaign
    lines = []
    who = display_name(activity.actor) if activity.actor is not None else ""
    if activity.character is not None:
        lines.append(f"{activity.character.name}" + (f" · by {who}" if who else ""))
    elif who:
        lines.append(f"By {who}")
    path = activity.link or (activity.character.get_absolute_url()
                             if activity.character is not None else campaign.get_absolute_url())
    recap = _recap(activity) if (activity.kind, activity.action) == ("session", "recap") else ""
    return Post(title=activity.text, lines=tuple(lines), link=absolute(path),
                footer=campaign.name, markdown=_cut(recap, MARKDOWN_LENGTH))


def _recap(activity: Activity) -> str:
    """The recap of the session a recap entry links to, as it reads now (``""`` for none):
    the entry names its session by its page (``Activity.link``), and every member reads the
    recap there."""
    try:
        match = resolve(activity.link)
    except Resolver404:
        return ""
    if match.view_name != "table:session-detail" or "session_pk" not in match.kwargs:
        return ""
    session = Session.objects.filter(pk=match.kwargs["session_pk"],
                                     campaign_id=activity.campaign_id).first()
    return session.recap if session is not None else ""


def test_post(campaign: Campaign) -> Post:
    """The GM's "send a test post": says the channel is connected, links the campaign."""
    return Post(title="Sheetkeeper is connected to this channel",
                lines=(f"Rolls, XP awards, recaps and turns of {campaign.name} "
                       "will be posted here.",),
                link=absolute(campaign.get_absolute_url()), footer=campaign.name)


_DISCORD_MARKUP = re.compile(r"([\\*_~`|<>\[\]])")


def _discord_text(text: str) -> str:
    """``text`` with Discord's Markdown escaped, so a name reads as typed."""
    return _DISCORD_MARKUP.sub(r"\\\1", text)


def _cut(text: str, length: int) -> str:
    return text if len(text) <= length else text[:length - 1] + "…"


def discord_body(post: Post) -> dict[str, Any]:
    """Discord's execute-webhook JSON: one embed (its title linking back), and
    ``allowed_mentions`` empty, so a name like "@everyone" pings nobody."""
    description = "\n".join(_discord_text(line) for line in post.lines)
    if post.markdown:
        description += "\n\n" + post.markdown
    embed: dict[str, Any] = {
        "title": _cut(_discord_text(post.title), TITLE_LENGTH),
        "description": _cut(description, 4000),
        "footer": {"text": _cut(post.footer, 200)},
    }
    if post.link:
        embed["url"] = post.link
    return {"username": "Sheetkeeper", "embeds": [embed], "allowed_mentions": {"parse": []}}


def _slack_text(text: str) -> str:
    """``text`` with the three characters Slack's mrkdwn reserves escaped."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def slack_body(post: Post) -> dict[str, Any]:
    """Slack's incoming-webhook JSON: ``text`` (what notifications show) and blocks: the
    title in bold, the lines and the link; the recap, if any; the campaign's name as
    context."""
    lines = [f"*{_slack_text(_cut(post.title, TITLE_LENGTH))}*",
             *(_slack_text(line) for line in post.lines)]
    if post.link:
        lines.append(f"<{post.link}|{_slack_text(post.link_text)}>")
    blocks: list[dict[str, Any]] = [
        {"type": "section", "text": {"type": "mrkdwn", "text": _cut("\n".join(lines), 2900)}}]
    if post.markdown:
        blocks.append({"type": "section", "text": {
            "type": "mrkdwn", "text": _cut(_slack_text(post.markdown), 2900)}})
    blocks.append({"type": "context", "elements": [
        {"type": "mrkdwn", "text": _slack_text(_cut(post.footer, 200))}]})
    return {
        "text": _slack_text(" · ".join([_cut(post.title, TITLE_LENGTH), *post.lines])),
        "blocks": blocks,
    }


def body(hook: ChatHook, post: Post) -> dict[str, Any]:
    """The JSON body of ``post`` in the hook's format."""
    if hook.format == ChatHook.Format.SLACK:
        return slack_body(post)
    return discord_body(post)
