from django.apps import AppConfig


class RulesetsConfig(AppConfig):
    """The rules engine: plain Python; registered only for its management commands."""

    name = "rulesets"
