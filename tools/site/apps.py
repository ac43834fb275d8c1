from django.apps import AppConfig


class DevtoolsConfig(AppConfig):
    """The development tools' app: management commands and the benchmark's
    bare views only (no models, no templates)."""

    name = "tools.site"
    label = "devtools"
    verbose_name = "Development tools"
