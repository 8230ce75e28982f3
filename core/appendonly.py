"""The append-only base: a log whose rows are written once and never edited or deleted.

The XP ledger (``characters.models.XpEntry``) and the roll log (``rolls.models.Roll``) are
kept true this way (DESIGN.md, "Always: rolls and ledger entries are appended, never
edited"): a mistake is corrected by a reversing entry, so history stays what happened. Both the
instance (``save`` of a stored row, ``delete``) and the queryset (``update``, ``delete``)
refuse, so neither a view nor a bulk change can rewrite the log.
"""

from __future__ import annotations

from typing import Any, ClassVar, TypeVar

from django.db import models

_M = TypeVar("_M", bound=models.Model)


class AppendOnlyError(RuntimeError):
    """Raised when code tries to edit or delete a row of an append-only log."""


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

    def save(self, *args: Any, **kwargs: Any) -> None:
        """Insert the row; raises :class:`AppendOnlyError` for a row already stored."""
        if not self._state.adding:
            raise AppendOnlyError(self.edit_refusal)
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> tuple[int, dict[str, int]]:
        """Always raises :class:`AppendOnlyError`: rows of the log are never deleted."""
        raise AppendOnlyError(self.delete_refusal)
