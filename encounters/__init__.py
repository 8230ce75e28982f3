"""Encounters and turn order at a campaign's table (docs/encounters.md)."""
