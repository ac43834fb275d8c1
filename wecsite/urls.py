from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]

if settings.WEC_BENCH_VIEWS:
    # The benchmark's baselines (manage.py bench_site) on its own web
    # processes: the development tools' app, named by its dotted path only.
    urlpatterns.append(path("bench/", include("tools.site.urls")))

# A plain page for server errors that works without the database (503 when the
# database is what failed).
handler500 = "games.views.site.server_error"
