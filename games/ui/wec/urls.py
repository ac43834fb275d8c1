"""Wec's own pages, included by games/urls.py through the registry: the
Rules & Help page, the board editor and the sandbox."""

from django.urls import path

from games.views import club as club_views

from . import views_help, views_sandbox, views_scenarios

urlpatterns = [
    path("help/", views_help.help_page, name="help"),
    path("scenarios/", views_scenarios.scenario_editor, name="scenario_editor"),
    path("scenarios/start/", views_scenarios.scenario_start, name="scenario_start"),
    path("sandbox/", views_sandbox.sandbox, name="sandbox"),
    path("sandbox/start/", views_sandbox.sandbox_start, name="sandbox_start"),
    path("sandbox/act/", views_sandbox.sandbox_act, name="sandbox_act"),
    path("sandbox/import/", views_sandbox.sandbox_import, name="sandbox_import"),
    # The record's address before it moved to the shared games/<id>/export/
    # (links written before the export moved keep working).
    path("games/<int:game_id>/export.wec", club_views.export_record, name="export_record_wec"),
]
