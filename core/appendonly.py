"""The append-only base: a log whose rows are written once and never edited or deleted
(docs/architecture.md, "Append-only logs"). The XP ledger (``characters.models.XpEntry``)
and the roll log (``rolls.models.Roll``) are such logs: a mistake is corrected by a reversing
entry.

The instance (``save`` of a stored row, ``delete``) and the queryset (``update``, ``delete``)
raise :class:`AppendOnlyError`, and so does a ``pre_delete`` receiver on every append-only
model, which stops the cascade from a row the log hangs from (a character, a campaign) that
Django's deletion collector would run past both. Only a deletion inside :func:`erasing_logs`
takes log rows with it: a whole campaign's, all at once
(``campaigns.services.campaign_delete``), and a character's that has nothing on the logs but
what its creation wrote (``characters.services.character_delete``).
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, ClassVar, TypeVar

from django.db import models
from django.db.models.signals import pre_delete

_M = TypeVar("_M", bound=models.Model)


class AppendOnlyError(RuntimeError):
    """Raised when code tries to edit or delete a row of an append-only log."""


_erasing: ContextVar[str | None] = ContextVar("appendonly_erasing", default=None)


@contextmanager
def erasing_logs(reason: str) -> Iterator[None]:
    """Let the deletions made inside the block take rows of append-only logs with them.

    The named escape hatch of this module (see its docstring): only a service that deletes
    the rows a log hangs from, and has checked that it may, opens it. The direct ways stay
    shut even here (``Roll.delete()``, ``XpEntry.objects.filter(...).delete()`` still raise):
    log rows go only as part of a cascade from their owner's deletion.

    Args:
        reason: why, for a reader of the call (e.g. ``"campaign deleted by its GM"``).

    Yields:
        Nothing; the hatch closes when the block ends, whether or not it raised. It is a
        context variable, so it opens for this thread (or task) only.
    """
    token = _erasing.set(reason)
    try:
        yield
    finally:
        _erasing.reset(token)


def _refuse_cascade(sender: type[AppendOnlyModel], **kwargs: Any) -> None:
    """``pre_delete`` of an append-only model: a cascade outside :func:`erasing_logs` raises
    :class:`AppendOnlyError`, and the whole deletion is rolled back with it."""
    if _erasing.get() is None:
        raise AppendOnlyError(sender.delete_refusal)


class AppendOnlyQuerySet(models.QuerySet[_M]):
    """A queryset of an :class:`AppendOnlyModel`: ``update()`` and ``delete()`` raise
    :class:`AppendOnlyError` with the model's own words."""

    def update(self, **kwargs: Any) -> int:
        """Always raises :class:`AppendOnlyError` (the model's ``edit_refusal``)."""
        raise AppendOnlyError(getattr(self.model, "edit_refusal", "This log is append-only."))

    def delete(self) -> tuple[int, dict[str, int]]:
        """Always raises :class:`AppendOnlyError` (the model's ``delete_refusal``)."""
        raise AppendOnlyError(getattr(self.model, "delete_refusal", "This log is append-only."))


class AppendOnlyModel(models.Model):
    """An abstract model whose rows are inserted once: saving a stored row or deleting one
    raises :class:`AppendOnlyError` (``edit_refusal`` / ``delete_refusal`` say why, in
    the log's own terms). Give the model an :class:`AppendOnlyQuerySet` manager too."""

    edit_refusal: ClassVar[str] = "This log is append-only."
    delete_refusal: ClassVar[str] = "This log is append-only."

    class Meta:
        abstract = True

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        # Every concrete log gets the cascade guard: a receiver for this sender only, so
        # deletions of other models keep Django's fast path.
        pre_delete.connect(_refuse_cascade, sender=cls, weak=False,
                           dispatch_uid=f"appendonly-{cls.__module__}.{cls.__qualname__}")

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert the row; raises :class:`AppendOnlyError` for a row already stored."""
        if not self._state.adding:
            raise AppendOnlyError(self.edit_refusal)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        """Always raises :class:`AppendOnlyError`: rows of the log are never deleted."""
        raise AppendOnlyError(self.delete_refusal)
