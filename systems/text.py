"""Words the systems' pages and messages share: a form's errors as one line, a probability as
the odds box writes it."""

from __future__ import annotations

from django import forms


def errors_text(form: forms.Form) -> str:
    """A bound, invalid form's errors as one sentence-per-error string, for a message."""
    return " ".join(str(e) for errors in form.errors.values() for e in errors)


def percent_text(probability: float) -> str:
    """A probability (0-1) as the odds box writes it: "84.4 %"; never "0.0 %" or "100.0 %"
    for what can still happen or still fail ("under 0.1 %", "over 99.9 %")."""
    percent = probability * 100
    if 0 < percent < 0.05:
        return "under 0.1 %"
    if 99.95 < percent < 100:
        return "over 99.9 %"
    return f"{percent:.1f} %"
