from django.conf import settings
from django.contrib import admin
from django.urls import include, path

urlpatterns = [
    path("admin/", admin.site.urls),
    path("accounts/", include("accounts.urls")),
    path("", include("games.urls")),
]

if settings.WEC_BENCH_VIEWS:  # the benchmark's baselines (manage.py bench_site), never in production
    from games import bench_views

    urlpatterns += [
        path("bench/insert/", bench_views.bare_insert, name="bench_insert"),
        path("bench/bytes/", bench_views.bare_bytes, name="bench_bytes"),
    ]

# A plain page for server errors that works without the database (503 when the
# database is what failed).
handler500 = "games.views.server_error"
