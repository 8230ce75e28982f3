"""Once-only form submissions (docs/security.md, "Double submits")."""

from __future__ import annotations

from django.conf import settings
from django.db import models


class FormSubmission(models.Model):
    """A rendered form that took effect: the token its page carried, whose it was, and what
    it made (``result_id``: the roll, the session awarded in).

    Written in the same transaction as the change itself, so the row exists exactly when the
    change does; the unique constraint on (user, form, token) settles two copies of the form
    sent at once, on SQLite and PostgreSQL alike and across server processes: the second
    insert waits for the first transaction and then fails, and that request answers with
    the first one's result (core.submissions.submit_once).
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE,
                             related_name="+")
    form = models.CharField(max_length=32)
    token = models.CharField(max_length=64)
    result_id = models.PositiveBigIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["user", "form", "token"],
                                    name="one_submission_per_form_token"),
        ]

    def __str__(self) -> str:
        return f"{self.form} {self.token[:8]}… by user #{self.user_id} -> #{self.result_id}"
